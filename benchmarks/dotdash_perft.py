"""Dot Dash perft speed: leaves per second of the compiled move generator (goal ≥ 1,000,000).

Prints the machine, the commit, and for each position and depth the leaf count, the time,
leaves per second and plies played (make/unmake pairs) per second.
Run: python benchmarks/dotdash_perft.py [--depth 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import time

from boardlab.core import make_rules
from boardlab.games.dotdash.perft import perft
from boardlab.games.dotdash.rules import DotDashRules

# A middle-game position from a level-3 self-play game on 13×13 (blue to move).
MIDGAME = "13/13/13/13/13/13/4BBBB5/2RRR3B4/4R4B3/13/2R10/1R11/R12 b"


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=4)
    args = ap.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; commit {commit()}"
    )
    cases = [
        ("standard", "start"),
        ("standard", MIDGAME),
        ("frozen", MIDGAME),
        ("capture", MIDGAME),
    ]
    for variant, text in cases:
        rules = make_rules("dotdash", variant, 13)
        assert isinstance(rules, DotDashRules)
        pos = rules.start() if text == "start" else rules.parse_position(text)
        perft(rules, pos, 1)  # compile or load the kernel
        for depth in range(2, args.depth + 1):
            t0 = time.perf_counter()
            leaves = perft(rules, pos, depth)
            secs = time.perf_counter() - t0
            plies = sum(perft(rules, pos, d) for d in range(1, depth))  # moves made and unmade
            print(
                f"{variant:<8} {'start' if text == 'start' else 'midgame':<8} depth {depth}: "
                f"{leaves:>12,} leaves {secs:8.3f} s  {leaves / secs:>14,.0f} leaves/s  "
                f"{plies / secs:>12,.0f} plies played/s"
            )


if __name__ == "__main__":
    main()
