"""`boardlab play --join LINK`: the terminal plays a shared game against a player on the
HTTP API, through a real server; bad links are one-line errors."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.text import Text

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


Post = Callable[[str, dict[str, Any]], Any]


def play_in_terminal(
    tmp_path: Path,
    game: dict[str, Any],
    creator: Callable[[Post, dict[str, Any]], None],
    answer: Callable[[str, Any], str],
) -> tuple[dict[str, Any], Client, list[str]]:
    """Serve the web app and create the shared `game` over HTTP. The creator's thread polls
    the game and calls `creator(post, state)` each time (`post(action, body)` posts as the
    creator) until it ends, while the terminal's Client plays the invitation's seat, answering
    each prompt with `answer(prompt, state)`. The final state, the client, what it printed."""
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    with serving(app) as base:
        created = httpx.post(f"{base}/api/friends", json=game).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        stop = threading.Event()

        def post(action: str, body: dict[str, Any]) -> Any:
            return httpx.post(f"{base}/api/friends/{gid}/{action}", json=body, headers=auth)

        def poll() -> None:
            while not stop.is_set():
                s = httpx.get(f"{base}/api/friends/{gid}", headers=auth).json()
                if s["status"] not in ("waiting", "playing"):
                    return
                creator(post, s)
                time.sleep(0.05)

        printed: list[Any] = []
        link = parse_link(f"{base}/friend#g={gid}&t={created['invite_token']}")
        client = Client(link, lambda prompt: answer(prompt, client.state), printed.append)
        thread = threading.Thread(target=poll, daemon=True)
        thread.start()
        try:
            assert client.run() == 0
        finally:
            stop.set()
            thread.join(5)
        said = [x.markup if isinstance(x, Text) else str(x) for x in printed]
        return httpx.get(f"{base}/api/friends/{gid}").json(), client, said


def first_move_when_mine(post: Post, s: dict[str, Any]) -> None:
    """The creator's part in the game: its first legal move whenever it is its turn."""
    if s["status"] == "playing" and s["setup"] is None and s["to_move"] == s["you"]:
        post("move", {"move": s["legal_moves"][0], "ply": s["ply"]})


@pytest.mark.slow
def test_the_terminal_plays_a_whole_shared_game(tmp_path: Path) -> None:
    typed: list[str] = []

    def answer(prompt: str, state: Any) -> str:
        if state["status"] != "playing":
            typed.append("quit")
            return "quit"
        if not typed:
            typed.append("b2-b2")  # not a move: refused, the game goes on
            return "b2-b2"
        typed.append(state["legal_moves"][-1])
        return str(state["legal_moves"][-1])

    game = {"game": "dodgem", "size": 3, "colour": "first"}
    final, client, printed = play_in_terminal(tmp_path, game, first_move_when_mine, answer)
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
    creator_part = "choose" if terminal == "place" else "place"

    def creator(post: Post, s: dict[str, Any]) -> None:
        stage = (s["setup"] or {}).get("stage")
        if creator_part == stage == "place":
            post("setup", {"action": "place", "setup": "setup R:C3 B:G7,G6 r"})
        elif creator_part == stage == "choose":
            post("setup", {"action": "choose", "colour": 0})
        first_move_when_mine(post, s)

    prompts: list[str] = []

    def answer(prompt: str, state: Any) -> str:
        prompts.append(prompt)
        if prompt.startswith("place"):
            return "setup R:A1 B:A2 r" if prompts.count(prompt) == 1 else ""
        if prompt.startswith("choose"):
            return "green" if prompts.count(prompt) == 1 else "b"
        if state["status"] != "playing":
            return "quit"
        if len([p for p in prompts if "to move" in p]) > 2:
            return "resign"
        return str(state["legal_moves"][0])

    game = {"game": "dotdash", "size": 9, "pie": creator_part}
    final, client, printed = play_in_terminal(tmp_path, game, creator, answer)
    assert final["result"]["reason"] == "resignation" and final["result"]["winner"] == 0
    assert client.state is not None and client.state["you"] == 1  # blue, both ways
    assert len(final["moves"]) == 5  # red, then blue's two moves, each answered by red
    if terminal == "place":
        assert any(line.startswith("[red]") and "A1" in line for line in printed)
        rules = make_rules("dotdash", None, 9)
        assert final["start"] == rules.format_position(rules.start()) != final["position"]
    else:
        assert any(line.startswith("[red]") and "green" in line for line in printed)
        assert any("choose your colour" in line for line in printed)
