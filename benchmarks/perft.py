"""Perft speed: leaf nodes per second for each Dodgem size and variant.

Goal: at least 1,000,000 leaves per second on 5×5. Run: python benchmarks/perft.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.core import make_rules
from boardlab.games.dodgem.perft import perft

CASES = [
    ("classic", 3, 14),
    ("classic", 4, 12),
    ("classic", 5, 10),
    ("classic", 6, 8),
    ("classic", 8, 7),
    ("piecepack", 6, 8),
]


def main() -> None:
    print(header("Dodgem perft"))
    for variant, size, depth in CASES:
        rules = make_rules("dodgem", variant, size)
        perft(rules, rules.start(), 1)  # compile or load the kernel first
        t0 = time.perf_counter()
        leaves = perft(rules, rules.start(), depth)
        seconds = time.perf_counter() - t0
        print(
            f"{variant:10s} {size}x{size} depth {depth:2d}: {leaves:>14,} leaves "
            f"in {seconds:6.2f} s = {leaves / seconds:>13,.0f} leaves/s"
        )


if __name__ == "__main__":
    main()
