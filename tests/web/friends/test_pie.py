"""The setup stage of shared games (Dot Dash's pie): one person places three stones, the other
takes a colour, and the seats, the first move and the clocks follow, in the store and through
the HTTP and WebSocket API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from tests.web.friends.helpers import ManualClock, bearer, error_of, hello, until

from boardlab.core.errors import IllegalMoveError, NotationError, UsageError
from boardlab.core.registry import make_rules
from boardlab.games.dotdash import pie_position
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.store import FriendStore, SeatError

SETUP = "setup R:D5 B:E5,E6 r"  # red holds the single stone: red moves first


def pie_game(store: FriendStore, pie: str = "place", **kw: Any) -> fs.CreatedOut:
    req = fs.CreateRequest.model_validate({"game": "dotdash", "size": 9, "pie": pie, **kw})
    created = store.create(req, client="10.0.0.1")
    store.join(created.id, created.invite_token)
    return created


def place(text: str) -> fs.SetupRequest:
    return fs.SetupRequest(action="place", setup=text)


def choose(colour: int) -> fs.SetupRequest:
    return fs.SetupRequest(action="choose", colour=colour)


@pytest.mark.parametrize("taken", [0, 1])
def test_the_placer_places_the_chooser_takes_a_colour(
    store: FriendStore, clock: ManualClock, taken: int
) -> None:
    created = pie_game(store, clock={"minutes": 1})
    placer, chooser = created.token, created.invite_token
    state = store.state(created.id, placer)
    assert state.setup == fs.SetupOut(stage="place", placer=0)
    assert state.legal_moves == [] and state.clock is not None and state.clock.running is None
    clock.advance(30)  # no clock runs during the setup
    with pytest.raises(IllegalMoveError, match="placed"):
        store.move(created.id, placer, "A1-A4", 0)
    with pytest.raises(IllegalMoveError, match="setup comes first"):
        store.draw(created.id, placer, "offer")
    with pytest.raises(SeatError, match="your friend places"):
        store.setup(created.id, chooser, place(SETUP))
    with pytest.raises(IllegalMoveError, match="not placed"):
        store.setup(created.id, chooser, choose(0))
    # a malformed or unfair setup is refused with the rules' reason, and changes nothing
    for bad in ("setup R:D5 B:E5 r", "setup R:D5,E6 B:E5 r", "setup R:Z9 B:E5,E6 r"):
        with pytest.raises(NotationError):
            store.setup(created.id, placer, place(bad))
    assert store.state(created.id).setup == fs.SetupOut(stage="place", placer=0)

    placed = store.setup(created.id, placer, place(SETUP))
    rules = make_rules("dotdash", None, 9)
    assert placed.setup == fs.SetupOut(stage="choose", placer=0)
    assert placed.position == rules.format_position(pie_position(rules, SETUP))
    assert placed.start == placed.position and placed.legal_moves == []
    with pytest.raises(SeatError, match="your friend chooses"):
        store.setup(created.id, placer, choose(0))
    with pytest.raises(IllegalMoveError, match="placed"):
        store.setup(created.id, placer, place(SETUP))

    chosen = store.setup(created.id, chooser, choose(taken))
    assert chosen.setup is None and chosen.you == taken and chosen.person == 1
    assert chosen.to_move == 0 and chosen.legal_moves  # the single (red) stone starts
    assert store.state(created.id, placer).you == 1 - taken  # the placer has the other colour
    with pytest.raises(IllegalMoveError, match="no setup stage"):
        store.setup(created.id, chooser, choose(taken))
    assert chosen.clock is not None and chosen.clock.remaining_ms == (60_000, 60_000)
    assert chosen.clock.running == 0
    # red's token moves now, whoever holds it
    red = chooser if taken == 0 else placer
    with pytest.raises(SeatError):
        store.move(created.id, placer if red == chooser else chooser, chosen.legal_moves[0], 0)
    clock.advance(5)
    after = store.move(created.id, red, chosen.legal_moves[0], 0)
    assert after.ply == 1 and after.clock is not None and after.clock.remaining_ms[0] == 55_000
    assert store.record(created.id).count("D5") >= 1  # the record starts from the setup


def test_rematch_gives_the_other_person_the_stones(store: FriendStore) -> None:
    created = pie_game(store, pie="choose")
    assert store.state(created.id).setup == fs.SetupOut(stage="place", placer=1)
    store.setup(created.id, created.invite_token, place(SETUP))
    store.setup(created.id, created.token, choose(1))
    store.resign(created.id, created.token)
    nxt = store.rematch(created.id, created.token).id
    again = store.state(nxt, created.token)
    assert again.setup == fs.SetupOut(stage="place", placer=0) and again.ply == 0
    assert again.position != store.state(created.id).start  # a fresh setup, not the last one
    # resigning during the setup aborts the game: no points for anyone
    over = store.resign(nxt, created.invite_token)
    assert over.result is not None and over.result.reason == "aborted"
    assert over.match.score == (0.0, 1.0)  # only the first game counts: the creator resigned it


def test_pie_needs_a_game_with_a_setup_stage(store: FriendStore) -> None:
    with pytest.raises(UsageError, match="no setup stage"):
        store.create(fs.CreateRequest(game="dodgem", size=3, pie="place"))
    with pytest.raises(ValidationError, match="leave out colour"):
        fs.CreateRequest.model_validate({"game": "dotdash", "pie": "place", "colour": "first"})
    with pytest.raises(ValidationError):
        fs.SetupRequest.model_validate({"action": "choose", "colour": 2})
    with pytest.raises(ValidationError):
        fs.SetupRequest.model_validate({"action": "place", "colour": 0})
    # a game without the pie has no setup stage: its setup action is refused
    plain = store.create(fs.CreateRequest(game="dotdash", size=9))
    store.join(plain.id, plain.invite_token)
    with pytest.raises(IllegalMoveError, match="no setup stage"):
        store.setup(plain.id, plain.token, choose(0))


def test_the_setup_over_http_and_the_sockets(api: TestClient) -> None:
    r = api.post("/api/friends", json={"game": "dotdash", "size": 9, "pie": "place"})
    assert r.status_code == 200, r.text
    created = r.json()
    gid, placer, chooser = created["id"], created["token"], created["invite_token"]
    url = f"ws://localhost/api/friends/{gid}/ws"
    with api.websocket_connect(url) as mine, api.websocket_connect(url) as theirs:
        hello(mine, placer)
        first = hello(theirs, chooser)["state"]  # opening the invitation joins
        assert first["setup"] == {"stage": "place", "placer": 0} and first["you"] == 1
        # the chooser cannot place (403); a bad body is 422; the placer places over HTTP
        bad = api.post(
            f"/api/friends/{gid}/setup",
            json={"action": "place", "setup": SETUP},
            headers=bearer(chooser),
        )
        assert bad.status_code == 403 and "\n" not in bad.json()["error"]
        r = api.post(f"/api/friends/{gid}/setup", json={"action": "place"}, headers=bearer(placer))
        assert r.status_code == 422
        r = api.post(
            f"/api/friends/{gid}/setup",
            json={"action": "place", "setup": "setup R:D5 B:E5 r"},
            headers=bearer(placer),
        )
        assert r.status_code == 400 and "three stones" in r.json()["error"]
        r = api.post(
            f"/api/friends/{gid}/setup",
            json={"action": "place", "setup": SETUP},
            headers=bearer(placer),
        )
        assert r.status_code == 200 and r.json()["setup"]["stage"] == "choose"
        until(theirs, lambda st: st["setup"] is not None and st["setup"]["stage"] == "choose")
        # the chooser takes red over the socket: both sockets learn their new colours
        theirs.send_text(json.dumps({"type": "setup", "action": "choose", "colour": 0}))
        seen = until(mine, lambda st: st["setup"] is None)
        assert seen["you"] == 1 and seen["to_move"] == 0 and seen["legal_moves"]
        assert until(theirs, lambda st: st["setup"] is None)["you"] == 0
        theirs.send_text(json.dumps({"type": "setup", "action": "choose", "colour": 3}))
        assert "bad message" in error_of(theirs)["error"]
        # the chooser, now red, moves first
        theirs.send_text(json.dumps({"type": "move", "move": seen["legal_moves"][0], "ply": 0}))
        assert until(mine, lambda st: st["ply"] == 1)["moves"] == [seen["legal_moves"][0]]
