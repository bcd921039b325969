"""The shared-games HTTP and WebSocket API on a real SQLite file (TestClient)."""

from __future__ import annotations

import gc
import json
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.friends.helpers import bearer, error_of, hello, until

from boardlab.web import create_app
from boardlab.web.friends.store import FriendLimits


def new_game(api: TestClient, **kw: Any) -> dict[str, Any]:
    r = api.post("/api/friends", json={"game": "dodgem", "size": 3, **kw})
    assert r.status_code == 200, r.text
    created: dict[str, Any] = r.json()
    j = api.post(f"/api/friends/{created['id']}/join", headers=bearer(created["invite_token"]))
    assert j.status_code == 200 and j.json()["status"] == "playing"
    return created


def mover(created: dict[str, Any], state: dict[str, Any]) -> str:
    tok: str = (
        created["token"] if state["to_move"] == created["colour"] else created["invite_token"]
    )
    return tok


def test_a_whole_game_over_http(api: TestClient) -> None:
    created = new_game(api)
    gid = created["id"]
    state = api.get(f"/api/friends/{gid}").json()
    assert state["you"] is None and state["status"] == "playing"
    while state["status"] == "playing":
        r = api.post(
            f"/api/friends/{gid}/move",
            json={"move": state["legal_moves"][-1], "ply": state["ply"]},
            headers=bearer(mover(created, state)),
        )
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["result"]["tag"] in ("1-0", "0-1", "1/2-1/2")
    rec = api.get(f"/api/friends/{gid}/record")
    assert rec.status_code == 200 and state["result"]["tag"] in rec.text
    assert " ".join(state["moves"][:1]) in rec.text
    # the record reads back through the existing import
    back = api.post("/api/record/import", json={"text": rec.text})
    assert back.status_code == 200 and back.json()["moves"] == state["moves"]


@pytest.mark.parametrize("token", ["missing", "forged", "other"])
def test_wrong_tokens_are_403_and_change_nothing(api: TestClient, token: str) -> None:
    created = new_game(api)
    gid = created["id"]
    before = api.get(f"/api/friends/{gid}").json()
    right = mover(created, before)
    wrong = {
        "missing": None,
        "forged": "x" * 32,
        "other": created["invite_token"] if right == created["token"] else created["token"],
    }[token]
    move = {"move": before["legal_moves"][0], "ply": 0}
    r = api.post(f"/api/friends/{gid}/move", json=move, headers=bearer(wrong))
    assert r.status_code == 403  # the other seat's token does not move for this seat
    assert r.json()["kind"] == "SeatError"
    if token != "other":
        for path, body in (("resign", None), ("draw", {"action": "offer"}), ("rematch", None)):
            r = api.post(f"/api/friends/{gid}/{path}", json=body, headers=bearer(wrong))
            assert r.status_code == 403, (path, r.text)
        looked = api.get(f"/api/friends/{gid}", headers=bearer(wrong))
        assert looked.status_code == (403 if wrong else 200)
    assert api.get(f"/api/friends/{gid}").json() == before


def test_unknown_ids_bad_bodies_and_stale_plies(api: TestClient) -> None:
    assert api.get("/api/friends/" + "Z" * 22).status_code == 404
    assert api.get("/api/friends/short").status_code == 422
    r = api.post("/api/friends", json={"game": "dodgem", "size": 3, "colour": "purple"})
    assert r.status_code == 422
    r = api.post("/api/friends", json={"game": "dodgem", "size": 3, "clock": {"minutes": 0}})
    assert r.status_code == 422
    created = new_game(api)
    gid, state = created["id"], api.get(f"/api/friends/{created['id']}").json()
    tok = mover(created, state)
    ok = api.post(
        f"/api/friends/{gid}/move",
        json={"move": state["legal_moves"][0], "ply": 0},
        headers=bearer(tok),
    )
    assert ok.status_code == 200
    again = api.post(
        f"/api/friends/{gid}/move",
        json={"move": state["legal_moves"][1], "ply": 0},
        headers=bearer(tok),
    )
    assert again.status_code == 409 and again.json()["kind"] == "StaleMoveError"
    assert api.get(f"/api/friends/{gid}").json()["moves"] == ok.json()["moves"]


def test_open_games_per_client_bound(api: TestClient) -> None:
    for _ in range(3):
        assert api.post("/api/friends", json={"size": 3}).status_code == 200
    r = api.post("/api/friends", json={"size": 3})
    assert r.status_code == 429 and "per address" in r.json()["error"]
    assert r.headers["retry-after"]


def test_websocket_players_and_a_spectator(api: TestClient) -> None:
    created = new_game(api, colour="first")
    gid = created["id"]
    url = f"ws://localhost/api/friends/{gid}/ws"
    with (
        api.websocket_connect(url) as blue,
        api.websocket_connect(url) as red,
        api.websocket_connect(url) as watcher,
    ):
        assert hello(blue, created["token"])["state"]["you"] == 0
        assert hello(red, created["invite_token"])["state"]["you"] == 1
        first = hello(watcher, None)["state"]
        assert first["you"] is None
        # the spectator cannot move, resign or offer: errors with status 403
        watcher.send_text(json.dumps({"type": "move", "move": first["legal_moves"][0], "ply": 0}))
        assert error_of(watcher)["status"] == 403
        # blue moves over its socket; everyone sees it
        blue.send_text(json.dumps({"type": "move", "move": first["legal_moves"][0], "ply": 0}))
        for ws, you in ((blue, 0), (red, 1), (watcher, None)):
            seen = until(ws, lambda st: st["ply"] == 1)
            assert seen["moves"] == [first["legal_moves"][0]] and seen["you"] == you
        # a move over HTTP reaches the sockets too
        r = api.post(
            f"/api/friends/{gid}/move",
            json={"move": seen["legal_moves"][0], "ply": 1},
            headers=bearer(created["invite_token"]),
        )
        assert r.status_code == 200
        for ws in (blue, red, watcher):
            assert until(ws, lambda st: st["ply"] == 2)["moves"] == r.json()["moves"]
        # a stale move over the socket: 409, nothing changes
        blue.send_text(json.dumps({"type": "move", "move": "a1-a2", "ply": 0}))
        assert error_of(blue)["status"] == 409
        blue.send_text(json.dumps({"type": "draw", "action": "offer"}))
        assert until(red, lambda st: st["draw_offer"] == 0)["status"] == "playing"
        red.send_text(json.dumps({"type": "draw", "action": "accept"}))
        end = until(watcher, lambda st: st["status"] == "over")
        assert end["result"]["reason"] == "agreement" and end["match"]["score"] == [0.5, 0.5]
        red.send_text(json.dumps({"type": "rematch"}))
        reply = next(m for m in (red.receive_json() for _ in range(5)) if m["type"] != "state")
        assert reply["type"] == "rematch"
        assert reply["id"] == api.get(f"/api/friends/{gid}").json()["next_game"]
        assert until(blue, lambda st: st["next_game"] is not None)["next_game"] == reply["id"]


def test_websocket_refuses_forged_tokens_oversize_and_floods(api: TestClient) -> None:
    created = new_game(api)
    url = f"ws://localhost/api/friends/{created['id']}/ws"
    with api.websocket_connect(url) as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "forged-token"}))
        assert ws.receive_json()["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    with api.websocket_connect(url) as ws:
        hello(ws, None)
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 600}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009
    with api.websocket_connect(url) as ws:
        hello(ws, None)
        with pytest.raises(WebSocketDisconnect) as closed:
            for i in range(50):
                ws.send_text(json.dumps({"type": "ping", "t": i}))
                assert ws.receive_json()["type"] == "pong"
        assert closed.value.code == 1008
    # a page of another site may not open the socket (it is closed before accepting)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        api.websocket_connect(url, headers={"origin": "http://evil.example"}),
    ):
        pass
    assert closed.value.code == 1008


def test_a_flag_is_pushed_to_the_sockets(api: TestClient) -> None:
    """A clock of 1.2 s: nobody moves, the server's watcher ends the game on time and every
    socket hears it without asking."""
    created = new_game(api, colour="first", clock={"minutes": 0.02, "increment": 0})
    with api.websocket_connect(f"ws://localhost/api/friends/{created['id']}/ws") as watcher:
        start = hello(watcher, None)["state"]
        assert start["clock"]["running"] == 0 and start["clock"]["remaining_ms"][1] == 1200
        assert 0 < start["clock"]["remaining_ms"][0] <= 1200
        end = until(watcher, lambda st: st["status"] == "over")
        assert end["result"]["reason"] == "time" and end["result"]["winner"] == 1
        assert end["clock"]["remaining_ms"][0] == 0


def test_http_calls_per_address_are_rate_limited(tmp_path: Path, db_url: str) -> None:
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(
        db_url,
        FriendLimits(requests_per_s=0.01, request_burst=4),
    )
    with TestClient(app, base_url="http://localhost") as api:
        created = api.post("/api/friends", json={"size": 3}).json()
        codes = [api.get(f"/api/friends/{created['id']}").status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        refused = api.get(f"/api/friends/{created['id']}")
        assert refused.json()["kind"] == "RateLimitedError" and refused.headers["retry-after"]
        # the socket is not counted against it, and the rest of the API neither
        with api.websocket_connect(f"ws://localhost/api/friends/{created['id']}/ws") as ws:
            assert hello(ws, None)["state"]["id"] == created["id"]
        assert api.get("/api/health").status_code == 200


def test_a_client_gone_before_its_first_state_leaves_nothing_behind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The client leaves between its hello and the first state: no error escapes the socket
    (no traceback in the log) and the game keeps no listener of it."""
    from types import SimpleNamespace

    from tests.web.friends.helpers import run_coroutine

    from boardlab.web.friends import schemas as fs
    from boardlab.web.friends.service import Friends
    from boardlab.web.friends.sockets import socket

    friends = Friends(f"sqlite:///{tmp_path / 'friends.sqlite3'}")
    req = fs.CreateRequest.model_validate({"game": "dodgem", "size": 3})
    created = friends.open().create(req, client="10.0.0.1")

    class Gone:
        def __init__(self) -> None:
            self.headers: dict[str, str] = {}
            self.client = None
            self.app = SimpleNamespace(state=SimpleNamespace(friends=friends))

        async def accept(self) -> None:
            pass

        async def receive(self) -> dict[str, Any]:
            return {"type": "websocket.receive", "text": json.dumps({"hello": 1})}

        async def send_json(self, data: Any) -> None:
            raise WebSocketDisconnect(1006)

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            pass

    try:
        run_coroutine(socket(Gone(), created.id))  # type: ignore[arg-type]
        assert friends.hub.count(created.id) == 0
    finally:
        friends.close()


def test_a_closed_socket_is_freed_without_the_cycle_collector(
    api: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a client leaves, its connection's objects are freed as soon as its handler ends,
    by reference counting alone: nothing of it waits in a reference cycle for a full
    collection (a busy server closes thousands of sockets a minute)."""
    from boardlab.web.friends import sockets

    seen: list[weakref.ref[Any]] = []
    read_loop = sockets._read_loop

    def watched(ws: Any, *args: Any) -> Any:
        seen.append(weakref.ref(ws))
        return read_loop(ws, *args)

    monkeypatch.setattr(sockets, "_read_loop", watched)
    created = new_game(api, colour="first")
    url = f"ws://localhost/api/friends/{created['id']}/ws"
    gc.collect()
    gc.disable()
    try:
        with api.websocket_connect(url) as ws:
            hello(ws, created["token"])
            ws.send_text(json.dumps({"type": "ping", "t": 1}))
            while ws.receive_json()["type"] != "pong":  # the seat's own join pushed too
                pass
        assert len(seen) == 1
        for _ in range(100):  # the server's handler ends a moment after the client left
            if seen[0]() is None:
                break
            time.sleep(0.02)
        assert seen[0]() is None
    finally:
        gc.enable()
