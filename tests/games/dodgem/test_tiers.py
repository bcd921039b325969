"""The tier solver against the old slice solver and a slow reference, and the Dodgem adapter."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.outcome import Value
from boardlab.core.tiers import TierGame
from boardlab.games.dodgem.rules import DodgemRules, rules_for
from boardlab.games.dodgem.tiers import DodgemTiers, from_spec, tiers_for
from boardlab.solver.api import decode
from boardlab.solver.engine import make_plan, solve_in_memory
from tests.solver import reference
from tests.solver.legacy.build import solve_in_memory as legacy_solve
from tests.solver.legacy.index import geometry_rules, scheme_for


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("variant", ["classic", "blocked-loses", "misere"])
def test_every_position_agrees_with_the_old_solver(variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    game = DodgemTiers(rules)
    new = solve_in_memory(game)
    old = legacy_solve(rules)
    sch = scheme_for(geometry_rules(rules))
    k = sch.num_keys
    assert len(new) == k * (k + 1) // 2
    for tier, codes in new.items():
        a, b = divmod(tier, k)
        lo = int(sch.slice_offset[a * k + b])
        assert np.array_equal(codes, old[lo : lo + len(codes)]), game.tier_name(tier)


def _check_against_reference(rules: DodgemRules) -> None:
    game = DodgemTiers(rules)
    codes = solve_in_memory(game)
    want = reference.solve(rules)
    for pos, result in want.items():
        tier, index = game.locate(pos)
        assert decode(int(codes[tier][index])) == result, str(pos)


@pytest.mark.parametrize(
    "rules",
    [
        rules_for("piecepack", 3),
        DodgemRules(size=3, geometry="piecepack", blocked="wins"),
        DodgemRules(size=3, geometry="classic", blocked="passes", goal="misere"),
    ],
    ids=str,
)
def test_3x3_matches_the_reference(rules: DodgemRules) -> None:
    _check_against_reference(rules)


@pytest.mark.slow
def test_piecepack_4x4_matches_the_reference() -> None:
    _check_against_reference(rules_for("piecepack", 4))


@pytest.mark.parametrize("variant", ["classic", "piecepack"])
def test_symmetry_changes_nothing(variant: str) -> None:
    rules = rules_for(variant, 4)
    sym, full = DodgemTiers(rules), DodgemTiers(rules, symmetric=False)
    a, b = solve_in_memory(sym), solve_in_memory(full)
    assert len(b) > len(a)
    rng = random.Random(4)
    for tier in rng.sample(sorted(b), 60):
        for index in rng.sample(range(full.tier_size(tier)), min(20, full.tier_size(tier))):
            pos = full.position(tier, index)
            if pos is None:
                continue
            t2, i2 = sym.locate(pos)
            assert b[tier][index] == a[t2][i2], str(pos)


def test_rank_unrank_round_trip() -> None:
    for variant in ("classic", "piecepack"):
        game = DodgemTiers(rules_for(variant, 4))
        rng = random.Random(1)
        for tier in rng.sample(list(game.tiers()), 40):
            for index in rng.sample(range(game.tier_size(tier)), min(10, game.tier_size(tier))):
                pos = game.position(tier, index)
                if pos is not None:
                    assert game.locate(pos) == (tier, index)


def test_children_come_first_and_forward_moves_leave_the_tier() -> None:
    game = DodgemTiers(rules_for("piecepack", 4))
    plan = make_plan(game)
    level = {t: p.level for p in plan.packs for t in p.tiers}
    assert set(level) == set(game.tiers())
    for t in game.tiers():
        for c in game.child_tiers(t):
            assert level[c] < level[t]


def test_adapter_is_declared_and_rebuilt_from_its_spec() -> None:
    from boardlab.core.registry import get_game

    rules = rules_for("piecepack", 5)
    info = get_game("dodgem")
    assert info.solver_adapter is not None
    game = info.solver_adapter(rules)
    assert isinstance(game, TierGame)
    assert from_spec(game.spec()).spec() == game.spec()
    assert tiers_for(rules_for("classic", 7)) is None
    assert "--variant piecepack --size 5" in game.rebuild_command


def test_known_start_values() -> None:
    game = DodgemTiers(rules_for("classic", 3))
    codes = solve_in_memory(game)
    t, i = game.locate(game.start())
    assert decode(int(codes[t][i])) == (Value.WIN, 19)
