"""`play --join` reads quit, resign and the end of input while the other player thinks,
gives up on a server that stays away after a bounded wait, in one line, and refuses a link
it cannot parse in one line."""

from __future__ import annotations

import queue
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardlab.cli.join import Client, Keyboard, parse_link
from boardlab.cli.main import main
from boardlab.core.errors import BoardLabError, UsageError
from boardlab.web import create_app
from tests.web.conftest import serving


@pytest.mark.parametrize(
    "bad", ["http://[::1:8629/friend#g=AbCdEfGhIjKl", "http://x:99999/friend#g=AbCdEfGhIjKl"]
)
def test_a_link_that_cannot_be_parsed_is_one_line(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UsageError):
        parse_link(bad)
    assert main(["play", "--join", bad]) == 2
    err = capsys.readouterr().err
    assert "not a Play a friend link" in err and len(err.strip().splitlines()) == 1


class Typist:
    """Lines typed on cue: the test puts them, the keyboard thread reads them ('' ends)."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()

    def readline(self) -> str:
        return self.lines.get()


@pytest.fixture
def waiting_game(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """A served shared game whose creator plays first and never moves: the invited seat
    only ever waits."""
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    with serving(app) as base:
        created = httpx.post(f"{base}/api/friends", json={"size": 3, "colour": "first"}).json()
        yield base, created


def _client(base: str, created: dict[str, Any], typist: Typist, said: list[str]) -> Client:
    keyboard = Keyboard(typist.readline)
    link = parse_link(f"{base}/friend#g={created['id']}&t={created['invite_token']}")
    return Client(
        link,
        keyboard.ask(lambda *a, **k: said.append(str(a[0]))),
        say=lambda x, **k: said.append(str(x)),
        keyboard=keyboard,
    )


@pytest.mark.parametrize("typed", ["quit\n", ""])  # the word, or the end of input
def test_quit_or_end_of_input_while_the_other_player_thinks(
    waiting_game: tuple[str, dict[str, Any]], typed: str
) -> None:
    base, created = waiting_game
    typist, said = Typist(), []
    client = _client(base, created, typist, said)
    typist.lines.put("e4\n")  # not this seat's turn: answered, nothing sent
    typist.lines.put(typed)
    assert client.run() == 0
    assert any("not your turn" in line for line in said)
    state = httpx.get(f"{base}/api/friends/{created['id']}").json()
    assert state["status"] == "playing" and state["ply"] == 0


def test_resign_while_the_other_player_thinks(waiting_game: tuple[str, dict[str, Any]]) -> None:
    base, created = waiting_game
    typist, said = Typist(), []
    client = _client(base, created, typist, said)
    typist.lines.put("resign\n")
    typist.lines.put("quit\n")  # at the rematch prompt
    assert client.run() == 0
    state = httpx.get(f"{base}/api/friends/{created['id']}").json()
    assert state["result"]["reason"] == "resignation" and state["result"]["winner"] == 0


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server_is_given_up_in_one_line() -> None:
    link = parse_link(f"http://127.0.0.1:{_closed_port()}/friend#g=AbCdEfGhIjKl&t=Tok_en-1234567")
    said: list[str] = []
    client = Client(link, lambda prompt: "quit", say=lambda x: said.append(str(x)), give_up_s=1.5)
    with pytest.raises(BoardLabError) as info:
        client.run()
    message = str(info.value)
    assert "cannot be reached" in message and "\n" not in message
    assert 1 <= len([line for line in said if "reconnecting" in line]) < 10


def test_quit_while_reconnecting() -> None:
    link = parse_link(f"http://127.0.0.1:{_closed_port()}/friend#g=AbCdEfGhIjKl")
    typist = Typist()
    keyboard = Keyboard(typist.readline)
    typist.lines.put("quit\n")
    ask = keyboard.ask(lambda *a, **k: None)
    client = Client(link, ask, say=lambda x: None, keyboard=keyboard, give_up_s=600)
    assert client.run() == 0
