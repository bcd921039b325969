"""The estimate's model of a solve: children read through a cache, levels shared by cores."""

from __future__ import annotations

from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import require_game
from boardlab.solver.estimate import Estimate, child_reads
from boardlab.solver.plan import make_plan


def test_children_are_read_once_in_a_cache_that_holds_them_all_else_again() -> None:
    game = require_game(rules_for("classic", 4))
    plan = make_plan(game)
    order = [t for p in plan.packs for t in p.tiers]
    kids = {c for t in order for c in game.child_tiers(t)}
    once = child_reads(game, plan, 1 << 40)
    assert len(once) == len(plan.levels) and once[0] == 0  # the last level has no children
    assert sum(once) == sum(game.tier_size(c) for c in kids)
    every = child_reads(game, plan, 0)  # a cache that keeps only the tier last read
    assert (
        sum(once) < sum(every) <= sum(game.tier_size(c) for t in order for c in game.child_tiers(t))
    )


def test_cores_share_solving_but_not_reading() -> None:
    est = Estimate(tiers=2, positions=10, levels=2, sampled_tiers=1, sampled_positions=1,
                   sample_seconds=0.0)  # fmt: skip
    est.level_seconds = [10.0, 20.0]
    est.level_read_seconds = [2.0, 0.0]
    est.level_floor_seconds = [1.0, 15.0]
    assert est.seconds_on(1) == 30.0
    # level 0: 8 s of solving on two cores and its 2 s of reading; level 1: its largest tier
    assert est.seconds_on(2) == 4.0 + 2.0 + 15.0
