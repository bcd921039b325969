"""Perft of the compiled kernel and of the rules engine against a deliberately simple
implementation, over every variant and sizes 3 to 6."""

from __future__ import annotations

import pytest

from boardlab.core import make_rules
from boardlab.games.dodgem import DodgemRules
from boardlab.games.dodgem.perft import perft
from tests.games.dodgem.simple_dodgem import SimpleGame


def simple_for(rules: DodgemRules) -> SimpleGame:
    return SimpleGame(rules.size, rules.geometry, rules.blocked)


def rules_perft(rules: DodgemRules, pos, depth: int) -> int:  # type: ignore[no-untyped-def]
    if depth == 0:
        return 1
    if rules.outcome(pos) is not None:
        return 0
    return sum(rules_perft(rules, rules.play(pos, m), depth - 1) for m in rules.legal_moves(pos))


def test_sanity_figure_classic_3x3_depth_8() -> None:
    rules = make_rules("dodgem", "classic", 3)
    assert perft(rules, rules.start(), 8) == 8865


CASES = [
    ("classic", 3, 9),
    ("classic", 4, 6),
    ("classic", 5, 5),
    ("classic", 6, 4),
    ("blocked-loses", 3, 9),
    ("blocked-loses", 4, 5),
    ("misere", 3, 9),
    ("misere", 5, 4),
    ("piecepack", 6, 5),
    ("piecepack", 3, 8),
    ("piecepack", 4, 6),
]


@pytest.mark.parametrize(("variant", "size", "depth"), CASES)
def test_kernel_agrees_with_simple_implementation(variant: str, size: int, depth: int) -> None:
    rules = make_rules("dodgem", variant, size)
    simple = simple_for(rules)
    start = simple.start()
    for d in range(depth + 1):
        assert perft(rules, rules.start(), d) == simple.perft(start, d), (variant, size, d)


@pytest.mark.parametrize(("variant", "size", "depth"), [(v, s, min(d, 5)) for v, s, d in CASES])
def test_rules_engine_agrees_with_kernel(variant: str, size: int, depth: int) -> None:
    rules = make_rules("dodgem", variant, size)
    assert rules_perft(rules, rules.start(), depth) == perft(rules, rules.start(), depth)


@pytest.mark.parametrize(
    "text",
    [
        "3/1R1/B1B r",  # red blocked? red can still move sideways/forward
        "B2/RB1/1R1 b",
        "3/B2/R2 b",
        "2B/3/RR1 r",
    ],
)
def test_positions_agree(text: str) -> None:
    rules = make_rules("dodgem", "classic", 3)
    pos = rules.parse_position(text)
    simple = simple_for(rules)
    spos = (
        frozenset((s.file, s.rank) for s in pos.squares(0)),
        frozenset((s.file, s.rank) for s in pos.squares(1)),
        pos.to_move,
    )
    for d in range(7):
        assert perft(rules, pos, d) == simple.perft(spos, d)


def test_piecepack_blocked_side_passes_in_perft() -> None:
    rules = make_rules("dodgem", "piecepack", 3)
    # Red (first) on a1 is boxed in by green cars on a2 and b1: its only move is a pass.
    pos = rules.parse_position("3/G2/RG1 r")
    assert [str(m) for m in rules.legal_moves(pos)] == ["pass"]
    assert perft(rules, pos, 1) == 1
