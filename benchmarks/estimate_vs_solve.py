"""How close `solve --estimate` comes to a real solve: the estimate of a board, then the board
solved (warm: a first solve loads the compiled code) on one worker and on two, each into a new
temporary folder, side by side. Processor time is what the estimate predicts for one core;
wall time on two workers what it predicts for two cores.

    python benchmarks/estimate_vs_solve.py [--size 5] [--variant classic] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _machine import header

from boardlab.core.registry import make_rules
from boardlab.solver.api import build_table, require_game, ruleset_id
from boardlab.solver.estimate import estimate


def solve(rules: object, workers: int) -> tuple[float, float]:
    """Wall and processor seconds of one solve into a new folder."""
    with tempfile.TemporaryDirectory() as tmp:
        w0, c0 = time.perf_counter(), time.process_time()
        build_table(rules, Path(tmp), workers)
        return time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--variant", default="classic")
    p.add_argument("--runs", type=int, default=3, help="solves of each kind (the median)")
    args = p.parse_args()
    rules = make_rules("dodgem", args.variant, args.size)
    print(header(f"estimate against a solve, {ruleset_id(rules)}"))
    est = estimate(require_game(rules))
    solve(rules, 1)  # the compiled code loaded, the page cache warm
    one = [solve(rules, 1) for _ in range(args.runs)]
    two = [solve(rules, 2) for _ in range(args.runs)]
    cpu1 = statistics.median(c for _, c in one)
    wall2 = statistics.median(w for w, _ in two)
    rows = [
        ("1 core, processor s", est.one_core_seconds, cpu1),
        ("2 cores, wall s", est.seconds_on(2), wall2),
    ]
    print("                       estimate  solve (median)  estimate / solve")
    for name, guess, real in rows:
        print(f"{name:20} {guess:10.2f} {real:15.2f} {guess / real:17.2f}")


if __name__ == "__main__":
    main()
