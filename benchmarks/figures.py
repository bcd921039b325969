"""The published figures: for each ruleset and size, the start's value and remoteness, counts
(win / loss / draw for the side to move) over all positions and over the positions reachable
from the start, and the longest win, as Markdown table rows, with the seconds each took.

    python benchmarks/figures.py [--variants piecepack blocked-loses misere classic]
                                 [--sizes 3 4 5] [--tables DIR]

Tables are built in DIR (a temporary folder by default) when missing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import ensure_table
from boardlab.solver.stats import table_stats


def wld(counts: dict[str, int]) -> str:
    return f"{counts['positions']:,} ({counts['win']:,} / {counts['loss']:,} / {counts['draw']:,})"


def row(variant: str, size: int, tables: Path) -> str:
    rules = rules_for(variant, size)
    t0 = time.perf_counter()
    table = ensure_table(rules, tables)
    built = time.perf_counter() - t0
    st = table_stats(rules, table)
    counted = time.perf_counter() - t0 - built
    start = st.start
    value = str(start["value"])
    if start["remoteness"] is not None:
        value += f" in {start['remoteness']}"
    assert st.reachable is not None
    return (
        f"| {size}×{size} {variant} | {value} | {wld(st.all)} | {wld(st.reachable)} | "
        f"{st.max_remoteness} | <!-- solve {built:.1f} s, stats {counted:.1f} s -->"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--variants", nargs="+", default=["piecepack", "blocked-loses", "misere", "classic"]
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--tables", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tables = args.tables or Path(tmp)
        print(
            "| board | start (side to move) | all positions (win / loss / draw) | reachable "
            "from the start (win / loss / draw) | longest win or loss (plies) |"
        )
        print("| --- | --- | --- | --- | --- |")
        for variant in args.variants:
            for size in args.sizes:
                print(row(variant, size, tables), flush=True)


if __name__ == "__main__":
    main()
