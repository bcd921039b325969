"""The first Dot Dash computer move of a fresh server, with and without the start-up warm-up.

Each case runs in a fresh interpreter (kernels load per process): `cold` asks for a level-4
move at once; `warm` runs the warm-up `boardlab serve` starts, then asks. Prints seconds.

    python benchmarks/web_first_move.py
"""

from __future__ import annotations

import subprocess
import sys

CASE = """
import tempfile, time
from pathlib import Path
from boardlab.solver.store import TableStore
from boardlab.web import schemas as s
from boardlab.web.service import Service
from boardlab.web.warmup import warm_players
service = Service(TableStore(Path(tempfile.mkdtemp())))
t0 = time.perf_counter()
if {warm}:
    warm_players(service)
t1 = time.perf_counter()
service.computer_move(s.MoveRequest(game="dotdash", level="{level}", seed=1))
t2 = time.perf_counter()
print(f"{{t1 - t0:.2f}} {{t2 - t1:.2f}}")
"""


def main() -> None:
    print("level  case  warm-up s  first move s")
    for level in ("2", "4"):
        for warm in (False, True):
            code = CASE.format(warm=warm, level=level)
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            warm_s, move_s = out.stdout.split()
            print(f"{level:>5}  {'warm' if warm else 'cold':>4}  {warm_s:>9}  {move_s:>12}")


if __name__ == "__main__":
    main()
