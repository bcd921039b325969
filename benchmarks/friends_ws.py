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
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

sys.path.insert(0, str(Path(__file__).parent))
from _machine import header

SERVER = """
import json, os, sys, uvicorn
from boardlab.web.friends.store import FriendLimits
limits = dict(open_per_client=100_000, open_total=100_000, messages_per_s=1000,
              message_burst=1000, requests_per_s=10_000, request_burst=10_000,
              full_sync=sys.argv[4] == "full")
port, db, tables, workers = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[5])
if os.environ.get("FRIENDS_TRACE"):  # --trace: stamp the stages of every move
    sys.path.insert(0, os.environ["FRIENDS_TRACE_PATH"])
    import _friends_trace
    _friends_trace.install()
if os.environ.get("FRIENDS_TRACEMALLOC"):  # --tracemalloc: what grows in memory
    sys.path.insert(0, os.environ["FRIENDS_TRACE_PATH"])
    import _friends_memory
    _friends_memory.install()
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
        self.server_wait_s = 0.0  # seconds the server's threads were ready but not running
        self.client_wait_s = 0.0  # and the clients'
        self.lost = 0  # players whose socket failed (refused, or closed by the server)
        self.memory: list[tuple[float, float]] = []  # (seconds into the window, server MiB)
        self.heard: dict[int, float] = {}  # game n -> when one of its seats last had a state
        self.late: list[tuple[float, str, int, float]] = []
        self.stuck: list[
            int
        ] = []  # games with no state for 5 s at the window's end  # (s, game, ply, sent at s)
        self.think = 0.0
        self.trace = False  # --trace: keep each move's send and receive times, the loop's lag
        self.seen: dict[tuple[str, int], tuple[float, float]] = {}  # (game, ply): sent, seen
        self.lags: list[float] = []  # the clients' event loop: a 5 ms timer's lateness, s


def client_address(n: int) -> str:
    """The loopback address of the n-th game's sockets: the server caps the sockets of one
    address, so the games come from many addresses as a site's players would."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


class LeanSocket(asyncio.Protocol):
    """One WebSocket client on websockets' sans-I/O protocol: each message is handled in the
    socket's data callback, with no task, queue or wake-up per message, so the clients cost
    less of the processors they share with the server (a real WebSocket all the same: the
    handshake, framing, masking and closing are the library's)."""

    def __init__(self, url: str, on_text: Callable[[LeanSocket, str], None]) -> None:
        self.proto = ClientProtocol(parse_uri(url), max_size=None)
        self.on_text = on_text
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: Any = None  # asyncio's or uvloop's (not asyncio.Transport's subclass)

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.proto.send_request(self.proto.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.proto.receive_data(data)
        for event in self.proto.events_received():
            if isinstance(event, Response):
                if not self.opened.done():
                    exc = self.proto.handshake_exc
                    if exc is None:
                        self.opened.set_result(None)
                    else:
                        self.opened.set_exception(exc)
            elif event.opcode is Opcode.TEXT and event.fin:
                self.on_text(self, event.data.decode())
        self._flush()

    def send_text(self, text: str) -> None:
        if self.transport is None or self.transport.is_closing():
            return  # a thinking time that ended after its socket (the run's end)
        self.proto.send_text(text.encode())
        self._flush()

    def close(self) -> None:
        self.proto.send_close(1000)
        self._flush()

    def _flush(self) -> None:
        out = self.proto.data_to_send()
        if self.transport is None or not out:
            return
        if all(out):
            self.transport.write(b"".join(out))
        else:  # the closing handshake is done: end the connection
            self.transport.write(b"".join(x for x in out if x))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        for fut in (self.opened, self.closed):
            if not fut.done():
                fut.set_result(None)


async def player(
    base: str, game: str, token: str, stats: Stats, rng: random.Random, think: float, n: int
) -> None:
    """One seat: moves whenever it is its turn; follows rematches; counts what it sees.
    Lean, so that the figures measure the server more than the clients sharing its machine:
    each message is handled in its socket's data callback (`LeanSocket`), a move's thinking
    time is a timer, and it is stopped by cancelling its task."""
    url = base.replace("http", "ws", 1)
    host, port = url.split("//", 1)[1].split(":")
    loop = asyncio.get_running_loop()
    loads, dumps, clock = json.loads, json.dumps, time.perf_counter
    sent = stats.sent
    seat: dict[str, Any] = {"game": game, "next": None}

    def send_move(ws: LeanSocket, game: str, ply: int, move: str) -> None:
        sent[(game, ply)] = clock()
        ws.send_text(dumps({"type": "move", "move": move, "ply": ply}))

    def on_text(ws: LeanSocket, raw: str) -> None:
        game = seat["game"]
        msg = loads(raw)
        if msg["type"] == "error":
            if msg.get("status") != 409:
                stats.errors += 1
                stats.kinds[str(msg.get("error"))[:80]] += 1
            return
        if msg["type"] != "state" or seat["next"] is not None:
            return
        s = msg["state"]
        stats.heard[n] = clock()
        if not stats.open:
            stats.seated.add((game, token))
        ply = s["ply"]
        mine = s["to_move"] == s["you"]
        if ply and mine:  # the opponent's move reached this seat
            t0 = sent.pop((game, ply - 1), None)
            if t0 is not None and t0 >= stats.opened:
                now = clock()
                stats.latencies.append(now - t0)
                if now - t0 > 2.0:  # a late move: which, for the log lines
                    stats.late.append((now - t0, game, ply - 1, t0 - stats.opened))
                stats.moves += 1
                if stats.trace:
                    stats.seen[(game, ply - 1)] = (t0, now)
        if s["next_game"]:
            seat["next"] = s["next_game"]
            ws.close()
            return
        if s["status"] == "over":
            if s["person"] == 0:
                stats.games_finished += 1
                ws.send_text(dumps({"type": "rematch"}))
            return
        if s["status"] == "playing" and mine:
            if (game, ply) in sent:
                return  # sent already; this is an echo of something else
            move = rng.choice(s["legal_moves"])
            if think:  # a player's thinking time: the load is paced, not flat out
                loop.call_later(think * (0.5 + rng.random()), send_move, ws, game, ply, move)
            else:
                send_move(ws, game, ply, move)

    while True:
        _, ws = await loop.create_connection(
            lambda: LeanSocket(f"{url}/api/friends/{seat['game']}/ws", on_text),
            host,
            int(port),
            local_addr=(client_address(n), 0),
        )
        try:
            await ws.opened
            ws.send_text(dumps({"type": "hello", "token": token}))
            await ws.closed
        finally:
            if ws.transport is not None:
                ws.transport.close()
        if seat["next"] is None:
            stats.lost += 1  # the server closed the socket
            return
        seat["game"], seat["next"] = seat["next"], None


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


def sched_waits(pid: int) -> dict[tuple[int, str], float]:
    """Seconds each thread of a process and its children has waited for a processor while
    ready to run (Linux's schedstat), by (process, thread): the machine's other work (and
    the process's own threads) keeping it from a processor."""
    waits = {}
    for p in (pid, *children(pid)):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                waits[(p, task.name)] = int((task / "schedstat").read_text().split()[1]) / 1e9
    return waits


def waited(before: dict[tuple[int, str], float], pid: int) -> float:
    """Seconds the threads of `pid` (and its children) alive now waited since `before`."""
    return sum(t - before.get(k, 0.0) for k, t in sched_waits(pid).items())


async def run(
    base: str,
    games: int,
    seconds: float,
    size: int,
    seed: int,
    think: float,
    server: int,
    trace: bool = False,
    mark: Path | None = None,
) -> Stats:
    stats = Stats()
    stats.trace = trace
    stats.think = think
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
    lag = None
    if trace:
        signal_server(server, signal.SIGUSR1)
        lag = asyncio.create_task(loop_lag(stats.lags))
    stats.opened = time.perf_counter()
    stats.open = True
    if mark is not None:  # --tracemalloc: the server takes its baseline snapshot now
        mark.touch()
    cpu, own = cpu_seconds(server), time.process_time()
    sched, sched_own = sched_waits(server), sched_waits(os.getpid())
    # the server's resident memory ten times in the window: flat, or growing with time
    every = seconds / 10
    for i in range(10):
        stats.memory.append((i * every, server_rss(server)))
        await asyncio.sleep(every)
    stats.memory.append((seconds, server_rss(server)))
    stats.window_s = time.perf_counter() - stats.opened
    # games none of whose seats had a state in the last 5 s (with --think below 1 s, a game
    # that moves has one every second or so): stuck, their latency never counted
    now = time.perf_counter()
    stats.stuck = sorted(n for n in range(games) if now - stats.heard.get(n, 0.0) > 5.0)
    stats.server_cpu_s = cpu_seconds(server) - cpu
    stats.client_cpu_s = time.process_time() - own
    stats.server_wait_s = waited(sched, server)
    stats.client_wait_s = waited(sched_own, os.getpid())
    if trace:
        signal_server(server, signal.SIGUSR2)
        stats.trace = False
    if lag is not None:
        lag.cancel()
    for task in tasks:
        task.cancel()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    stats.lost += sum(
        isinstance(e, BaseException) and not isinstance(e, asyncio.CancelledError) for e in ended
    )
    return stats


def signal_server(pid: int, sig: int) -> None:
    """Send `sig` to the server's processes (the workers; the one process with one)."""
    for p in children(pid) or [pid]:
        with contextlib.suppress(OSError):
            os.kill(p, sig)


async def loop_lag(into: list[float]) -> None:
    """The lateness of a 5 ms timer, again and again: how long the clients' event loop was
    busy before it could run a task that was ready."""
    clock = time.perf_counter
    while True:
        t = clock()
        await asyncio.sleep(0.005)
        into.append(clock() - t - 0.005)


def read_traces(prefix: Path) -> dict[str, Any]:
    """The server processes' traces (`_friends_trace`), merged; waits a little for them."""
    deadline = time.monotonic() + 20
    merged: dict[str, Any] = {
        "stamps": [],
        "batches": [],
        "lags": [],
        "gc": [],
        "lock_waits": [],
        "tx": [],
    }
    while time.monotonic() < deadline:
        files = [p for p in prefix.parent.glob(prefix.name + ".*") if p.suffix != ".tmp"]
        if files:
            time.sleep(0.5)
            for f in files:
                part = json.loads(f.read_text())
                for k in merged:
                    merged[k].extend(part[k])
            return merged
        time.sleep(0.2)
    print("trace: the server wrote none")
    return merged


# a move's stages, in order: the client's send, the server's (see _friends_trace.py), the
# opponent's receive
STAGES = (
    ("sent by client", "handle"),
    ("handle", "prepared"),
    ("prepared", "handover"),
    ("handover", "batch"),
    ("batch", "commit"),
    ("commit", "committed"),
    ("committed", "settled"),
    ("settled", "resumed"),
    ("resumed", "publish"),
    ("publish", "dequeued"),
    ("dequeued", "sent"),
    ("sent", "seen by opponent"),
)
EXPLAIN = {
    "sent by client": "client send -> server handles the frame",
    "handle": "checked and played in memory",
    "prepared": "waits for the loop's pass to end (hand-over)",
    "handover": "waits for the writer thread to take the batch",
    "batch": "batch's statements (SQLite: none apart)",
    "commit": "commit (fsync; SQLite: the whole batch)",
    "committed": "commit -> loop settles the waiter",
    "settled": "settled -> the move's task resumes",
    "resumed": "resumed -> state published",
    "publish": "published -> the opponent's send task runs",
    "dequeued": "send_text",
    "sent": "server sent -> opponent's client sees it",
}


def trace_report(stats: Stats, traced: dict[str, Any]) -> None:
    """Print where a move's time goes: each stage's p50/p95/p99 over the moves, and its
    mean over the slowest 5% of moves (those beyond the p95)."""
    server = {(g, p): s for g, p, s in traced["stamps"]}
    rows = []
    for key, (t0, t1) in stats.seen.items():
        s = server.get(key)
        if s is None:
            continue
        s = dict(s)
        s["sent by client"], s["seen by opponent"] = t0, t1
        if "handover" not in s and "prepared" in s:  # a server that hands each move at once
            s["handover"] = s["prepared"]
        if all(a in s and b in s and s[a] == s[a] and s[b] == s[b] for a, b in STAGES):
            rows.append(s)
    print(f"trace: {len(rows)} of {len(stats.seen)} moves stamped at every stage")
    if not rows:
        return
    total = [1000 * (r["seen by opponent"] - r["sent by client"]) for r in rows]
    cut = percentile(total, 0.95)
    slow = [r for r, t in zip(rows, total, strict=True) if t >= cut]
    print(f"  {'stage (ms)':52} {'p50':>7} {'p95':>7} {'p99':>7} {'slow 5%':>8}")
    for a, b in STAGES:
        d = [1000 * (r[b] - r[a]) for r in rows]
        mean_slow = sum(1000 * (r[b] - r[a]) for r in slow) / len(slow)
        print(
            f"  {EXPLAIN[a]:52} {percentile(d, 0.5):7.2f} {percentile(d, 0.95):7.2f} "
            f"{percentile(d, 0.99):7.2f} {mean_slow:8.2f}"
        )
    print(
        f"  {'whole (client send -> opponent sees it)':52} {percentile(total, 0.5):7.2f} "
        f"{percentile(total, 0.95):7.2f} {percentile(total, 0.99):7.2f} "
        f"{sum(total[i] for i, t in enumerate(total) if t >= cut) / len(slow):8.2f}"
    )
    b = traced["batches"]
    if b:
        sizes = [x[5] for x in b]
        commit = [1000 * (x[2] - x[1]) for x in b if x[1] == x[1]]
        whole = [1000 * (x[2] - x[0]) for x in b]
        span = max(1e-9, max(x[3] for x in b) - min(x[0] for x in b))
        busy = sum(x[3] - x[0] for x in b) / span
        cpu = sum(x[4] for x in b) / span
        print(
            f"  group commits: {len(b)}, moves a batch p50 {percentile(sizes, 0.5)} "
            f"p95 {percentile(sizes, 0.95)} max {max(sizes)}; a batch's transaction p50 "
            f"{percentile(whole, 0.5):.2f} p95 {percentile(whole, 0.95):.2f} ms, of it the "
            f"commit p50 {percentile(commit, 0.5):.2f} p95 {percentile(commit, 0.95):.2f} "
            f"max {max(commit):.2f} ms; the writer busy {100 * busy:.0f}% of the time, "
            f"on a CPU {100 * cpu:.0f}% of the time"
        )
    waits = [1000 * x for x in traced["lock_waits"]]
    if waits:
        print(
            f"  the writer's wait for the write lock: p50 {percentile(waits, 0.5):.2f}, p95 "
            f"{percentile(waits, 0.95):.2f}, max {max(waits):.2f} ms, total {sum(waits):.0f} ms"
        )
    by_caller: dict[str, list[tuple[float, float]]] = {}
    for caller, waited, held in traced["tx"]:
        by_caller.setdefault(caller, []).append((1000 * waited, 1000 * held))
    for caller, v in sorted(by_caller.items(), key=lambda kv: -len(kv[1])):
        held = sorted(x[1] for x in v)
        print(
            f"  other write transactions, {caller}: {len(v)}, holding the write lock p50 "
            f"{percentile(held, 0.5):.1f} p95 {percentile(held, 0.95):.1f} ms, "
            f"{sum(held):.0f} ms in all"
        )
    for who, lags in (("server", [x[1] for x in traced["lags"]]), ("clients", stats.lags)):
        if lags:
            ms = [1000 * x for x in lags]
            print(
                f"  {who}' event loop lag (a 5 ms timer's lateness): p50 "
                f"{percentile(ms, 0.5):.2f}, p95 {percentile(ms, 0.95):.2f}, p99 "
                f"{percentile(ms, 0.99):.2f}, max {max(ms):.2f} ms ({len(ms)} samples)"
            )
    gcs = traced["gc"]
    if gcs:
        by_gen: dict[int, list[tuple[float, float]]] = {}
        for _, gen, dt, cpu in gcs:
            by_gen.setdefault(gen, []).append((1000 * dt, 1000 * cpu))
        print(
            "  server's collector: "
            + "; ".join(
                f"gen {g}: {len(v)} passes, longest {max(v)[0]:.1f} ms ({max(v)[1]:.1f} ms "
                f"CPU), total {sum(x[0] for x in v):.0f} ms ({sum(x[1] for x in v):.0f} ms CPU)"
                for g, v in sorted(by_gen.items())
            )
        )


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
    ap.add_argument(
        "--trace",
        action="store_true",
        help="stamp each move's stages in the server and the client, and print where a "
        "move's time goes (slows the server a little)",
    )
    ap.add_argument(
        "--tracemalloc",
        type=float,
        metavar="SECONDS",
        help="trace the server's allocations and print, every SECONDS, the sites that grew "
        "most since the window opened (one server process; slows it: diagnostic only)",
    )
    args = ap.parse_args()
    if not (1 <= args.games <= 1000 and 1 <= args.seconds <= 600 and 1 <= args.workers <= 8):
        raise SystemExit("--games 1-1000, --seconds 1-600 and --workers 1-8 keep it bounded")
    if args.tracemalloc is not None and (args.workers != 1 or not args.tracemalloc >= 1):
        raise SystemExit("--tracemalloc traces one server process (--workers 1), every >= 1 s")
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
        env = dict(os.environ)
        trace_path = Path(tmp) / "trace"
        if args.trace:
            env.update(FRIENDS_TRACE=str(trace_path), FRIENDS_TRACE_PATH=str(Path(__file__).parent))
        mark = None
        if args.tracemalloc is not None:
            mark = Path(tmp) / "tracemalloc.open"
            env.update(
                FRIENDS_TRACEMALLOC=str(args.tracemalloc),
                FRIENDS_TRACEMALLOC_MARK=str(mark),
                FRIENDS_TRACE_PATH=str(Path(__file__).parent),
            )
        proc = subprocess.Popen(
            [args.python, "-c", SERVER, str(port), db, tables, args.sync, str(args.workers)],
            start_new_session=True,
            env=env,
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
                    run(
                        base,
                        args.games,
                        args.seconds,
                        args.size,
                        args.seed,
                        args.think,
                        proc.pid,
                        args.trace,
                        mark,
                    )
                )
            if args.trace:
                traced = read_traces(trace_path)
            elapsed = stats.window_s
            rss, peak = memory_mib(proc.pid)
            for child in children(proc.pid):
                r, p = memory_mib(child)
                rss, peak = rss + r, peak + p
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:  # a server that will not stop is stopped
                print("the server did not stop within 20 s of SIGTERM: killed")
                os.killpg(proc.pid, signal.SIGKILL)
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
        print(
            f"waiting for a processor while ready to run (the machine's other work): server "
            f"{stats.server_wait_s:.1f} s ({1000 * stats.server_wait_s / stats.moves:.2f} ms "
            f"a move), clients {stats.client_wait_s:.1f} s"
        )
    print(f"games finished (and rematched): {stats.games_finished}")
    if lat:
        print(
            f"latency send -> opponent sees it: p50 {percentile(lat, 0.5):.1f} ms, "
            f"p95 {percentile(lat, 0.95):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
            f"max {max(lat):.1f} ms"
        )
    if stats.think < 1.0:
        print(f"games with no state for the last 5 s of the window (stuck): {len(stats.stuck)}")
    for late, game, ply, at in sorted(stats.late, reverse=True)[:5]:
        print(
            f"late: game {game} ply {ply}, sent {at:.1f} s into the window, seen {late:.1f} s later"
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
    if args.trace:
        trace_report(stats, traced)


if __name__ == "__main__":
    main()
