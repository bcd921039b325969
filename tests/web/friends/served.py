"""Helpers of the tests that run real `boardlab serve` processes: start one (several workers
and a database of the test's own), and play a shared game through sockets and HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, proc: subprocess.Popen[bytes] | None = None, seconds: float = 90) -> None:
    """Until `url` answers 200 (the process must not exit meanwhile)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc is not None and proc.poll() is not None:
            err = proc.stderr.read() if proc.stderr else b""
            raise RuntimeError(f"server exited: {err[-2000:]!r}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer")
        time.sleep(0.3)


@contextmanager
def serve(database: str, tables: Path, port: int, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """`boardlab serve` on `port` until the block ends (then SIGTERM, as a deploy does)."""
    # one computer-player thread a process: each process's worker pool stays small
    cmd = [sys.executable, "-m", "boardlab", "serve", "--port", str(port)]
    cmd += ["--threads", "1", "--per-client", "1"]
    proc = subprocess.Popen(
        [*cmd, "--database", database, "--tables", str(tables), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/readyz", proc)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


def worker_pids(proc: subprocess.Popen[bytes]) -> list[int]:
    """The worker processes of a `serve --workers N` (children of the supervisor that
    answer requests; Linux /proc)."""
    found = []
    for task in Path(f"/proc/{proc.pid}/task").iterdir():
        for pid in (int(x) for x in (task / "children").read_text().split()):
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                alive = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
            except OSError:
                continue
            if b"spawn_main" in cmdline and alive:  # not multiprocessing's resource tracker
                found.append(pid)
    return found


def processes_answering(base: str, tries: int = 40) -> set[int]:
    """The process ids that answered /healthz over `tries` fresh connections."""
    seen = set()
    for _ in range(tries):
        with httpx.Client(base_url=base, timeout=10) as c:
            seen.add(int(c.get("/healthz").json()["process"]))
    return seen


def hello(base: str, game_id: str, token: str | None) -> tuple[ClientConnection, dict[str, Any]]:
    url = f"{base.replace('http', 'ws', 1)}/api/friends/{game_id}/ws"
    ws = connect(url, open_timeout=20).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    msg = json.loads(ws.recv(timeout=20))
    assert msg["type"] == "state", msg
    state: dict[str, Any] = msg["state"]
    return ws, state


def until_ply(ws: ClientConnection, ply: int) -> dict[str, Any]:
    """The first state pushed to `ws` at `ply` or later."""
    while True:
        msg = json.loads(ws.recv(timeout=20))
        if msg["type"] == "state" and msg["state"]["ply"] >= ply:
            state: dict[str, Any] = msg["state"]
            return state


def play_over_http(base: str, game_id: str, tokens: dict[int, str], moves: int) -> list[str]:
    """Play `moves` moves through HTTP, a new connection for each (so they reach different
    processes); the moves acknowledged, in order."""
    played: list[str] = []
    for _ in range(moves):
        with httpx.Client(base_url=base, timeout=20) as c:
            state = c.get(f"/api/friends/{game_id}").json()
            if state["status"] != "playing":
                break
            token = tokens[state["to_move"]]
            move = state["legal_moves"][0]
            r = c.post(
                f"/api/friends/{game_id}/move",
                json={"move": move, "ply": state["ply"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200, r.text
            played.append(move)
    return played
