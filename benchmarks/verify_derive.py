"""What the verifier's compiled rules cost: on the largest tiers of a solved table, the processor
time an entry of `derive` (every stored entry of the tier worked out again from its children),
checked to give the stored codes back. The children are read once beforehand, so the figure is
the rules alone, not the reading of packs.

    python benchmarks/verify_derive.py --size 6 --tables DIR [--variant V] [--tiers 4]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from _machine import header

from boardlab.core.registry import make_rules
from boardlab.solver.api import open_table, require_game, ruleset_id
from boardlab.solver.plan import make_plan
from boardlab.solver.verify_moves import checker_of


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--variant", default="classic")
    p.add_argument("--tables", type=Path, required=True, help="tables folder (built)")
    p.add_argument("--tiers", type=int, default=4, help="how many of the largest tiers")
    args = p.parse_args()
    rules = make_rules("dodgem", args.variant, args.size)
    game = require_game(rules)
    checker = checker_of(rules, game)
    table = open_table(rules, args.tables)
    plan = make_plan(game)
    level = {t: pack.level for pack in plan.packs for t in pack.tiers}
    tiers = sorted(level, key=game.tier_size)[-args.tiers :]

    def codes(t: int) -> npt.NDArray[np.uint16]:
        return table.pack(table.pack_of(t)).tier_codes(t)

    print(header(f"verifier's rules, {ruleset_id(rules)}, checker {checker.name}"))
    print("level      entries  ns an entry")
    total = 0.0
    entries = 0
    for t in tiers:
        own = codes(t)
        kids: list[Any] = [codes(c) for c in checker.child_tiers(t)]
        best = float("inf")
        for _ in range(2):  # the first run also loads the compiled rules
            t0 = time.thread_time()
            derived = checker.derive(t, own, kids)
            best = min(best, time.thread_time() - t0)
        if not np.array_equal(derived, own):
            raise SystemExit(f"error: tier {game.tier_name(t)} derives other codes than stored")
        total += best
        entries += len(own)
        print(f"{level[t]:5}  {len(own):11,}  {best / len(own) * 1e9:11.1f}")
    print(f"in all: {total / entries * 1e9:.1f} ns an entry over {entries:,} entries")


if __name__ == "__main__":
    main()
