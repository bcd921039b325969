"""Probe rate, per-move analysis time and table sizes on disk.

Uses the tables in --tables DIR (default: the usual tables dir); 3×3 and 4×4 are built if
missing, 5×5 is measured only if it has been built (`boardlab solve --size 5`).

    python benchmarks/probe.py [--tables DIR] [--count 50000]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from boardlab.core.errors import MissingTableError
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver import analyse, ensure_table, open_table
from boardlab.solver.api import Tablebase, table_path


def random_positions(table: Tablebase, count: int, seed: int = 1) -> list[object]:
    rng = random.Random(seed)
    out: list[object] = []
    while len(out) < count:
        p = table.scheme.position(rng.randrange(table.scheme.total))
        if p is not None:
            out.append(p)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=Path, default=None)
    ap.add_argument("--count", type=int, default=50000)
    args = ap.parse_args()
    for size in (3, 4, 5):
        rules = rules_for("classic", size)
        try:
            tb = open_table(rules, args.tables) if size == 5 else None
        except MissingTableError:
            print(f"{size}x{size}: no table (boardlab solve --size 5), skipped")
            continue
        if tb is None:
            tb = ensure_table(rules, args.tables)
        path = table_path(rules, args.tables)
        positions = random_positions(tb, args.count)
        t0 = time.perf_counter()
        for p in positions:
            tb.probe(p)  # type: ignore[arg-type]
        cold = len(positions) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        for p in positions:
            tb.probe(p)  # type: ignore[arg-type]
        warm = len(positions) / (time.perf_counter() - t0)
        # per-move analysis along games that follow the first best move
        times = []
        rng = random.Random(2)
        for _ in range(20):
            pos = rules.start()
            for _ply in range(60):
                if rules.outcome(pos) is not None:
                    break
                t0 = time.perf_counter()
                moves = analyse(rules, tb, pos)
                times.append(time.perf_counter() - t0)
                pos = rules.play(pos, rng.choice(moves).move)
        text = "\n".join(str(p) for p in positions[:20000]) + "\n"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "boardlab", "probe", "--size", str(size)]
            + (["--tables", str(args.tables)] if args.tables else []),
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        cli = 20000 / (time.perf_counter() - t0)
        print(
            f"{size}x{size}: file {path.stat().st_size:,} bytes; random probes/s cold "
            f"{cold:,.0f}, warm {warm:,.0f}; CLI probe {cli:,.0f} lines/s (with start-up); "
            f"analyse mean {1000 * sum(times) / len(times):.2f} ms, max "
            f"{1000 * max(times):.2f} ms per position"
        )


if __name__ == "__main__":
    main()
