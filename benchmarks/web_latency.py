"""Web API latency: a level-4 computer move on 5×5 (p50, p95), then 50 concurrent games.

Starts the real app on uvicorn (a separate process, loopback, free port) and talks HTTP to it.
Run: python benchmarks/web_latency.py [--moves 12] [--games 50] [--plies 8]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "boardlab.web:create_app",
           "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def random_prefix(client: httpx.Client, size: int, plies: int, rng: random.Random) -> list[str]:
    moves: list[str] = []
    for _ in range(plies):
        state = client.post("/api/state", json={"size": size, "moves": moves}).json()
        if state["result"] or not state["legal_moves"]:
            break
        moves.append(rng.choice(state["legal_moves"]))
    return moves


def level4_latency(base: str, count: int) -> list[float]:
    rng = random.Random(1)
    times = []
    with httpx.Client(base_url=base, timeout=120) as client:
        client.post("/api/move", json={"size": 5, "level": "4"})  # warm-up (compiles kernels)
        for i in range(count):
            moves = random_prefix(client, 5, rng.randrange(0, 12), rng)
            t0 = time.perf_counter()
            r = client.post("/api/move", json={"size": 5, "moves": moves, "level": "4", "seed": i})
            times.append(time.perf_counter() - t0)
            r.raise_for_status()
    return times


def one_game(base: str, seed: int, plies: int, level: str) -> dict[str, Any]:
    """One client: a few computer moves on 5×5, each a bounded request, with timings."""
    times, errors = [], 0
    moves: list[str] = []
    with httpx.Client(base_url=base, timeout=120) as client:
        for _ in range(plies):
            t0 = time.perf_counter()
            r = client.post(
                "/api/move", json={"size": 5, "moves": moves, "level": level, "seed": seed}
            )
            times.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors += 1
                break
            data = r.json()
            moves = data["state"]["moves"]
            if data["state"]["result"]:
                break
    return {"times": times, "errors": errors}


def health_while(base: str, stop_after: float) -> list[float]:
    times = []
    end = time.monotonic() + stop_after
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < end:
            t0 = time.perf_counter()
            client.get("/api/health").raise_for_status()
            times.append(time.perf_counter() - t0)
            time.sleep(0.05)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--moves", type=int, default=12, help="level-4 moves to time")
    ap.add_argument("--games", type=int, default=50, help="concurrent games")
    ap.add_argument("--plies", type=int, default=8, help="computer moves per concurrent game")
    ap.add_argument("--level", default="2", help="level used in the concurrent games")
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()  # fmt: skip
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
          f"python={platform.python_version()} commit={commit}")  # fmt: skip
    proc = start_server(port)
    try:
        t = level4_latency(base, args.moves)
        p50, p95 = statistics.median(t) * 1000, percentile(t, 0.95) * 1000
        print(f"level-4 move on 5x5 ({len(t)} positions): p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
              f"max {max(t) * 1000:.0f} ms")  # fmt: skip
        t0 = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.games + 1) as pool:
            health = pool.submit(health_while, base, 5.0)
            games = list(pool.map(lambda i: one_game(base, i, args.plies, args.level),
                                  range(args.games)))  # fmt: skip
            h = health.result()
        wall = time.perf_counter() - t0
        times = [x for g in games for x in g["times"]]
        errors = sum(g["errors"] for g in games)
        print(f"{args.games} concurrent games, level {args.level}, {len(times)} move requests in "
              f"{wall:.1f} s ({len(times) / wall:.1f} req/s); errors {errors}")  # fmt: skip
        print(f"  move latency under load: p50 {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {percentile(times, 0.95) * 1000:.0f} ms")  # fmt: skip
        print(f"  /api/health meanwhile: p50 {statistics.median(h) * 1000:.1f} ms, "
              f"p95 {percentile(h, 0.95) * 1000:.1f} ms, max {max(h) * 1000:.1f} ms")  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
