"""The tier adapters' self-test (`boardlab.solver.selftest`): every adapter passes it (the
toy game, Dodgem 3×3 under every variant, Dodgem 4×4 sampled), and each kind of broken
adapter is reported by its name."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from boardlab.core.registry import get_game, make_rules
from boardlab.core.tiers import TierGame
from boardlab.solver.selftest import ERRORS, Problem, main, self_test
from tests.toygame import rules_for as nim_rules
from tests.toygame.tiers import NimTiers


def dodgem(variant: str, size: int) -> TierGame:
    rules = make_rules("dodgem", variant, size)
    adapter = get_game("dodgem").solver_adapter
    assert adapter is not None
    game = adapter(rules)
    assert game is not None
    return game


def names(problems: list[Problem]) -> set[str]:
    assert {p.name for p in problems} <= set(ERRORS)
    return {p.name for p in problems}


def test_the_toy_game_passes() -> None:
    for variant in ("normal", "misere"):
        assert self_test(NimTiers(nim_rules(variant, 3))) == []


@pytest.mark.parametrize("variant", ["classic", "blocked-loses", "misere", "piecepack"])
def test_dodgem_3x3_passes(variant: str) -> None:
    assert self_test(dodgem(variant, 3)) == []


def test_dodgem_4x4_passes_on_a_sample() -> None:
    game = dodgem("classic", 4)
    tiers = list(game.tiers())
    assert self_test(game, limit=150, seed=1, tiers=tiers[:: max(1, len(tiers) // 12)]) == []


class Broken:
    """An adapter with one promise broken; everything else is the wrapped one's."""

    def __init__(self, inner: Any, **override: Any) -> None:
        self.inner = inner
        self.override = override

    def __getattr__(self, name: str) -> Any:
        if name in self.override:
            return self.override[name]
        return getattr(self.inner, name)


def broken_game(inner: Any, **override: Any) -> TierGame:
    """`inner` with the overridden members, as the self-test sees an adapter."""
    return cast(TierGame, Broken(inner, **override))


def test_a_child_tier_not_declared_is_named() -> None:
    nim = NimTiers(nim_rules("normal", 3))
    broken = broken_game(nim, child_tiers=lambda t: nim.child_tiers(t)[:1])
    assert "CHILD_TIER_UNDECLARED" in names(self_test(broken))


def test_a_tier_left_out_or_not_canonical_is_named() -> None:
    nim = NimTiers(nim_rules("normal", 3))
    broken = broken_game(nim, tiers=lambda: nim.tiers()[1:])
    assert "NOT_CANONICAL" in names(self_test(broken))
    shifted = broken_game(nim, canonical_tier=lambda t: t + 1000)
    assert "NOT_CANONICAL" in names(self_test(shifted))


def test_a_cycle_of_tiers_is_named() -> None:
    nim = NimTiers(nim_rules("normal", 3))
    top = nim.tiers()[-1]  # tier 0 now leads back up to the top, which leads down to 0
    broken = broken_game(nim, child_tiers=lambda t: nim.child_tiers(t) or [top])
    found = self_test(broken, tiers=[])
    assert "TIER_CYCLE" in names(found)


def test_rank_and_unrank_that_disagree_are_named() -> None:
    nim = NimTiers(nim_rules("normal", 3))
    broken = broken_game(
        nim, position=lambda t, i: nim.position(t, i - 1) if i else nim.position(t, i)
    )
    assert names(self_test(broken)) & {"RANK_UNRANK", "INVALID_MISMATCH"}


def test_moves_and_unmoves_that_disagree_are_named() -> None:
    game = dodgem("classic", 3)
    kernel = dataclasses.replace(game.kernel, unmoves=lambda ctx, p, index: 0)
    broken = broken_game(game, kernel=kernel)
    some = list(game.tiers())[-5:]
    assert "MOVE_UNMOVE_MISMATCH" in names(self_test(broken, tiers=some))


def test_the_command_reports_and_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "dodgem", "--size", "3", "--limit", "50"]) == 0
    assert "0 problem(s)" in capsys.readouterr().out
    assert main(["--game", "dodgem", "--size", "9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("selftest:") and err.count("\n") == 1
