"""Solve time, peak memory and table size for Dodgem 3×3, 4×4 and 5×5 (classic rules).

Each run is a fresh process building into a temporary directory. "cold" uses an empty numba
cache (compilation included); "warm" reuses the cache the cold run filled. Peak memory is the
largest resident set of the solving process plus that of its largest worker.

    python benchmarks/solve.py [--sizes 3 4 5] [--jobs 2] [--variant classic]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import build_table
variant, size, jobs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
marks = {}
t0 = time.perf_counter()
def slices(done, total, positions):
    if done == total:
        marks["solved"] = time.perf_counter() - t0
path = build_table(rules_for(variant, size), out, jobs=jobs, on_slices=slices)
total = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": total, "solve_seconds": marks.get("solved", total),
                  "peak_mib": (me + kids) / 1024, "bytes": path.stat().st_size}))
"""


def run(variant: str, size: int, jobs: int, cache: str) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    with tempfile.TemporaryDirectory() as out:
        res = subprocess.run(
            [sys.executable, "-c", CHILD, variant, str(size), str(jobs), out],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    data: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variant", default="classic")
    args = ap.parse_args()
    print(
        f"{'board':>6} {'run':>5} {'total s':>8} {'solve s':>8} {'peak MiB':>9} {'file bytes':>12}"
    )
    with tempfile.TemporaryDirectory() as cache:
        for size in args.sizes:
            for label in ("cold", "warm"):
                if label == "cold":
                    for entry in os.scandir(cache):
                        if entry.is_dir():
                            import shutil

                            shutil.rmtree(entry.path)
                        else:
                            os.unlink(entry.path)
                r = run(args.variant, size, args.jobs if size >= 5 else 1, cache)
                print(
                    f"{size}x{size:<4} {label:>5} {r['seconds']:8.2f} {r['solve_seconds']:8.2f} "
                    f"{r['peak_mib']:9.0f} {int(r['bytes']):12,}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
