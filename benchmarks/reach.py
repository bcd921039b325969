"""Time of the reachability walk of `boardlab stats` (positions reachable from the start).

The table is built first into a temporary folder, or read from `--tables DIR` (as `boardlab
solve --tables DIR` builds it). The walk then runs `--repeat` times for each thread count,
after one untimed walk that loads the compiled kernel; each line gives the fastest and the
slowest wall time, the processor time of the fastest, and the peak resident memory of the
process so far. `--folder` keeps the marks in a scratch folder, as on 6×6, instead of in
memory.

    python benchmarks/reach.py [--size 5] [--variant classic] [--threads 1 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import build_table, open_table
from boardlab.solver.stats import reachable_counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--tables", type=Path, default=None, help="a folder the table is in")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--folder", action="store_true", help="marks in a scratch folder")
    args = ap.parse_args()
    rules = rules_for(args.variant, args.size)
    print(header(f"reachability {args.variant} {args.size}×{args.size}"))
    with tempfile.TemporaryDirectory() as tmp:
        tables = args.tables
        if tables is None or not (tables / rules.ruleset_id()).exists():
            tables = tables or Path(tmp) / "tables"
            t0 = time.perf_counter()
            build_table(rules, tables, 1)
            print(f"table built in {time.perf_counter() - t0:.1f} s")
        table = open_table(rules, tables)
        start = rules.start()
        scratch = Path(tmp) / "marks" if args.folder else None
        reached = int(reachable_counts(table, start, folder=scratch).sum())
        print(f"{reached:,} positions reachable; marks {'in a folder' if scratch else 'in memory'}")
        print(f"{'threads':>7} {'fastest s':>10} {'slowest s':>10} {'cpu s':>7} {'peak MiB':>9}")
        for threads in args.threads:
            runs = []
            for _ in range(args.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                got = int(reachable_counts(table, start, threads=threads, folder=scratch).sum())
                runs.append((time.perf_counter() - t0, time.process_time() - c0))
                assert got == reached
            fast, cpu = min(runs)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{threads:>7} {fast:10.2f} {max(w for w, _ in runs):10.2f} {cpu:7.2f} {peak:9.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
