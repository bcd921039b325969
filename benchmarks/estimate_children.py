"""What `solve --estimate`'s stand-in children cost the kernel against a tier's real ones: on
the largest tiers of a solved table, the processor time a position of `solve_one_tier` with
the real children (checked to give the stored codes back), with the same codes shuffled among
each child's positions, and with the estimate's stand-ins.

    python benchmarks/estimate_children.py --size 5 --tables DIR [--variant V] [--tiers 12]
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
from boardlab.core.tiers import TierGame
from boardlab.solver.api import open_table, require_game, ruleset_id
from boardlab.solver.estimate import stand_in_codes
from boardlab.solver.packsolve import solve_one_tier
from boardlab.solver.plan import make_plan


def per_position(game: TierGame, tier: int, kids: list[npt.NDArray[Any]]) -> float:
    """The least of two runs' processor time, in ns a position."""
    best = float("inf")
    for _ in range(2):
        t0 = time.thread_time()
        solve_one_tier(game, tier, kids)
        best = min(best, time.thread_time() - t0)
    return best / game.tier_size(tier) * 1e9


def shuffled(codes: npt.NDArray[np.uint16], rng: np.random.Generator) -> npt.NDArray[np.uint16]:
    out = codes.copy()
    where = out > 0  # positions only: an index that is no position stays one
    values = out[where]
    rng.shuffle(values)
    out[where] = values
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--variant", default="classic")
    p.add_argument("--tables", type=Path, required=True, help="tables folder (built)")
    p.add_argument("--tiers", type=int, default=12, help="how many of the largest tiers")
    args = p.parse_args()
    rules = make_rules("dodgem", args.variant, args.size)
    game = require_game(rules)
    table = open_table(rules, args.tables)
    plan = make_plan(game)
    level = {t: pack.level for pack in plan.packs for t in pack.tiers}
    tiers = sorted(level, key=game.tier_size)[-args.tiers :]
    rng = np.random.default_rng(1)

    def codes(t: int) -> npt.NDArray[np.uint16]:
        return table.pack(table.pack_of(t)).tier_codes(t)

    print(header(f"estimate's children, {ruleset_id(rules)}"))
    solve_one_tier(game, tiers[0], [codes(c) for c in game.child_tiers(tiers[0])])  # compiled
    print("level  positions   real  shuffled  stand-in (ns a position)")
    totals = np.zeros(3)
    for t in tiers:
        real = [codes(c) for c in game.child_tiers(t)]
        if not np.array_equal(solve_one_tier(game, t, real)[0], codes(t)):
            raise SystemExit(f"error: tier {game.tier_name(t)} solves to other codes than stored")
        fake = [stand_in_codes(game.tier_size(c), c) for c in game.child_tiers(t)]
        ns = [per_position(game, t, k) for k in (real, [shuffled(c, rng) for c in real], fake)]
        totals += np.array(ns) * game.tier_size(t)
        print(f"{level[t]:5}  {game.tier_size(t):9,}  {ns[0]:5.1f}  {ns[1]:8.1f}  {ns[2]:8.1f}")
    print(f"in all: shuffled {totals[1] / totals[0]:.2f}, stand-ins {totals[2] / totals[0]:.2f} "
          "times the real children")  # fmt: skip


if __name__ == "__main__":
    main()
