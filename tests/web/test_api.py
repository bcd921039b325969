"""The JSON API through FastAPI's TestClient: replay, computer moves, analysis, records, errors."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardlab.web import create_app

START3 = "B2/B2/1RR b"


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_games_come_from_the_registry(client: TestClient) -> None:
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert "dodgem" in names
    dodgem = next(g for g in data["games"] if g["name"] == "dodgem")
    variants = {v["name"]: v for v in dodgem["variants"]}
    assert {"classic", "blocked-loses", "misere", "piecepack"} <= set(variants)
    assert variants["classic"]["players"] == ["blue", "red"]
    assert variants["piecepack"]["players"] == ["red", "green"]
    assert variants["classic"]["sizes"] == [3, 8]
    assert data["levels"] == ["1", "2", "3", "4"]


def test_state_of_the_3x3_start(client: TestClient) -> None:
    data = post(client, "/api/state", {"size": 3})
    assert data["position"] == START3
    assert data["to_move"] == 0
    assert data["result"] is None
    # a3 can only go east; a2 east or south (a3 is taken)
    assert set(data["legal_moves"]) == {"a3-b3", "a2-b2", "a2-a1"}


def test_state_replays_moves_in_any_case_and_answers_canonically(client: TestClient) -> None:
    data = post(client, "/api/state", {"size": 3, "moves": ["A2-B2", " c1 - c2 "]})
    assert data["moves"] == ["a2-b2", "c1-c2"]
    assert data["positions"] == [START3, "B2/1B1/1RR r", "B2/1BR/1R1 b"]
    assert data["position"] == "B2/1BR/1R1 b"


def test_a_finished_game_has_a_result_and_no_moves(client: TestClient) -> None:
    # Blue drives its two cars across and off while Red shuffles c1/b1.
    moves = ["a3-b3", "b1-a1", "b3-c3", "a1-b1", "c3-off", "b1-a1", "a2-b2", "a1-b1",
             "b2-c2", "b1-a1", "c2-off"]  # fmt: skip
    data = post(client, "/api/state", {"size": 3, "moves": moves})
    assert data["result"] == {"winner": 0, "reason": "cleared", "tag": "1-0"}
    assert data["legal_moves"] == []
    r = client.post("/api/state", json={"size": 3, "moves": [*moves, "c1-c2"]})
    assert r.status_code == 400
    assert "move 12" in r.json()["error"]


def test_start_position_from_the_client(client: TestClient) -> None:
    data = post(client, "/api/state", {"size": 3, "start": "3/1B1/R2 r"})
    assert data["to_move"] == 1
    assert set(data["legal_moves"]) == {"a1-a2", "a1-b1"}


def test_illegal_move_is_a_400_with_the_reason(client: TestClient) -> None:
    r = client.post("/api/state", json={"size": 3, "moves": ["a2-c2"]})
    assert r.status_code == 400
    body = r.json()
    assert body["kind"] == "IllegalMoveError"
    assert body["error"].startswith("move 1 (a2-c2)")
    assert "east" in body["error"]


def test_bad_input_never_gives_a_500(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int]] = [
        ({"size": 3, "moves": ["zz"]}, 400),
        ({"game": "chess"}, 400),
        ({"variant": "nonsense"}, 400),
        ({"size": 3, "start": "B2/B2 b"}, 400),
        ({"size": 3, "start": "B3/B3/B3/1RRR b"}, 400),
        ({"size": 2}, 422),
        ({"size": 3, "moves": ["a2-b2"] * 2001}, 422),
        ({"size": 3, "colour": "blue"}, 422),
        ({"moves": "a2-b2"}, 422),
    ]
    for body, status in cases:
        r = client.post("/api/state", json=body)
        assert r.status_code == status, (body, r.text)
        assert isinstance(r.json()["error"], str) and "\n" not in r.json()["error"]
    r = client.post(
        "/api/state", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    r = client.post("/api/move", json={"size": 3, "level": "9"})
    assert r.status_code == 422
    r = client.get("/api/tables?size=99")
    assert r.status_code == 422


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.text(max_size=12), max_size=4))
def test_arbitrary_move_text_gets_a_clean_answer(client: TestClient, moves: list[str]) -> None:
    r = client.post("/api/state", json={"size": 4, "moves": moves})
    assert r.status_code in (200, 400, 422)
    if r.status_code != 200:
        assert r.json()["error"]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.integers(min_value=0, max_value=50), max_size=30), st.sampled_from([3, 4, 5]))
def test_replay_of_legal_moves_is_consistent(
    client: TestClient, picks: list[int], size: int
) -> None:
    moves: list[str] = []
    data = post(client, "/api/state", {"size": size, "moves": moves})
    for pick in picks:
        if not data["legal_moves"]:
            break
        moves.append(data["legal_moves"][pick % len(data["legal_moves"])])
        after = post(client, "/api/state", {"size": size, "moves": moves})
        assert after["positions"][:-1] == data["positions"]
        assert after["to_move"] != data["to_move"]
        data = after
    assert len(data["positions"]) == len(moves) + 1
    assert data["position"] == data["positions"][-1]


def test_random_computer_move_is_legal_and_seeded(client: TestClient) -> None:
    start = post(client, "/api/state", {"size": 4})
    a = post(client, "/api/move", {"size": 4, "level": "random", "seed": 7})
    b = post(client, "/api/move", {"size": 4, "level": "random", "seed": 7})
    assert a["move"] in start["legal_moves"]
    assert a["move"] == b["move"]
    assert a["state"]["moves"] == [a["move"]]
    assert a["state"]["to_move"] == 1


def test_level_moves_are_legal(client: TestClient) -> None:
    moves: list[str] = []
    for level in ["1", "2", "3", "1", "2", "3"]:
        before = post(client, "/api/state", {"size": 4, "moves": moves})
        out = post(client, "/api/move", {"size": 4, "moves": moves, "level": level, "seed": 1})
        assert out["move"] in before["legal_moves"]
        moves.append(out["move"])


def test_computer_move_in_a_finished_game_is_refused(client: TestClient) -> None:
    end = post(client, "/api/playout", {"size": 3, "players": ["random", "random"], "seed": 3})
    r = client.post(
        "/api/move", json={"size": 3, "moves": end["state"]["moves"], "level": "random"}
    )
    assert r.status_code == 400
    assert "over" in r.json()["error"]


def test_playout_reaches_the_end_and_replays(client: TestClient) -> None:
    out = post(client, "/api/playout", {"size": 3, "players": ["1", "random"], "seed": 11})
    assert out["state"]["result"] is not None
    again = post(client, "/api/state", {"size": 3, "moves": out["moves"]})
    assert again["result"] == out["state"]["result"]
    same = post(client, "/api/playout", {"size": 3, "players": ["1", "random"], "seed": 11})
    assert same["moves"] == out["moves"]


def test_level_4_wins_3x3_as_blue_against_anything(client: TestClient) -> None:
    # 3x3 is a first-player win, so perfect play as Blue never loses or draws.
    for seed in range(3):
        out = post(client, "/api/playout", {"size": 3, "players": ["4", "1"], "seed": seed})
        assert out["state"]["result"]["winner"] == 0


def wait_ready(client: TestClient, size: int) -> None:
    deadline = time.monotonic() + 120
    while True:
        status = client.get(f"/api/tables?size={size}").json()
        if status["state"] == "ready":
            return
        assert status["state"] in ("building", "missing"), status
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_table_build_and_analysis_of_3x3(client: TestClient) -> None:
    before = post(client, "/api/analysis", {"size": 3})
    assert before["available"] is False
    assert before["table"] == "missing"
    status = client.get("/api/tables?size=3").json()
    assert status["state"] == "missing" and status["solvable"] is True
    built = post(client, "/api/tables", {"size": 3})
    assert built["state"] in ("building", "ready")
    wait_ready(client, 3)
    data = post(client, "/api/analysis", {"size": 3})
    # known fact: 3x3 classic is a first-player win in 19 plies
    assert data["available"] is True
    assert (data["value"], data["remoteness"], data["to_move"]) == ("win", 19, 0)
    assert data["forced"] == {"winner": 0, "plies": 19}
    best = data["moves"][0]
    assert (best["value"], best["remoteness"]) == ("win", 19)
    assert {m["move"] for m in data["moves"]} == {"a3-b3", "a2-b2", "a2-a1"}
    after = post(client, "/api/analysis", {"size": 3, "moves": [best["move"]]})
    assert (after["value"], after["remoteness"], after["to_move"]) == ("loss", 18, 1)
    assert [(h["ply"], h["value"], h["remoteness"]) for h in after["history"]] == [
        (0, "win", 19),
        (1, "loss", 18),
    ]
    assert all(m["value"] == "loss" for m in after["moves"])


def test_analysis_reports_what_is_unavailable(client: TestClient) -> None:
    data = post(client, "/api/analysis", {"size": 7})
    assert data["available"] is False
    assert data["table"] == "unsolvable"
    assert "7" in data["reason"]
    data = post(client, "/api/analysis", {"game": "dotdash", "size": 7})
    assert data["available"] is False and data["table"] == "unsolvable"
    status = client.get("/api/tables?game=dotdash&size=9").json()
    assert status["solvable"] is False


def test_dot_dash_through_the_api(client: TestClient) -> None:
    start = post(client, "/api/state", {"game": "dotdash", "size": 7})
    assert start["players"] == ["red", "blue"]
    assert start["options"]["reserve"] == 60
    out = post(client, "/api/move", {"game": "dotdash", "size": 7, "level": "1", "seed": 2})
    assert out["move"] in start["legal_moves"]
    r = client.post("/api/state", json={"game": "dotdash", "size": 7, "moves": ["A1-A4"]})
    assert r.status_code == 400


def test_record_export_and_import_round_trip(client: TestClient) -> None:
    game = {"size": 3, "moves": ["a2-b2", "c1-c2", "b2-b3"], "players": {"blue": "human"}}
    rec = post(client, "/api/record/export", game)
    assert '[Size "3"]' in rec["text"] and '[Blue "human"]' in rec["text"]
    assert "1. a2-b2 c1-c2 2. b2-b3 *" in rec["text"]
    back = post(client, "/api/record/import", {"text": rec["text"]})
    assert back["moves"] == game["moves"]
    assert (back["game"], back["variant"], back["size"], back["start"]) == (
        "dodgem",
        "classic",
        3,
        None,
    )


def test_record_with_a_start_position_and_second_player_first(client: TestClient) -> None:
    text = '[Game "dodgem"]\n[Size "3"]\n[Start "3/1B1/R2 r"]\n\n1... a1-a2 2. b2-c2 *\n'
    back = post(client, "/api/record/import", {"text": text})
    assert back["start"] == "3/1B1/R2 r"
    assert back["moves"] == ["a1-a2", "b2-c2"]
    assert "a1-a2 b2-c2" in back["text"]


def test_bad_records_are_explained(client: TestClient) -> None:
    for text in ['[Size "3"]\n\n1. a2-c2', '[Size "x"]', "[broken", '[Game "go"]\n1. a2-b2']:
        r = client.post("/api/record/import", json={"text": text})
        assert r.status_code == 400, text
        assert r.json()["error"]


def test_openapi_and_page_are_served(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/state", "/api/move", "/api/analysis", "/api/tables"} <= set(spec["paths"])
    page = client.get("/")
    assert page.status_code == 200 and "<svg" not in page.text and "app.js" in page.text
    assert client.get("/static/js/app.js").status_code == 200


def test_no_wildcard_cors(client: TestClient) -> None:
    r = client.get("/api/games", headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in r.headers
    r = client.options(
        "/api/state",
        headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in r.headers


def test_each_app_has_its_own_service(tmp_path: Any) -> None:
    a, b = create_app(tables=tmp_path), create_app(tables=tmp_path)
    assert a.state.service is not b.state.service


def test_perfect_reply_reports_the_forced_win_it_leaves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 3x3 is a first-player win in 19 plies and a3-b3 keeps it (18 left); Red's slowest
    # loss leaves Blue a forced win in 17. Level 4 never builds inside a move request, so
    # the table is built first (the players find it where the server keeps its tables).
    monkeypatch.setenv("BOARDLAB_TABLES", str(client.app.state.service.tables))  # type: ignore[attr-defined]
    post(client, "/api/tables", {"size": 3})
    wait_ready(client, 3)
    out = post(client, "/api/move", {"size": 3, "moves": ["a3-b3"], "level": "4"})
    assert out["table"] == "ready" and out["note"] is None
    assert out["forced"] == {"winner": 0, "plies": 17}
