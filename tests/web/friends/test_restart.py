"""A real `boardlab serve` process on a database (SQLite, then PostgreSQL), killed with SIGKILL
in the middle of a game and started again on the same database: both players reconnect their
sockets and finish the game, and no acknowledged move is lost. Also two moves raced over HTTP:
one is accepted."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

# how long a request or a socket may wait for an answer: far above a quiet machine's
# milliseconds, so that a loaded one (a fresh server compiling, other tests) still passes
WAIT = 60.0


def free_port() -> int:
    """A free port of issue 14's range, 8140-8199, split between the xdist workers so that
    two tests running at once never pick the same one (else any free port)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    first = 8140 + (index % 4) * 15
    for port in range(first, first + 15):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(database: str, tables: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    cmd = [sys.executable, "-m", "boardlab", "serve", "--port", str(port), "--database", database]
    proc = subprocess.Popen(
        [*cmd, "--tables", str(tables)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read() if proc.stderr else ''!r}")
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.2)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(20)


def hello(
    stack: ExitStack, port: int, game_id: str, token: str
) -> tuple[ClientConnection, dict[str, Any]]:
    url = f"ws://127.0.0.1:{port}/api/friends/{game_id}/ws"
    ws = stack.enter_context(connect(url, open_timeout=WAIT))
    ws.send(json.dumps({"type": "hello", "token": token}))
    msg = json.loads(ws.recv(timeout=WAIT))
    assert msg["type"] == "state"
    state: dict[str, Any] = msg["state"]
    return ws, state


def play(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """Send the first legal move; returns the state that acknowledges it."""
    ws.send(json.dumps({"type": "move", "move": state["legal_moves"][0], "ply": state["ply"]}))
    while True:
        msg = json.loads(ws.recv(timeout=WAIT))
        assert msg["type"] == "state", msg
        if msg["state"]["ply"] == state["ply"] + 1:
            acked: dict[str, Any] = msg["state"]
            return acked


@pytest.mark.slow
def test_sigkill_in_mid_game_loses_no_acknowledged_move(tmp_path: Path, db_url: str) -> None:
    url = db_url
    port = free_port()
    acked: list[str] = []
    with server(url, tmp_path / "tables", port) as proc:
        base = f"http://127.0.0.1:{port}"
        new = {"game": "dodgem", "size": 3}
        created = httpx.post(f"{base}/api/friends", json=new, timeout=WAIT).json()
        gid = created["id"]
        tokens = {
            created["colour"]: created["token"],
            1 - created["colour"]: created["invite_token"],
        }
        with ExitStack() as stack:
            # the invited seat joins by saying hello on its socket
            sockets = {c: hello(stack, port, gid, tokens[c])[0] for c in (0, 1)}
            state = httpx.get(f"{base}/api/friends/{gid}", timeout=WAIT).json()
            assert state["status"] == "playing"
            for _ in range(4):
                state = play(sockets[state["to_move"]], state)
                acked = state["moves"]
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert len(acked) == 4
    with server(url, tmp_path / "tables", port), ExitStack() as stack:
        sockets = {}
        for c in (0, 1):
            sockets[c], state = hello(stack, port, gid, tokens[c])
            assert state["moves"] == acked and state["you"] == c  # every acknowledged move
        while state["status"] == "playing":
            state = play(sockets[state["to_move"]], state)
        assert state["result"] is not None and state["moves"][:4] == acked


def race(url: str, auth: dict[str, str], moves: list[str]) -> list[int]:
    """POST each move for ply 0 from its own thread at the same instant; the statuses."""
    barrier = threading.Barrier(len(moves))
    codes: list[int] = []

    def send(move: str) -> None:
        barrier.wait()
        r = httpx.post(url, json={"move": move, "ply": 0}, headers=auth, timeout=WAIT)
        codes.append(r.status_code)

    threads = [threading.Thread(target=send, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


@pytest.mark.slow
def test_two_moves_raced_over_http_one_is_accepted(tmp_path: Path, db_url: str) -> None:
    url = db_url
    port = free_port()
    with server(url, tmp_path / "tables", port):
        base = f"http://127.0.0.1:{port}"
        for _ in range(3):
            new = {"size": 3, "colour": "first"}
            created = httpx.post(f"{base}/api/friends", json=new, timeout=WAIT).json()
            gid = created["id"]
            auth = {"Authorization": f"Bearer {created['token']}"}
            invite = {"Authorization": f"Bearer {created['invite_token']}"}
            joined = httpx.post(f"{base}/api/friends/{gid}/join", headers=invite, timeout=WAIT)
            state = joined.json()
            codes = race(f"{base}/api/friends/{gid}/move", auth, state["legal_moves"][:2])
            assert sorted(codes) == [200, 409]
            assert len(httpx.get(f"{base}/api/friends/{gid}", timeout=WAIT).json()["moves"]) == 1
