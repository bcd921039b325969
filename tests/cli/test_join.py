"""`boardlab play --join LINK`: the terminal plays a shared game against a player on the
HTTP API, through a real server; bad links are one-line errors."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardlab.cli.join import Client, parse_link
from boardlab.cli.main import main
from boardlab.core.errors import UsageError
from boardlab.web import create_app
from tests.web.conftest import serving


def test_links_are_read_or_refused() -> None:
    link = parse_link("http://192.168.1.5:8000/friend#g=AbCdEfGhIjKlMnOp&t=Tok_en-1234567890")
    assert (link.base, link.game, link.token) == (
        "http://192.168.1.5:8000",
        "AbCdEfGhIjKlMnOp",
        "Tok_en-1234567890",
    )
    assert link.socket_url == "ws://192.168.1.5:8000/api/friends/AbCdEfGhIjKlMnOp/ws"
    assert parse_link("https://x.example/friend#g=AbCdEfGhIjKl").token is None
    assert parse_link("https://x.example/friend#g=AbCdEfGhIjKl").socket_url.startswith("wss://")
    for bad in ("nonsense", "ftp://x/friend#g=AbCdEfGhIjKl", "http://x/friend", "http://x/#g=a"):
        with pytest.raises(UsageError):
            parse_link(bad)


def test_a_bad_link_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--join", "not-a-link"]) == 2
    err = capsys.readouterr().err
    assert "not a Play a friend link" in err and "Traceback" not in err


@pytest.mark.slow
def test_the_terminal_plays_a_whole_shared_game(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    with serving(app) as base:
        created = httpx.post(
            f"{base}/api/friends", json={"game": "dodgem", "size": 3, "colour": "first"}
        ).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        stop = threading.Event()

        def creator() -> None:  # plays blue over HTTP whenever it is blue's turn
            while not stop.is_set():
                s = httpx.get(f"{base}/api/friends/{gid}").json()
                if s["status"] == "playing" and s["to_move"] == 0:
                    httpx.post(
                        f"{base}/api/friends/{gid}/move",
                        json={"move": s["legal_moves"][0], "ply": s["ply"]},
                        headers=auth,
                    )
                elif s["status"] not in ("waiting", "playing"):
                    return
                time.sleep(0.05)

        printed: list[str] = []
        typed: list[str] = []
        client: Client

        def ask(prompt: str) -> str:
            state: Any = client.state
            if state["status"] != "playing":
                typed.append("quit")
                return "quit"
            if not typed:
                typed.append("b2-b2")  # not a move: refused, the game goes on
                return "b2-b2"
            typed.append(state["legal_moves"][-1])
            return str(state["legal_moves"][-1])

        link = parse_link(f"{base}/friend#g={gid}&t={created['invite_token']}")
        client = Client(link, ask, say=lambda x: printed.append(str(x)))
        thread = threading.Thread(target=creator, daemon=True)
        thread.start()
        try:
            assert client.run() == 0
        finally:
            stop.set()
            thread.join(5)
        final = httpx.get(f"{base}/api/friends/{gid}").json()
        assert final["status"] == "over" and final["result"] is not None
        red_moves = final["moves"][1::2]
        assert red_moves == [m for m in typed if m not in ("quit", "b2-b2")]
        assert any("wins" in line or "Draw" in line for line in printed)
        assert any(line.startswith("[red]") and "b2" in line for line in printed)  # refused
        assert client.state is not None and client.state["you"] == 1


@pytest.mark.parametrize(
    ("url", "says"),
    [("nonsense", "not a database URL"), ("sqlite:////no/such/folder/x.db", "does not exist")],
)
def test_serve_refuses_a_bad_database_in_one_line(
    url: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "8199", "--database", url]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
