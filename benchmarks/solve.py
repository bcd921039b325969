"""Solve time, peak memory and table size of the tier solver (Dodgem, classic by default).

Each board is solved in a fresh process into a temporary folder twice: "cold" is the first
solve of the process (loading the compiled kernel from numba's disk cache, or compiling it
on the first run after an install), "warm" is the second solve in the
same process into a new folder ("cpu": its processor time, which is what a busy shared machine
leaves comparable). Peak memory is the largest resident set of the process.

    python benchmarks/solve.py [--sizes 3 4 5] [--variant classic] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, tempfile, time
from pathlib import Path
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import build_table, open_table
variant, size, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = {}
for label in ("cold", "warm"):
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        c0 = time.process_time()
        build_table(rules_for(variant, size), Path(tmp), workers)
        seconds = time.perf_counter() - t0
        out[label + "_cpu"] = time.process_time() - c0
        header = open_table(rules_for(variant, size), Path(tmp)).header
        out[label] = seconds
out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["bytes"] = header["bytes"]
out["positions"] = header["positions_indexed"]
print(json.dumps(out))
"""


def run(variant: str, size: int, workers: int) -> dict[str, float]:
    res = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(size), str(workers)],
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, float] = json.loads(res.stdout.strip().splitlines()[-1])
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    print(
        f"{'board':>6} {'cold s':>8} {'warm s':>8} {'warm cpu':>9} {'M pos/s':>8} {'peak MiB':>9} "
        f"{'disk bytes':>12} {'stored positions':>17}"
    )
    for size in args.sizes:
        r = run(args.variant, size, args.workers)
        print(
            f"{size}x{size:<4} {r['cold']:8.2f} {r['warm']:8.2f} {r['warm_cpu']:9.2f} "
            f"{r['positions'] / r['warm'] / 1e6:8.2f} {r['peak_mib']:9.0f} "
            f"{int(r['bytes']):12,} {int(r['positions']):17,}",
            flush=True,
        )


if __name__ == "__main__":
    main()
