"""A third game defined only in this folder plays through every front end once registered."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardlab.cli.main import main
from boardlab.core.registry import get_game, register, unregister
from boardlab.web import create_app
from tests.toygame import GAME, perft, rules_for

Patch = pytest.MonkeyPatch
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def nim() -> Iterator[None]:
    """Nim registered for one test, through the call the entry points lead to."""
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.name)


def run(args: list[str], stdin: str, monkeypatch: Patch, capsys: Capture) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_it_is_registered_by_the_same_call(nim: None) -> None:
    assert get_game("NIM") is GAME
    assert get_game("nim").rules("misere", 4).start().heaps == (3, 4, 5, 6)


def test_play_between_two_humans(nim: None, monkeypatch: Patch, capsys: Capture) -> None:
    args = ["play", "--game", "nim", "--amber", "human", "--teal", "human"]
    status, out, _ = run(args, "1-3\n2-9\n2-4\n3-5\nquit\n", monkeypatch, capsys)
    assert status == 0
    assert "Nim normal 3×3" in out and "heap 1: ●●●" in out  # its own board drawing
    assert "heap 2 has 4 tokens" in out  # the illegal move is refused, the game goes on
    assert "Amber wins — the side to move had no legal move" in out


def test_play_against_its_computer_level(nim: None, monkeypatch: Patch, capsys: Capture) -> None:
    status, out, _ = run(
        ["play", "--game", "nim", "--teal", "2"], "1-3\nmoves\nquit\n", monkeypatch, capsys
    )
    assert status == 0
    # 0/4/5 with teal to move: the only winning move takes one token from heap 3
    assert "teal (level 2) plays 3-1" in out
    assert "1-1 1-2 1-3 1-4 2-1" not in out  # heap 1 is empty: `moves` lists heaps 2 and 3
    assert "2-1 2-2 2-3 2-4 3-1 3-2 3-3 3-4" in out


def test_perft(nim: None, monkeypatch: Patch, capsys: Capture) -> None:
    status, out, _ = run(["perft", "--game", "nim", "--depth", "2"], "", monkeypatch, capsys)
    assert status == 0
    assert out.split()[-1] == "113"  # 12 moves, then 11+10+9 + 11+10+9+8 + 11+10+9+8+7 replies
    rules = rules_for("normal", 3)
    assert perft(rules, rules.start(), 2) == 113


def test_engine(nim: None, monkeypatch: Patch, capsys: Capture) -> None:
    stdin = "isready\nposition startpos moves 1-3\ngo\nposition 1/0/0 a\ngo\nquit\n"
    status, out, _ = run(["engine", "--game", "nim"], stdin, monkeypatch, capsys)
    assert status == 0
    assert out.splitlines() == ["readyok", "bestmove 3-1", "bestmove 1-1"]


def test_league(nim: None, monkeypatch: Patch, capsys: Capture) -> None:
    args = ["league", "--game", "nim", "--levels", "2,random", "--games", "4", "--json"]
    status, out, _ = run(args, "", monkeypatch, capsys)
    assert status == 0
    results = {(r["first"], r["second"]): r for r in json.loads(out)["results"]}
    assert results[("2", "random")]["win"] == 4  # 3/4/5 is a first-player win
    bad = ["league", "--game", "nim", "--levels", "1,3", "--games", "1"]
    status, _, err = run(bad, "", monkeypatch, capsys)
    assert status == 2 and "random or a level 1-2" in err


def test_web_api(nim: None, tmp_path: Path) -> None:
    with TestClient(create_app(tables=tmp_path), base_url="http://localhost") as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        nim = games["nim"]
        assert nim["title"] == "Nim" and nim["levels"] == ["random", "1", "2"]
        assert [v["name"] for v in nim["variants"]] == ["normal", "misere"]
        assert nim["variants"][0]["players"] == ["amber", "teal"]
        assert nim["variants"][0]["sizes"] == [3, 5]
        state = client.post("/api/state", json={"game": "nim", "moves": ["1-3"]}).json()
        assert state["position"] == "0/4/5 t" and state["to_move"] == 1
        assert len(state["legal_moves"]) == 9
        move = client.post("/api/move", json={"game": "nim", "moves": ["1-3"], "level": "2"})
        assert move.status_code == 200, move.text
        assert move.json()["move"] == "3-1"
        assert move.json()["state"]["position"] == "0/4/4 a"
        bad = client.post("/api/move", json={"game": "nim", "level": "4"})
        assert bad.status_code == 422
        assert bad.json()["error"].endswith("level must be random or 1 or 2 for Nim, not 4")
        bad = client.post("/api/state", json={"game": "nim", "moves": ["1-9"]})
        assert bad.status_code == 400 and "heap 1 has 3 tokens" in bad.json()["error"]
