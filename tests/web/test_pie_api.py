"""POST /api/pie: the computer's part of the Dot Dash pie setup (place three stones, or
choose a colour for the human's setup), and its 4xx answers to bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.core.registry import make_rules
from boardlab.games.dotdash.pie import pie_position


def pie(client: TestClient, body: dict[str, Any]) -> Any:
    r = client.post("/api/pie", json=body)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("setup", ["R:D4 B:E5,F4", "setup B:C3 R:G7,G6 b", "r:e5 b:e6,f5 r"])
def test_choose_takes_a_colour_and_starts_the_game_from_the_setup(
    client: TestClient, setup: str
) -> None:
    rules = make_rules("dotdash", None, 9)
    expected = pie_position(rules, setup)  # type: ignore[arg-type]
    data = pie(client, {"size": 9, "role": "choose", "setup": setup, "seed": 5, "level": "2"})
    assert data["role"] == "choose"
    assert data["player"] == "2"
    assert data["setup"] == expected.setup_text()
    assert data["colour"] in (0, 1)
    assert data["colour_name"] == ["red", "blue"][data["colour"]]
    state = data["state"]
    assert state["game"] == "dotdash" and state["size"] == 9
    assert state["moves"] == []
    assert state["start"] == str(expected)
    single = [expected.count(0), expected.count(1)].index(1)
    assert state["to_move"] == single
    assert state["legal_moves"]
    # the same request gives the same answer
    again = pie(client, {"size": 9, "role": "choose", "setup": setup, "seed": 5, "level": "2"})
    assert again["colour"] == data["colour"]


@pytest.mark.parametrize("size", [7, 9])
def test_place_gives_a_valid_pie_setup(client: TestClient, size: int) -> None:
    data = pie(client, {"size": size, "role": "place", "seed": 11})
    assert data["role"] == "place"
    assert data["colour"] is None and data["colour_name"] is None
    rules = make_rules("dotdash", None, size)
    position = pie_position(rules, data["setup"])  # type: ignore[arg-type]
    assert sorted([position.count(0), position.count(1)]) == [1, 2]
    assert data["state"]["start"] == str(position)
    assert data["state"]["to_move"] == position.to_move
    assert pie(client, {"size": size, "role": "place", "seed": 11})["setup"] == data["setup"]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"size": 9, "role": "choose", "setup": "R:D4 B:E5"}, 400),  # two stones
        ({"size": 9, "role": "choose", "setup": "R:D4,D5 B:E5,E6"}, 400),  # four stones
        ({"size": 9, "role": "choose", "setup": "R:D4 B:E5,F4 b"}, 400),  # wrong side first
        ({"size": 9, "role": "choose", "setup": "R:J10 B:E5,F4"}, 400),  # off the board
        ({"size": 9, "role": "choose", "setup": "R:D4 B:D4,F4"}, 400),  # one point twice
        ({"size": 9, "role": "choose", "setup": "hello world"}, 400),
        ({"size": 9, "role": "choose"}, 422),  # nothing to choose for
        ({"size": 9, "role": "place", "setup": "R:D4 B:E5,F4"}, 422),
        ({"size": 9, "role": "swap"}, 422),
        ({"size": 9, "role": "place", "level": "9"}, 422),
        ({"size": 2, "role": "place"}, 422),
        ({"game": "dodgem", "role": "place"}, 422),
        ({"size": 9, "role": "place", "colour": "r"}, 422),  # unknown field
        ({"size": 9, "variant": "nonesuch", "role": "place"}, 400),
    ],
)
def test_bad_pie_requests_are_4xx_with_a_one_line_error(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    r = client.post("/api/pie", json=body)
    assert r.status_code == status, r.text
    data = r.json()
    assert data["error"] and "\n" not in data["error"]
    assert data["kind"] != "InternalError"
