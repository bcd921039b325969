"""What a stranger's connections and sockets cannot do: hold the server's connections or
files (caps per address, /64 for IPv6, and in all; a deadline for request heads), open a
WebSocket under another host name, or crash the socket handler with odd frames. Refusals are
logged one line per address a minute, never a traceback."""

from __future__ import annotations

import contextlib
import json
import logging
import resource
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from tests.web.friends.helpers import ManualClock

from boardlab.web import create_app
from boardlab.web.connections import (
    FILE_RESERVE,
    ConnectionGuard,
    ConnectionLimits,
    RefusalLog,
    address_key,
    protocols,
    raise_file_limit,
    total_for,
)
from boardlab.web.security import GuardMiddleware, json_depth

Caplog = pytest.LogCaptureFixture


def test_address_keys_group_ipv6_by_64() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    assert address_key("192.0.2.7") != address_key("192.0.2.8")
    assert address_key("testclient") == "testclient"


def refuse_steadily(refusals: RefusalLog, clock: ManualClock, times: int, step: float) -> None:
    """Refuse 192.0.2.1 `times` times, `step` seconds apart (time moves only by hand, so no
    line depends on how fast the machine is)."""
    for _ in range(times):
        refusals.refused("192.0.2.1", "cap")
        clock.advance(step)


def test_refusals_are_logged_once_per_address_a_minute(caplog: Caplog) -> None:
    clock = ManualClock()
    refusals = RefusalLog("connections", clock=clock)
    with caplog.at_level(logging.WARNING, logger="boardlab.web"):
        refuse_steadily(refusals, clock, 500, 0.1)  # 50 s in all: still within the minute
        refusals.refused("192.0.2.2", "cap")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all("refused from" in line for line in lines)


def test_a_refused_address_logs_again_after_a_minute_with_its_count(caplog: Caplog) -> None:
    clock = ManualClock()
    refusals = RefusalLog("connections", clock=clock)
    with caplog.at_level(logging.WARNING, logger="boardlab.web"):
        refuse_steadily(refusals, clock, 30, 1.0)
        clock.advance(30.0)  # the first line is now 60 s old
        refusals.refused("192.0.2.1", "cap")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert lines[0].endswith("(1 in the last minute)")
    assert lines[1].endswith("(30 in the last minute)")  # the 29 held back, and this one


def test_the_refusal_log_stays_bounded_under_many_addresses(caplog: Caplog) -> None:
    refusals = RefusalLog("connections", keep=100, clock=ManualClock())
    with caplog.at_level(logging.WARNING, logger="boardlab.web"):
        for n in range(10_000):  # all at one moment: none is old enough to forget
            refusals.refused(f"2001:db8:{n // 256:x}:{n % 256:x}::/64", "cap")
            refusals.refused("192.0.2.1", "cap")  # a key that keeps refusing stays known
    assert len(refusals) <= 100
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 10_001  # one per new key, and one for the key that stayed
    assert sum("192.0.2.1" in line for line in lines) == 1


def test_the_file_limit_is_raised_and_the_total_cap_stays_below_it() -> None:
    before = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    try:
        now = raise_file_limit()
        assert now >= min(before, 1 << 30)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] in (now, resource.RLIM_INFINITY)
    finally:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (before, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        )
    assert total_for(1024) == 1024 - FILE_RESERVE
    assert total_for(1024) < 1024 and total_for(10) >= 1


@pytest.mark.parametrize("text", ["[" * 3000, '{"a":' * 50 + "1" + "}" * 50])
def test_depth_is_counted_without_parsing(text: str) -> None:
    assert json_depth(text) > 8
    assert json_depth('{"type": "move", "move": "[[[[[[[[[[[[", "ply": 0}') == 1


# -- a real server ----------------------------------------------------------------------------


class Server:
    """uvicorn with the guarded protocols, on a free loopback port, in a thread."""

    def __init__(self, app: Any, limits: ConnectionLimits) -> None:
        self.guard = ConnectionGuard(limits)
        http, ws = protocols(self.guard)
        self.protocols = (http, ws)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, http=http, ws=ws, log_level="warning", lifespan="off"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        while not self.server.started:
            self.thread.join(0.02)
            assert self.thread.is_alive(), "the server did not start"
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        return s

    def get_post(self, path: str, body: bytes) -> bytes:
        """A JSON POST's whole answer, head and body."""
        with self.connect() as s:
            s.sendall(
                f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            return _read_all(s)

    def get(self, path: str = "/api/health") -> bytes:
        with self.connect() as s:
            s.sendall(
                f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
            )
            return _read_all(s)


def _read_all(s: socket.socket) -> bytes:
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tables=tmp_path / "tables")


@pytest.fixture
def server(app: Any) -> Iterator[Server]:
    with Server(app, ConnectionLimits(per_address=4, total=50, header_timeout=0.5)) as srv:
        yield srv


def test_idle_sockets_are_capped_and_cut_and_normal_requests_go_on(
    server: Server, caplog: Caplog
) -> None:
    with caplog.at_level(logging.WARNING):
        idle = [server.connect() for _ in range(4)]
        for s in idle:
            s.sendall(b"GET / HTTP/1.1\r\n")  # a head that never ends
        refused = [server.connect() for _ in range(6)]
        answers = [_read_all(s) for s in refused]  # answered at once and closed
        assert all(a.startswith(b"HTTP/1.1 503") and b"retry-after:" in a for a in answers)
        # the idle ones are cut at the head's deadline: the server closes them
        assert all(_read_all(s) == b"" for s in idle)
        for s in (*idle, *refused):
            s.close()
        assert b" 200 " in server.get()  # the address may connect again
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(lines) == 1 and not [r for r in caplog.records if r.exc_info]
    assert server.guard.open_count() <= 1


def test_a_connection_idle_after_an_answer_is_cut_too(server: Server) -> None:
    with server.connect() as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = b""
        while b'"ok"}' not in first:  # the whole answer: head and body
            chunk = s.recv(65536)
            assert chunk, first
            first += chunk
        assert b" 200 " in first
        s.sendall(b"GET /api/health HTTP/1.1\r\n")  # the next head, never finished
        assert _read_all(s) == b""


def test_the_total_cap(app: Any) -> None:
    with Server(app, ConnectionLimits(per_address=100, total=3, header_timeout=5)) as srv:
        held = [srv.connect() for _ in range(3)]
        with srv.connect() as extra:
            assert _read_all(extra).startswith(b"HTTP/1.1 503")
        for s in held:
            s.close()


def test_websocket_connections_are_counted_and_released(server: Server) -> None:
    import websockets.sync.client as wsc

    url = f"ws://localhost:{server.port}/api/friends/abcdefghijkl/ws"
    for _ in range(6):  # more than the cap, one after another: each is given back
        with wsc.connect(url) as ws:
            ws.send('{"type": "hello"}')
            ws.recv(timeout=10)
    deadline = 0
    while server.guard.open_count() and deadline < 200:
        deadline += 1
        threading.Event().wait(0.05)
    assert server.guard.open_count() == 0


def test_a_closed_websocket_leaves_nothing_behind(app: Any) -> None:
    """Once a socket has closed, its connection's protocols (the HTTP one it was upgraded
    from, the WebSocket one, the library's) are freed at once by reference counting: none
    waits in a reference cycle for the collector (a busy server closes thousands a minute,
    and the garbage of each holds its transport and buffers until a full pass)."""
    import gc

    import websockets.sync.client as wsc
    from websockets.server import ServerProtocol

    limits = ConnectionLimits(per_address=8, total=50, header_timeout=30)
    with Server(app, limits) as srv:
        game = json.loads(srv.get_post("/api/friends", b'{"size": 3}').split(b"\r\n\r\n", 1)[1])
        url = f"ws://localhost:{srv.port}/api/friends/{game['id']}/ws"
        kinds = (*srv.protocols, ServerProtocol)

        def left() -> int:
            return sum(type(o) in kinds for o in gc.get_objects())

        gc.collect()
        gc.disable()  # what is freed from here on, reference counting freed
        try:
            for _ in range(5):
                with wsc.connect(url) as ws:
                    ws.send(json.dumps({"type": "hello", "token": game["token"]}))
                    assert json.loads(ws.recv(timeout=10))["type"] == "state"
            waited = 0
            while (srv.guard.open_count() or left()) and waited < 200:
                waited += 1
                threading.Event().wait(0.05)
            assert srv.guard.open_count() == 0
            assert left() == 0
        finally:
            gc.enable()


def test_websockets_that_go_quiet_are_closed_and_given_back(app: Any) -> None:
    import websockets.sync.client as wsc
    from websockets.exceptions import ConnectionClosed

    from boardlab.web.friends.store import FriendLimits

    app.state.friends.configure(None, FriendLimits(hello_s=0.3))
    limits = ConnectionLimits(per_address=8, total=50, header_timeout=5)
    with Server(app, limits) as srv:
        game = srv.connect()
        game.sendall(
            b"POST /api/friends HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b'\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"size": 3}'
        )
        game_id = json.loads(_read_all(game).split(b"\r\n\r\n", 1)[1])["id"]
        url = f"ws://localhost:{srv.port}/api/friends/{game_id}/ws"
        with contextlib.ExitStack() as stack:
            # the address's whole share of connections, open and silent
            quiet = [stack.enter_context(wsc.connect(url)) for _ in range(8)]
            for ws in quiet:
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        deadline = 0
        while srv.guard.open_count() and deadline < 200:
            deadline += 1
            threading.Event().wait(0.05)
        assert srv.guard.open_count() == 0
        assert b" 200 " in srv.get()  # the share is free again


# -- the socket handler and the middleware (TestClient) ---------------------------------------


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://localhost") as c:
        yield c


def _game(client: TestClient) -> str:
    game_id: str = client.post("/api/friends", json={"size": 3}).json()["id"]
    return f"ws://localhost/api/friends/{game_id}/ws"


def test_a_websocket_under_another_host_name_is_refused(client: TestClient) -> None:
    url = _game(client)
    evil = url.replace("ws://localhost", "ws://evil.example")
    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect(evil, headers={"origin": "http://evil.example"}),
    ):
        pass
    assert info.value.code == 1008
    with client.websocket_connect(url) as ws:  # the server's own name still works
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "state"


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\x00\x01binary", 1003),
        ("[" * 3000, 1008),
        ('{"type": "ping", "t": ' + "[" * 20 + "]" * 20 + "}", 1008),
        ('{"type": "ping", "t": "' + "x" * 5000 + '"}', 1009),
    ],
)
@pytest.mark.parametrize("when", ["hello", "later"])
def test_bad_frames_close_with_one_code_and_one_line(
    client: TestClient,
    caplog: Caplog,
    monkeypatch: pytest.MonkeyPatch,
    frame: str | bytes,
    code: int,
    when: str,
) -> None:
    # a fresh log: the one line per address a minute is not used up by the cases before
    monkeypatch.setattr("boardlab.web.friends.sockets._frames_log", RefusalLog("WebSocket message"))
    url = _game(client)
    with caplog.at_level(logging.INFO), client.websocket_connect(url) as ws:
        if when == "later":
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "state"
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        message = ws.receive()
    assert message["type"] == "websocket.close" and message["code"] == code
    assert not [r for r in caplog.records if r.exc_info]
    assert len([r for r in caplog.records if "WebSocket message refused" in r.getMessage()]) == 1


def test_one_address_has_a_cap_on_open_websockets(caplog: Caplog) -> None:
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        await ws.receive_text()
        await ws.close()

    inner = Starlette(routes=[WebSocketRoute("/ws", echo)])
    app = GuardMiddleware(inner, allowed_hosts=frozenset({"testserver"}), websockets_per_address=2)
    with TestClient(app) as c, caplog.at_level(logging.WARNING):  # type: ignore[arg-type]
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            with pytest.raises(WebSocketDisconnect) as info, c.websocket_connect("/ws"):
                pass
            assert info.value.code == 1013
            a.send_text("bye")
            b.send_text("bye")
        with c.websocket_connect("/ws") as again:  # given back when they closed
            again.send_text("bye")
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 1
