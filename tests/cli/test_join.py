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
from boardlab.core.registry import make_rules
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


@pytest.mark.slow
def test_the_terminal_reconnects_after_the_server_is_killed(tmp_path: Path) -> None:
    """A `boardlab serve` process is killed (SIGKILL) after four plies and started again on
    the same file: the terminal client reconnects by itself and the game is finished."""
    import os
    import signal

    from tests.web.friends.test_restart import free_port, server

    url = f"sqlite:///{tmp_path / 'f.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    printed: list[str] = []
    client: Client
    done = threading.Event()

    def ask(prompt: str) -> str:
        state: Any = client.state
        if state["status"] != "playing":
            return "quit"
        return str(state["legal_moves"][0])

    def creator_moves(auth: dict[str, str], gid: str, until_ply: int | None) -> Any:
        while True:
            s = httpx.get(f"{base}/api/friends/{gid}", timeout=10).json()
            if s["status"] == "over" or (until_ply is not None and s["ply"] >= until_ply):
                return s
            if s["status"] == "playing" and s["to_move"] == 0:
                httpx.post(f"{base}/api/friends/{gid}/move", headers=auth, timeout=10,
                           json={"move": s["legal_moves"][0], "ply": s["ply"]})  # fmt: skip
            time.sleep(0.05)

    result: list[int] = []
    with server(url, tmp_path / "tables", port) as proc:
        created = httpx.post(f"{base}/api/friends", json={"size": 3, "colour": "first"}).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        link = parse_link(f"{base}/friend#g={gid}&t={created['invite_token']}")
        client = Client(link, ask, say=lambda x: printed.append(str(x)))

        def play() -> None:
            result.append(client.run())
            done.set()

        thread = threading.Thread(target=play, daemon=True)
        thread.start()
        before = creator_moves(auth, gid, until_ply=4)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    with server(url, tmp_path / "tables", port):
        final = creator_moves(auth, gid, until_ply=None)
        assert done.wait(60), "the terminal client did not finish"
    assert result == [0]
    assert final["status"] == "over" and final["moves"][:4] == before["moves"][:4]
    assert any("reconnecting" in line for line in printed)


@pytest.mark.parametrize("terminal", ["place", "choose"])
def test_the_terminal_plays_the_pie_of_a_shared_dot_dash_game(
    tmp_path: Path, terminal: str
) -> None:
    """The invited friend in the terminal places the stones (a refused setup first, then the
    fixed start by Enter) or takes blue (after a word that is no colour); the creator does the
    other part over HTTP, and the game goes on to moves and a resignation."""
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    creator_part = "choose" if terminal == "place" else "place"
    with serving(app) as base:
        created = httpx.post(
            f"{base}/api/friends", json={"game": "dotdash", "size": 9, "pie": creator_part}
        ).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        stop = threading.Event()

        def creator() -> None:
            while not stop.is_set():
                s = httpx.get(f"{base}/api/friends/{gid}", headers=auth).json()
                setup = s["setup"]
                if s["status"] == "playing" and setup is not None:
                    if creator_part == setup["stage"] == "place":
                        body = {"action": "place", "setup": "setup R:C3 B:G7,G6 r"}
                        httpx.post(f"{base}/api/friends/{gid}/setup", json=body, headers=auth)
                    elif creator_part == "choose" == setup["stage"]:
                        body = {"action": "choose", "colour": 0}
                        httpx.post(f"{base}/api/friends/{gid}/setup", json=body, headers=auth)
                elif s["status"] == "playing" and s["to_move"] == s["you"]:
                    httpx.post(
                        f"{base}/api/friends/{gid}/move",
                        json={"move": s["legal_moves"][0], "ply": s["ply"]},
                        headers=auth,
                    )
                elif s["status"] not in ("waiting", "playing"):
                    return
                time.sleep(0.05)

        printed: list[str] = []
        prompts: list[str] = []
        client: Client

        def ask(prompt: str) -> str:
            prompts.append(prompt)
            state: Any = client.state
            if prompt.startswith("place"):
                return "setup R:A1 B:A2 r" if prompts.count(prompt) == 1 else ""
            if prompt.startswith("choose"):
                return "green" if prompts.count(prompt) == 1 else "b"
            if state["status"] != "playing":
                return "quit"
            if len([p for p in prompts if "to move" in p]) > 2:
                return "resign"
            return str(state["legal_moves"][0])

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
        assert final["result"]["reason"] == "resignation" and final["result"]["winner"] == 0
        assert client.state is not None and client.state["you"] == 1  # blue, both ways
        assert len(final["moves"]) == 5  # red, then blue's two moves, each answered by red
        if terminal == "place":
            assert any(line.startswith("[red]") and "A1" in line for line in printed)
            assert final["start"].endswith(" r") and final["start"] != final["position"]
            placed = make_rules("dotdash", None, 9).start()
            assert final["start"] == make_rules("dotdash", None, 9).format_position(placed)
        else:
            assert any(line.startswith("[red]") and "green" in line for line in printed)
            assert any("choose your colour" in line for line in printed)
