"""What the web server's main process keeps as it answers many requests.

Runs the app in this process (FastAPI's TestClient, no network), warms it up, then answers
`--requests` requests of normal play (a position's state, a level-2 computer move on 5×5
Dodgem, a shared game created and resigned) from many client addresses, and prints the
resident memory and the Python allocations (tracemalloc) that grew most between the end of the
warm-up and the end of the run, by the line that made them. Python objects that pile up show
here; growth of the resident memory without growth of the traced Python memory is the C
allocator keeping freed memory (arenas of the worker threads), not a leak of objects.

Run: python benchmarks/web_memory.py [--requests 1000] [--top 12]
"""

from __future__ import annotations

import argparse
import gc
import random
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
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="boardlab-memory-") as tmp:
        app = create_app(tables=Path(tmp) / "tables")
        app.state.friends.configure(f"sqlite:///{Path(tmp) / 'f.sqlite3'}")
        play(app, 200, seed=1)  # warm-up: imports, kernels, pools
        gc.collect()
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
