"""Whole-process time of `boardlab verify` beside `boardlab solve` on the same table.

Solves the board once into a temporary folder (not timed), then runs, in turn, `boardlab
verify --fresh` (every pack checked again, the record ignored) and `boardlab solve --force`
(the table rebuilt in the same folder) `--repeat` times each, both with `--workers`. Prints
the median wall time and processor time (user + system of the process and its children) of
each, and their ratios: the verification is meant to cost no more than 1.5 times the solve.

    python benchmarks/verify_vs_solve.py [--size 5] [--variant classic] [--workers 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import header


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, processor seconds) of a command run to its end; it must succeed."""
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(header(f"verify vs solve, {args.variant} {args.size}×{args.size}"))
    base = [sys.executable, "-m", "boardlab"]
    board = ["--variant", args.variant, "--size", str(args.size), "--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as tmp:
        where = ["--tables", tmp]
        subprocess.run([*base, "solve", *board, *where], check=True, capture_output=True)
        runs: dict[str, list[tuple[float, float]]] = {"solve": [], "verify": []}
        for _ in range(args.repeat):
            runs["verify"].append(timed([*base, "verify", *board, *where, "--fresh"]))
            runs["solve"].append(timed([*base, "solve", *board, *where, "--force"]))
    med = {
        name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
        for name, r in runs.items()
    }
    print(f"{'command':>8} {'wall s':>8} {'cpu s':>8}   (medians of {args.repeat})")
    for name, (wall, cpu) in med.items():
        print(f"{name:>8} {wall:8.1f} {cpu:8.1f}")
    print(
        f"verify / solve: wall {med['verify'][0] / med['solve'][0]:.2f}, "
        f"cpu {med['verify'][1] / med['solve'][1]:.2f}"
    )


if __name__ == "__main__":
    main()
