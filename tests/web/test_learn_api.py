"""The puzzles and review API: puzzles checked against the table, a saved position's puzzle,
a reviewed game, and clear errors for rules without a table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.core.records import GameRecord
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore
from boardlab.web import create_app

REVIEWS = Path(__file__).parents[1] / "ai" / "reviews"


@pytest.fixture
def learn(small_tables_folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tables=small_tables_folder), base_url="http://localhost") as c:
        yield c


def test_puzzles_are_reproducible_and_checked(learn: TestClient, small_tables_folder: Path) -> None:
    q = "/api/puzzles?variant=classic&size=4&count=6&seed=9"
    one = learn.get(q)
    assert one.status_code == 200, one.text
    assert one.json() == learn.get(q).json()
    data = one.json()["puzzles"]
    assert len(data) == 6 and {p["kind"] for p in data} == {"win", "defend", "hold"}
    rules = rules_for("classic", 4)
    table = TableStore(small_tables_folder).open(rules)
    for p in data:
        pos = rules.parse_position(p["position"])
        keep = [
            rules.format_move(m)
            for m in rules.legal_moves(pos)
            if table.probe(rules.play(pos, m))[0].flipped().value == p["value"]
        ]
        assert p["solution"] in keep and (p["fastest"] or keep == [p["solution"]])
    only = learn.get("/api/puzzles?size=4&count=2&seed=1&kind=hold").json()["puzzles"]
    assert [p["kind"] for p in only] == ["hold", "hold"]


def test_the_puzzle_of_a_saved_position(learn: TestClient) -> None:
    r = learn.post("/api/puzzle", json={"size": 3, "position": "B2/B2/1RR b"})
    assert r.status_code == 200, r.text
    assert (r.json()["solution"], r.json()["kind"]) == ("a3-b3", "win")
    # 4×4's start: three moves hold the draw, so it is no puzzle
    r = learn.post("/api/puzzle", json={"size": 4, "position": "B3/B3/B3/1RRR b"})
    assert r.status_code == 400 and "no puzzle" in r.json()["error"]


def test_review_of_a_golden_record(learn: TestClient) -> None:
    rec = GameRecord.load(REVIEWS / "classic-4.txt")
    body = {"game": "dodgem", "variant": "classic", "size": 4, "moves": rec.moves}
    r = learn.post("/api/review", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["summary"] == "3 mistakes, first at move 1 (red d1-d2)"
    marks = {m["ply"]: m["mark"] for m in data["moves"] if m["mistake"]}
    assert marks == {2: "draw-loss", 7: "win-draw", 12: "draw-loss"}
    assert data["moves"][1]["better_line"][0] == data["moves"][1]["best"] == "c1-c2"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("get", "/api/puzzles?game=dotdash", None, 400, "no complete table"),
        ("get", "/api/puzzles?size=5", None, 404, "not built yet"),
        ("get", "/api/puzzles?count=500", None, 422, "count"),
        ("get", "/api/puzzles?kind=mate", None, 422, "kind"),
        ("post", "/api/review", {"size": 3, "moves": ["b1-b2"]}, 400, "red's; blue to move"),
        ("post", "/api/puzzle", {"size": 3, "position": "zz"}, 400, ""),
    ],
)
def test_bad_requests_get_one_line(
    learn: TestClient, method: str, path: str, body: object, status: int, message: str
) -> None:
    r = learn.get(path) if method == "get" else learn.post(path, json=body)
    assert r.status_code == status, r.text
    assert message in r.json()["error"] and "\n" not in r.json()["error"]


def test_the_pages_are_served(learn: TestClient) -> None:
    for path in ("/puzzles", "/review"):
        r = learn.get(path)
        assert r.status_code == 200 and "<!doctype html>" in r.text.lower()


def test_ladder_ratings_are_those_of_the_board_played(
    learn: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardlab.ai import ladder
    from boardlab.ai.levels import level_table
    from boardlab.core.registry import games

    d4 = learn.get("/api/ladder?game=dodgem&variant=classic&size=4").json()
    assert (d4["variant"], d4["size"]) == ("classic", 4)
    values = [d4["ratings"][k] for k in ("random", "1", "2", "3", "4")]
    assert values == sorted(values)
    # every measured board is served as its data says, with its intervals
    for info in games().values():
        if info.level_data is None:
            continue
        for board in level_table(info):
            d = learn.get(f"/api/ladder?game={info.name}&variant={board.variant}&size={board.size}")
            assert d.json()["ratings"] == (board.ratings_by_player() or {})
            for level, r in enumerate(board.ratings or (), 1):
                if r.interval is not None:
                    assert d.json()["intervals"][str(level)] == list(r.interval)
    # a board nobody measured shows no ratings rather than another board's
    measured = ladder.measured_board
    monkeypatch.setattr(
        ladder,
        "measured_board",
        lambda g, v, n: (
            None if (g, v, n) == ("dotdash", "capture-unlimited", 19) else measured(g, v, n)
        ),
    )
    r = learn.get("/api/ladder?game=dotdash&variant=capture-unlimited&size=19")
    assert r.json()["ratings"] == {} and r.json()["intervals"] == {}
    d = learn.get("/api/ladder?game=dotdash").json()  # the game's default variant and size
    assert d["ratings"] == (ladder.ladder_ratings("dotdash", d["variant"], d["size"]) or {})
    r = learn.get("/api/ladder?game=nim&size=5")
    assert r.status_code == 400 and "\n" not in r.json()["error"]
