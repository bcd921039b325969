"""What the web server's main process keeps as it answers many requests.

Runs the app in this process (FastAPI's TestClient, no network), warms it up, then answers
`--requests` requests of normal play (a position's state, a level-2 computer move on 5×5
Dodgem, a shared game created and resigned) from many client addresses, and prints the
resident memory and the Python allocations (tracemalloc) that grew most between the end of the
warm-up and the end of the run, by the line that made them. Python objects that pile up show
here; growth of the resident memory without growth of the traced Python memory is the C
allocator keeping freed memory (arenas of the worker threads), not a leak of objects.

With `--every N` it also prints, every N requests, the resident memory and what Python's
object allocator holds (its arenas, 1 MiB each in CPython 3.10+): growth that levels off is
caches filling up (SQLAlchemy's compiled statements, the players' search tables); growth of
the arenas well beyond the traced allocations is their fragmentation.

Run: python benchmarks/web_memory.py [--requests 1000] [--top 12] [--every 0]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import sys
import tempfile
import tracemalloc
from pathlib import Path

from fastapi.testclient import TestClient

from boardlab.web import create_app


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def python_arenas_mb() -> float:
    """MiB held by CPython's object allocator (its arenas now), from its own statistics
    (which it leaves out while tracemalloc runs: nan then)."""
    read, write = os.pipe()
    saved = os.dup(2)
    try:
        os.dup2(write, 2)  # sys._debugmallocstats writes to the C stderr
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    found = re.search(rb"# arenas allocated current\s*=\s*([\d,]+)", b"".join(chunks))
    return int(found.group(1).replace(b",", b"")) if found else float("nan")


def play(app: object, requests: int, seed: int) -> None:
    rng = random.Random(seed)
    done = 0
    while done < requests:
        address = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        with TestClient(app, base_url="http://localhost", client=(address, 5000)) as c:  # type: ignore[arg-type]
            moves: list[str] = []
            for _ in range(10):
                state = c.post("/api/state", json={"size": 5, "moves": moves}).json()
                done += 1
                if state.get("result") or not state.get("legal_moves"):
                    break
                moves.append(rng.choice(state["legal_moves"]))
                out = c.post("/api/move", json={"size": 5, "moves": moves, "level": "2"})
                done += 1
                if out.status_code != 200 or out.json()["state"]["result"]:
                    break
                moves = out.json()["state"]["moves"]
            created = c.post("/api/friends", json={"size": 3}).json()
            auth = {"Authorization": f"Bearer {created['token']}"}
            c.post(f"/api/friends/{created['id']}/resign", headers=auth)
            done += 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--every", type=int, default=0, help="print the memory every N requests")
    args = ap.parse_args()
    if not (1 <= args.requests <= 100_000 and 0 <= args.every <= args.requests):
        raise SystemExit("--requests 1-100000 and --every 0 to --requests keep it bounded")
    with tempfile.TemporaryDirectory(prefix="boardlab-memory-") as tmp:
        app = create_app(tables=Path(tmp) / "tables")
        app.state.friends.configure(f"sqlite:///{Path(tmp) / 'f.sqlite3'}")
        play(app, 200, seed=1)  # warm-up: imports, kernels, pools
        gc.collect()
        if args.every:  # without tracemalloc: it costs memory of its own, and hides the arenas
            print(f"after the warm-up: resident {rss_mb():.0f} MB, "
                  f"Python arenas {python_arenas_mb():.0f} MB", flush=True)  # fmt: skip
            print(f"{'requests':>8}  {'resident':>9}  {'Python arenas':>13}")
            for done in range(args.every, args.requests + 1, args.every):
                play(app, args.every, seed=2 + done)
                gc.collect()
                print(f"{done:8d}  {rss_mb():6.0f} MB  {python_arenas_mb():10.0f} MB", flush=True)
            app.state.friends.close()
            return
        tracemalloc.start(1)
        rss0 = rss_mb()
        print(f"after the warm-up: resident {rss0:.0f} MB", flush=True)
        first = tracemalloc.take_snapshot()
        play(app, args.requests, seed=2)
        gc.collect()
        second = tracemalloc.take_snapshot()
        rss1 = rss_mb()
        traced = sum(s.size for s in second.statistics("filename")) / 2**20
        grown = second.compare_to(first, "traceback")
        print(f"{args.requests} requests: resident {rss0:.0f} -> {rss1:.0f} MB; "
              f"Python allocations traced at the end {traced:.1f} MB")  # fmt: skip
        print("largest growth by where it was allocated:")
        for stat in grown[: args.top]:
            if stat.size_diff <= 0:
                break
            frame = stat.traceback[-1]
            print(f"  {stat.size_diff / 1024:+9.1f} kB  {stat.count_diff:+7d} blocks  "
                  f"{frame.filename.rsplit('site-packages/', 1)[-1]}:{frame.lineno}")  # fmt: skip
        app.state.friends.close()


if __name__ == "__main__":
    main()
