"""What the web server's main process keeps as it answers many requests.

Starts `boardlab serve` on loopback (and, with `--src DIR`, a second server from another
source tree, e.g. an older checkout, on the next port, both at once) and sends every request
of normal play to each: a position's state, a level-2 computer move on 5×5 Dodgem, a shared
game created and resigned, and the page of a shared game that does not exist (a new id every
time). Every simulated client connects from its own loopback address (127.x.y.z, a new one
for each game), as clients on a network would. Prints each server's main-process resident
memory (RSS) at its start, after the warm-up (`--warm-up` requests), every `--every`
requests and at the end.

`--trace` instead runs the app in this process (one lifespan, FastAPI's TestClient) under
tracemalloc and prints the Python allocations that grew most between the end of the warm-up
and the end of the run, by where they were made: Python objects that pile up show there;
growth of the resident memory without growth of the traced memory is the C allocator
keeping freed memory, not a leak of objects.

Run: python benchmarks/web_memory.py [--requests 25000] [--every 5000] [--src DIR]
     python benchmarks/web_memory.py --trace [--requests 2000] [--top 12]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from _machine import header

HOST = "127.0.0.1"  # loopback only, never anything else
WARM_UP = 500


def rss_mb(pid: int | None = None) -> float:
    """Resident memory of process `pid` (None: this one), in MB (Linux /proc)."""
    with open(f"/proc/{pid or 'self'}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


Send = Callable[..., Any]  # (method, url, **kw) -> response with .status_code and .json()


def one_game(send: Send, rng: random.Random) -> int:
    """One client's visit: up to 10 moves against level 2, a shared game created and
    resigned, one unknown shared game looked up; the number of requests sent."""
    done = 0
    moves: list[str] = []
    for _ in range(10):
        state = send("POST", "/api/state", json={"size": 5, "moves": moves}).json()
        done += 1
        if state.get("result") or not state.get("legal_moves"):
            break
        moves.append(rng.choice(state["legal_moves"]))
        out = send("POST", "/api/move", json={"size": 5, "moves": moves, "level": "2"})
        done += 1
        if out.status_code != 200 or out.json()["state"]["result"]:
            break
        moves = out.json()["state"]["moves"]
    created = send("POST", "/api/friends", json={"size": 3}).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    send("POST", f"/api/friends/{created['id']}/resign", headers=auth)
    send("GET", f"/api/friends/{rng.getrandbits(64):016x}")
    return done + 3


def start_server(port: int, folder: Path, src: Path | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["BOARDLAB_DATABASE"] = f"sqlite:///{folder / 'friends.sqlite3'}"
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-m", "boardlab", "serve", "--host", HOST, "--port", str(port),
           "--tables", str(folder / "tables")]  # fmt: skip
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://{HOST}:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server on port {port} did not start (log: {folder / 'server.log'})")


def drive(servers: list[tuple[str, int]], requests: int, every: int, seed: int) -> None:
    """Send the same games to every server (one after the other, request by request), from
    a new loopback address per game; print each server's RSS at the checkpoints."""
    rng = random.Random(seed)
    names = [name for name, _ in servers]
    pids = [pid for _, pid in servers]
    ports = [int(name.rsplit(":", 1)[1]) for name in names]

    t0 = time.monotonic()

    def line(label: str) -> None:
        cells = "  ".join(f"{rss_mb(pid):11.0f} MB" for pid in pids)
        print(f"{label:>16}  {cells}  {time.monotonic() - t0:6.0f} s", flush=True)

    print(f"{'requests':>16}  " + "  ".join(f"{n:>14}" for n in names) + "  elapsed")
    line("start")
    done, next_mark, warm = 0, WARM_UP, False
    errors = 0
    while done < requests + WARM_UP:
        address = f"127.{rng.randrange(1, 255)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        clients = [
            httpx.Client(
                base_url=f"http://{HOST}:{port}",
                timeout=60,
                transport=httpx.HTTPTransport(local_address=address),
            )
            for port in ports
        ]
        try:
            game_seed = rng.getrandbits(32)

            def send(
                method: str, url: str, clients: list[httpx.Client] = clients, **kw: Any
            ) -> httpx.Response:
                nonlocal errors
                answers = [c.request(method, url, **kw) for c in clients]
                errors += sum(a.status_code >= 500 for a in answers)
                return answers[0]  # the first server's answers lead the game

            done += one_game(send, random.Random(game_seed))
        finally:
            for c in clients:
                c.close()
        if not warm and done >= WARM_UP:
            warm = True
            line("after warm-up")
            next_mark = WARM_UP + every
        elif warm and every and done >= next_mark:
            line(f"{done - WARM_UP}")
            next_mark += every
    line(f"end ({done - WARM_UP})")
    print(f"answers 5xx: {errors}")


def trace(requests: int, top: int) -> None:
    """The app in this process under tracemalloc: what grew, by where it was allocated."""
    from fastapi.testclient import TestClient

    from boardlab.web import create_app

    with tempfile.TemporaryDirectory(prefix="boardlab-memory-") as tmp:
        app = create_app(tables=Path(tmp) / "tables")
        app.state.friends.configure(f"sqlite:///{Path(tmp) / 'f.sqlite3'}")
        with TestClient(app, base_url="http://localhost") as client:
            transport: Any = client._transport  # its client address is set per game

            def run(n: int, seed: int) -> None:
                rng, done = random.Random(seed), 0
                while done < n:
                    transport.client = (f"10.{rng.randrange(256)}.{rng.randrange(256)}."
                                        f"{rng.randrange(1, 255)}", 5000)  # fmt: skip
                    done += one_game(client.request, rng)

            run(WARM_UP, seed=1)
            gc.collect()
            tracemalloc.start(1)
            rss0 = rss_mb()
            first = tracemalloc.take_snapshot()
            run(requests, seed=2)
            gc.collect()
            second = tracemalloc.take_snapshot()
            rss1 = rss_mb()
        traced = sum(s.size for s in second.statistics("filename")) / 2**20
        print(f"{requests} requests after the warm-up: resident {rss0:.0f} -> {rss1:.0f} MB; "
              f"Python allocations traced at the end {traced:.1f} MB")  # fmt: skip
        print("largest growth by where it was allocated:")
        for stat in second.compare_to(first, "traceback")[:top]:
            if stat.size_diff <= 0:
                break
            frame = stat.traceback[-1]
            print(f"  {stat.size_diff / 1024:+9.1f} kB  {stat.count_diff:+7d} blocks  "
                  f"{frame.filename.rsplit('site-packages/', 1)[-1]}:{frame.lineno}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=25_000, help="after the warm-up")
    ap.add_argument("--every", type=int, default=5_000, help="print the RSS every N requests")
    ap.add_argument("--port", type=int, default=8171, help="loopback port (and the next one)")
    ap.add_argument("--src", type=Path, default=None, help="a second server from this src dir")
    ap.add_argument("--trace", action="store_true", help="in this process, under tracemalloc")
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()
    args.every = min(args.every, args.requests)
    if not (1 <= args.requests <= 200_000 and args.every >= 0):
        raise SystemExit("--requests 1-200000 and --every 0 to --requests keep it bounded")
    print(header("web server memory"))
    if args.trace:
        trace(args.requests, args.top)
        return
    with tempfile.TemporaryDirectory(prefix="boardlab-memory-") as tmp:
        trees = [("this checkout", None)]
        if args.src is not None:
            trees.append((str(args.src), args.src.resolve()))
        procs: list[subprocess.Popen[bytes]] = []
        servers: list[tuple[str, int]] = []
        try:
            for k, (label, src) in enumerate(trees):
                folder = Path(tmp) / str(k)
                folder.mkdir()
                procs.append(start_server(args.port + k, folder, src))
                servers.append((f"{HOST}:{args.port + k}", procs[-1].pid))
                print(f"server {HOST}:{args.port + k}: {label}")
            drive(servers, args.requests, args.every, seed=2)
            for k, _ in enumerate(trees):
                log = (Path(tmp) / str(k) / "server.log").read_bytes()
                print(f"server {k + 1} log: {len(log):,} bytes, "
                      f"{log.count(b'Traceback')} tracebacks")  # fmt: skip
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


if __name__ == "__main__":
    main()
