"""The compiled solver against a slow reference, known facts, and the colour-swap symmetry."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from boardlab.core.outcome import Value
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules, rules_for
from boardlab.solver.api import decode
from boardlab.solver.build import solve_in_memory
from boardlab.solver.index import scheme_for, transpose_mask

from .reference import all_positions, children_graph, solve

VARIANTS = ("classic", "blocked-loses", "misere")


@cache
def table(variant: str, size: int, symmetry: bool = True) -> np.ndarray:
    return solve_in_memory(rules_for(variant, size), symmetry=symmetry)


@cache
def graph(size: int):  # type: ignore[no-untyped-def]
    return children_graph(rules_for("classic", size))


def compare_all(variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    ref = solve(rules, graph(size))
    tab = table(variant, size)
    sch = scheme_for(rules)
    bad = [
        (str(p), want, decode(int(tab[sch.index(p)])))
        for p, want in ref.items()
        if decode(int(tab[sch.index(p)])) != want
    ]
    assert not bad[:5]
    # every valid entry is some position, every other entry is invalid
    assert int(np.count_nonzero(tab)) == len(ref)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_3x3_position_matches_reference(variant: str) -> None:
    compare_all(variant, 3)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_4x4_position_matches_reference(variant: str) -> None:
    compare_all(variant, 4)


@pytest.mark.parametrize("variant", VARIANTS)
def test_4x4_sample_is_consistent_with_rules(variant: str) -> None:
    """Each sampled position's stored result follows from its children through the rules."""
    rules = rules_for(variant, 4)
    tab = table(variant, 4)
    sch = scheme_for(rules)
    rng = random.Random(7)
    positions = all_positions(4)
    for p in rng.sample(positions, 4000):
        value, rem = decode(int(tab[sch.index(p)]))
        out = rules.outcome(p)
        if out is not None:
            assert (value, rem) == (out.value_for(p.to_move), 0), p
            continue
        kids = [decode(int(tab[sch.index(rules.play(p, m))])) for m in rules.legal_moves(p)]
        losses = [r for v, r in kids if v is Value.LOSS]
        if losses:
            assert (value, rem) == (Value.WIN, 1 + min(losses)), p  # type: ignore[type-var]
        elif any(v is Value.DRAW for v, _ in kids):
            assert (value, rem) == (Value.DRAW, None), p
        else:
            assert (value, rem) == (Value.LOSS, 1 + max(r for _, r in kids)), p  # type: ignore[type-var]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("size", [3, 4])
def test_symmetry_shortcut_changes_nothing(variant: str, size: int) -> None:
    assert np.array_equal(table(variant, size), table(variant, size, symmetry=False))


@pytest.mark.parametrize("variant", VARIANTS)
def test_colour_swap_preserves_values_on_4x4(variant: str) -> None:
    rules = rules_for(variant, 4)
    tab = table(variant, 4, symmetry=False)
    sch = scheme_for(rules)
    rng = random.Random(3)
    for p in rng.sample(all_positions(4), 3000):
        q = DodgemPosition(
            4, transpose_mask(p.second, 4), transpose_mask(p.first, 4), 1 - p.to_move
        )
        assert tab[sch.index(p)] == tab[sch.index(q)], (p, q)


def reachable(rules: DodgemRules) -> set[DodgemPosition]:
    seen = {rules.start()}
    todo = [rules.start()]
    while todo:
        p = todo.pop()
        for m in rules.legal_moves(p):
            c = rules.play(p, m)
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


@pytest.mark.parametrize(
    ("variant", "wins", "losses", "draws"),
    [("classic", 1123, 840, 0), ("blocked-loses", 1120, 843, 0)],
)
def test_3x3_known_facts(variant: str, wins: int, losses: int, draws: int) -> None:
    rules = rules_for(variant, 3)
    tab = table(variant, 3)
    sch = scheme_for(rules)
    reach = reachable(rules)
    assert len(reach) == 1963
    values = [decode(int(tab[sch.index(p)]))[0] for p in reach]
    assert (values.count(Value.WIN), values.count(Value.LOSS), values.count(Value.DRAW)) == (
        wins,
        losses,
        draws,
    )
    assert decode(int(tab[sch.index(rules.start())])) == (Value.WIN, 19)
