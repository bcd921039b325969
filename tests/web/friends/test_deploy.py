"""A hosted server as docs/deploy.md sets it up: `boardlab serve --workers 2` on PostgreSQL,
with and without Debian's Caddy in front. A move accepted by either process reaches the
sockets of both; a worker killed with SIGKILL mid-game loses no acknowledged move, the other
serves on and the supervisor starts a new one."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.web.friends.served import (
    free_port,
    hello,
    play_over_http,
    processes_answering,
    serve,
    until_ply,
    wait_for,
    worker_pids,
)
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.slow


def start_game(base: str) -> tuple[str, dict[int, str]]:
    """A 4×4 Dodgem game created and joined over HTTP; its id and the tokens by colour."""
    with httpx.Client(base_url=base, timeout=20) as c:
        created = c.post("/api/friends", json={"game": "dodgem", "size": 4}).json()
        gid, colour = created["id"], created["colour"]
        tokens = {colour: created["token"], 1 - colour: created["invite_token"]}
        joined = c.post(
            f"/api/friends/{gid}/join",
            headers={"Authorization": f"Bearer {created['invite_token']}"},
        )
        assert joined.json()["status"] == "playing"
    return gid, tokens


def metric(base: str, name: str, **labels: str) -> float:
    """A figure of the server's /metrics: the sum of the samples of `name` (a counter's
    total) whose labels include `labels`."""
    text = httpx.get(f"{base}/metrics", timeout=20).text
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in (name, f"{name}_total") and labels.items() <= sample.labels.items():
                total += sample.value
    return total


def sockets_see_every_move(base: str, moves: int) -> None:
    """Six sockets on one game (spread over the processes), moves sent over HTTP to any
    process: every socket sees the final ply and the same moves."""
    gid, tokens = start_game(base)
    with ExitStack() as stack:
        sockets = []
        for token in (tokens[0], tokens[1], None, None, None, None):
            ws, _ = hello(base, gid, token)
            stack.callback(ws.close)
            sockets.append(ws)
        played = play_over_http(base, gid, tokens, moves)
        assert played
        for ws in sockets:
            final = until_ply(ws, len(played))
            assert final["moves"] == played


def test_two_workers_on_postgresql_share_every_move_and_survive_a_kill(
    postgres: Any, tmp_path: Path
) -> None:
    url = postgres.database()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(url, tmp_path / "tables", port, "--workers", "2") as proc:
        assert len(processes_answering(base)) == 2  # both processes serve the port
        sockets_see_every_move(base, 8)
        # /metrics, answered by either process, counts for both: the 40 health checks that
        # both answered, the 8 moves played through either, and the sockets open now
        assert metric(base, "boardlab_requests", route="/healthz", status="200") == 40
        assert metric(base, "boardlab_moves") == 8
        gid, _ = start_game(base)
        with ExitStack() as stack:
            for _ in range(4):
                stack.callback(hello(base, gid, None)[0].close)
            assert metric(base, "boardlab_open_sockets") == 4
        environ = Path(f"/proc/{worker_pids(proc)[0]}/environ").read_bytes().split(b"\0")
        folder = Path(next(v for v in environ if v.startswith(b"PROMETHEUS_MULTIPROC_DIR="))
                      .split(b"=", 1)[1].decode())  # fmt: skip
        assert folder.is_dir() and os.stat(folder).st_mode & 0o077 == 0  # private
        # mid-game, one worker is killed: no acknowledged move is lost
        gid, tokens = start_game(base)
        before = play_over_http(base, gid, tokens, 4)
        os.kill(worker_pids(proc)[0], signal.SIGKILL)
        after = play_over_http(base, gid, tokens, 4)  # the other process answers meanwhile
        state = httpx.get(f"{base}/api/friends/{gid}", timeout=20).json()
        assert state["moves"] == before + after
        deadline = time.monotonic() + 60
        while len(worker_pids(proc)) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(worker_pids(proc)) == 2  # the supervisor started another
    assert not folder.exists()  # the metrics' folder goes with the server


@contextmanager
def caddy(port: int, upstream: int, folder: Path) -> Iterator[None]:
    """Debian's Caddy on a loopback port (plain HTTP), proxying to `upstream`."""
    folder.mkdir()
    (folder / "Caddyfile").write_text(
        "{\n  admin off\n  auto_https off\n}\n"
        f"http://127.0.0.1:{port} {{\n  reverse_proxy 127.0.0.1:{upstream}\n}}\n"
    )
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")}
    env["XDG_CONFIG_HOME"] = str(folder / "config")
    proc = subprocess.Popen(
        ["caddy", "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc, seconds=30)
        yield
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.skipif(shutil.which("caddy") is None, reason="no caddy binary: apt install caddy")
def test_a_shared_game_through_caddy_in_front_of_two_workers(postgres: Any, tmp_path: Path) -> None:
    url = postgres.database()
    port, front = free_port(), free_port()
    with (
        serve(url, tmp_path / "tables", port, "--workers", "2"),
        caddy(front, port, tmp_path / "caddy"),
    ):
        base = f"http://127.0.0.1:{front}"
        r = httpx.get(f"{base}/readyz", timeout=20)
        assert r.json()["status"] == "ready" and r.headers["x-request-id"]
        sockets_see_every_move(base, 8)


def test_sigterm_drains_sockets_are_told_to_reconnect_and_no_move_is_lost(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'friends.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(url, tmp_path / "tables", port) as proc:
        gid, tokens = start_game(base)
        ws, _ = hello(base, gid, tokens[0])
        played = play_over_http(base, gid, tokens, 5)
        until_ply(ws, len(played))
        os.killpg(proc.pid, signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012  # "restart"
        # uvicorn ends a graceful shutdown by raising the signal again (systemd counts it a
        # clean stop)
        assert proc.wait(30) in (0, -signal.SIGTERM)
    with serve(url, tmp_path / "tables", port):
        assert httpx.get(f"{base}/api/friends/{gid}", timeout=20).json()["moves"] == played
