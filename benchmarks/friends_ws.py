"""Shared games over WebSockets: N concurrent games (default 200) moving for S seconds
(default 60) against a real server process on loopback.

Each game has two socket clients; the side to move answers the opponent's move at once with
a legal move, and a finished game is followed by its rematch, so every game keeps moving.
Once every socket has its first state, moves are counted for S seconds: prints moves per
second, the latency from sending a move to the opponent seeing it
(p50/p95/p99), errors, and the server process's memory (resident now and at its peak).
Bounded: loopback only, a fixed number of games, a fixed duration.

The server runs as `boardlab serve` would (--workers processes behind one port, the database
migrated once before they start) on an SQLite file in a temporary folder, or on the PostgreSQL
database given by --database (emptied of shared games first: use a database of its own).
A checkout older than the server's settings module is run as one process, as it was.
The server runs in a session of its own (as a service would), the clients in this one.

Run: python benchmarks/friends_ws.py [--games 200] [--seconds 60] [--size 4]
                                     [--database sqlite | postgresql://...] [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from _machine import header

SERVER = """
import json, os, sys, uvicorn
from boardlab.web.friends.store import FriendLimits
limits = dict(open_per_client=100_000, open_total=100_000, messages_per_s=1000,
              message_burst=1000, requests_per_s=10_000, request_burst=10_000,
              full_sync=sys.argv[4] == "full")
port, db, tables, workers = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[5])
try:
    from boardlab.web.server import ENV, ServeSettings
except ImportError:  # a checkout from before `serve --workers`: one process, as it ran then
    from boardlab.web import create_app
    app = create_app(tables=tables)
    app.state.friends.configure(db, FriendLimits(**limits))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    raise SystemExit(0)
from boardlab.web.connections import LIMITS_ENV, raise_file_limit
from boardlab.web.friends import db as dbmod
try:  # the protocols `boardlab serve` runs
    from boardlab.web.server import protocol_options
    protocols = protocol_options(4096)
except ImportError:  # as `boardlab serve` ran them before protocol_options
    protocols = dict(http="boardlab.web.connections:ProcessHTTP",
                     ws="boardlab.web.connections:ProcessWebSocket", ws_max_size=4096)
raise_file_limit()
os.environ[LIMITS_ENV] = json.dumps(dict(per_address=64, total=8192))
engine = dbmod.make_engine(db)
dbmod.upgrade(engine)
engine.dispose()
os.environ[ENV] = ServeSettings(tables=tables, database=db, workers=workers, processes=False,
                                warm=False, friend_limits=limits).to_env()
uvicorn.run("boardlab.web.server:app_from_env", factory=True, workers=workers,
            host="127.0.0.1", port=port, log_level="warning", **protocols)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def memory_mib(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of a process, MiB (Linux /proc)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    kib = lambda k: float(fields.get(k, "0 kB").split()[0])  # noqa: E731
    return kib("VmRSS") / 1024, kib("VmHWM") / 1024


def children(pid: int) -> list[int]:
    """The process ids of `pid`'s children (the worker processes), Linux /proc."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(x) for x in text)
    return found


def empty_postgres(url: str) -> None:
    """Drop the shared-games tables of a PostgreSQL database (a benchmark's own)."""
    from sqlalchemy import text

    from boardlab.web.friends import db as dbmod

    engine = dbmod.make_engine(url)
    with engine.begin() as conn:
        for table in ("results", "moves", "seats", "games", "matches", "alembic_version"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.games_finished = 0
        self.open = False  # the window is open (every seat has had its state)
        self.opened = float("inf")  # moves sent from then on count (every seat has a state)
        self.seated: set[tuple[str, str]] = set()
        self.setup_s = 0.0
        self.window_s = 0.0
        self.kinds: Counter[str] = Counter()  # the errors' messages
        self.server_cpu_s = 0.0  # CPU seconds the server's processes used in the window
        self.client_cpu_s = 0.0  # and this process (the clients)
        self.lost = 0  # players whose socket failed (refused, or closed by the server)
        self.memory: list[tuple[float, float]] = []  # (seconds into the window, server MiB)


def client_address(n: int) -> str:
    """The loopback address of the n-th game's sockets: the server caps the sockets of one
    address, so the games come from many addresses as a site's players would."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


async def player(
    base: str, game: str, token: str, stats: Stats, rng: random.Random, think: float, n: int
) -> None:
    """One seat: moves whenever it is its turn; follows rematches; counts what it sees.
    Lean, so that the figures measure the server more than the clients sharing its machine:
    one receive per message (no timer), and stopped by cancelling its task."""
    url = base.replace("http", "ws", 1)
    loads, dumps, clock = json.loads, json.dumps, time.perf_counter
    sent = stats.sent
    while True:
        async with connect(
            f"{url}/api/friends/{game}/ws",
            max_queue=None,
            local_addr=(client_address(n), 0),
            ping_interval=None,  # loopback: no keepalive pings to answer
        ) as ws:
            await ws.send(dumps({"type": "hello", "token": token}))
            next_game = None
            async for raw in ws:
                msg = loads(raw)
                if msg["type"] == "error":
                    if msg.get("status") != 409:
                        stats.errors += 1
                        stats.kinds[str(msg.get("error"))[:80]] += 1
                    continue
                if msg["type"] != "state":
                    continue
                s = msg["state"]
                if not stats.open:
                    stats.seated.add((game, token))
                ply = s["ply"]
                mine = s["to_move"] == s["you"]
                if ply and mine:  # the opponent's move reached this seat
                    t0 = sent.pop((game, ply - 1), None)
                    if t0 is not None and t0 >= stats.opened:
                        stats.latencies.append(clock() - t0)
                        stats.moves += 1
                if s["next_game"]:
                    next_game = s["next_game"]
                    break
                if s["status"] == "over":
                    if s["person"] == 0:
                        stats.games_finished += 1
                        await ws.send(dumps({"type": "rematch"}))
                    continue
                if s["status"] == "playing" and mine:
                    if (game, ply) in sent:
                        continue  # sent already; this is an echo of something else
                    move = rng.choice(s["legal_moves"])
                    if think:  # a player's thinking time: the load is paced, not flat out
                        await asyncio.sleep(think * (0.5 + rng.random()))
                    sent[(game, ply)] = clock()
                    await ws.send(dumps({"type": "move", "move": move, "ply": ply}))
            if next_game is None:
                stats.lost += 1  # the server closed the socket
                return
            game = next_game


def server_rss(pid: int) -> float:
    """Resident memory of the server's processes together, MiB."""
    total = 0.0
    for p in (pid, *children(pid)):
        with contextlib.suppress(OSError):
            total += memory_mib(p)[0]
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and its children (the worker processes)
    so far, Linux /proc."""
    total = 0.0
    for p in (pid, *children(pid)):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def run(
    base: str, games: int, seconds: float, size: int, seed: int, think: float, server: int
) -> Stats:
    stats = Stats()
    begun = time.perf_counter()
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats = []
        for _ in range(games):
            r = await http.post("/api/friends", json={"game": "dodgem", "size": size})
            r.raise_for_status()
            c = r.json()
            seats.append((c["id"], c["token"]))
            seats.append((c["id"], c["invite_token"]))
    tasks = [
        asyncio.create_task(
            player(base, gid, tok, stats, random.Random(rng.random()), think, i // 2)
        )
        for i, (gid, tok) in enumerate(seats)
    ]
    # the window opens once every seat's socket has its first state (or after 120 s)
    setup_until = time.monotonic() + 120
    while len(stats.seated) < len(seats) and time.monotonic() < setup_until:
        await asyncio.sleep(0.05)
    stats.setup_s = time.perf_counter() - begun
    print(f"every socket seated after {stats.setup_s:.1f} s; measuring {seconds:g} s", flush=True)
    stats.opened = time.perf_counter()
    stats.open = True
    cpu, own = cpu_seconds(server), time.process_time()
    # the server's resident memory ten times in the window: flat, or growing with time
    every = seconds / 10
    for i in range(10):
        stats.memory.append((i * every, server_rss(server)))
        await asyncio.sleep(every)
    stats.memory.append((seconds, server_rss(server)))
    stats.window_s = time.perf_counter() - stats.opened
    stats.server_cpu_s = cpu_seconds(server) - cpu
    stats.client_cpu_s = time.process_time() - own
    for task in tasks:
        task.cancel()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    stats.lost += sum(
        isinstance(e, BaseException) and not isinstance(e, asyncio.CancelledError) for e in ended
    )
    return stats


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed: the clients cost less of the CPU they
    share with the server."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (a temporary file, the default) or a PostgreSQL URL of a database of its own",
    )
    ap.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL: 1-8)")
    ap.add_argument(
        "--python",
        default=sys.executable,
        help="the Python that runs the server (another checkout's environment, to compare)",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player thinks before a move, on average (default 0: flat out)",
    )
    ap.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite sync per commit: full (the server's default) or normal",
    )
    args = ap.parse_args()
    if not (1 <= args.games <= 1000 and 1 <= args.seconds <= 600 and 1 <= args.workers <= 8):
        raise SystemExit("--games 1-1000, --seconds 1-600 and --workers 1-8 keep it bounded")
    print(header("Shared games over WebSockets"))
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        if args.database == "sqlite":
            db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        else:
            db = args.database
            empty_postgres(db)
        tables = str(Path(tmp) / "tables")
        # the server in a session of its own, as a service runs: where the kernel shares the
        # processors between sessions (Linux's autogroups), the clients' session does not
        # share one slice with the server it measures
        proc = subprocess.Popen(
            [args.python, "-c", SERVER, str(port), db, tables, args.sync, str(args.workers)],
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            idle_rss = sum(memory_mib(p)[0] for p in (proc.pid, *children(proc.pid)))
            with asyncio.Runner(loop_factory=loop_factory()) as runner:
                stats = runner.run(
                    run(base, args.games, args.seconds, args.size, args.seed, args.think, proc.pid)
                )
            elapsed = stats.window_s
            rss, peak = memory_mib(proc.pid)
            for child in children(proc.pid):
                r, p = memory_mib(child)
                rss, peak = rss + r, peak + p
        finally:
            proc.terminate()
            proc.wait(20)
    lat = [x * 1000 for x in stats.latencies]
    where = (
        f"SQLite file, WAL, synchronous={args.sync.upper()}"
        if args.database == "sqlite"
        else "PostgreSQL"
    )
    print(
        f"{args.games} games ({2 * args.games} sockets), {args.size}×{args.size} Dodgem, "
        f"{args.seconds:.0f} s on loopback; {where}; {args.workers} server process(es); "
        f"thinking {args.think:g} s a move"
    )
    print(f"set-up (games made, every socket seated): {stats.setup_s:.1f} s")
    print(f"moves seen by the opponent: {stats.moves} ({stats.moves / elapsed:.1f} moves/s)")
    if stats.moves:
        print(
            f"server CPU in the window: {stats.server_cpu_s:.1f} s "
            f"({1000 * stats.server_cpu_s / stats.moves:.2f} ms a move, "
            f"{stats.server_cpu_s / elapsed:.2f} cores busy); clients' CPU: "
            f"{1000 * stats.client_cpu_s / stats.moves:.2f} ms a move "
            f"({stats.client_cpu_s / elapsed:.2f} cores busy)"
        )
    print(f"games finished (and rematched): {stats.games_finished}")
    if lat:
        print(
            f"latency send -> opponent sees it: p50 {percentile(lat, 0.5):.1f} ms, "
            f"p95 {percentile(lat, 0.95):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
            f"max {max(lat):.1f} ms"
        )
    print(f"errors: {stats.errors}; players lost (socket refused or failed): {stats.lost}")
    for text, count in stats.kinds.most_common(3):
        print(f"  {count} x {text}")
    series = ", ".join(f"{t:.0f} s {mib:.0f}" for t, mib in stats.memory)
    print(f"server memory in the window (MiB): {series}")
    print(
        f"server memory (its processes together): {idle_rss:.0f} MiB before, {rss:.0f} MiB "
        f"after, peak {peak:.0f} MiB"
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"client and server share {os.cpu_count()} cores; load average now {load}")


if __name__ == "__main__":
    main()
