"""Selective deepening: past two plies a narrow search looks only at its best few root moves.

The moves' values come from the compiled alpha-beta on each child (itself checked against
plain minimax in test_search.py), searched as the root search searches them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.ai.dotdash.players import (
    FULL_WIDTH,
    DotDashSearchPlayer,
    SearchResult,
    player_for_level,
)
from boardlab.ai.dotdash.search import INF, QDEPTH, WIN, WINDOW, alphabeta
from boardlab.core import make_rules
from boardlab.games.dotdash import kernel
from boardlab.games.dotdash.notation import DotDashMove, DotDashPosition
from boardlab.games.dotdash.rules import DotDashRules

from .test_search_iterative import playouts


def value(
    rules: DotDashRules, pos: DotDashPosition, move: DotDashMove, depth: int, q: int = QDEPTH
) -> int:
    """The exact score of `move` for the side to move, searched `depth` plies in all and
    then `q` plies of the race solver."""
    child = rules.play(pos, move)
    board, fives, counts = kernel.to_arrays(child)
    dirs = kernel.directions(pos.size)
    buf = kernel.move_buffer(pos.size, depth + q + 6)
    keybuf = np.zeros(buf.shape[:2], dtype=np.int64)
    stats = np.array([0, 1 << 62, 0], dtype=np.int64)
    mode, limit = kernel.mode_code(rules.mode), kernel.limit_of(rules.reserve)
    return -int(
        alphabeta(
            board, fives, counts, child.to_move + 1, depth - 1, q, -INF, INF, 1,
            dirs, mode, limit, buf, keybuf, WINDOW, 1, stats,
        )
    )  # fmt: skip


def search(
    rules: DotDashRules, pos: DotDashPosition, depth: int, width: int | None
) -> SearchResult:
    player = DotDashSearchPlayer("probe", depth, 1, noise=0, width=width)
    return player.search(rules, pos, random.Random(0), depth, None)


def open_positions(rules: DotDashRules, seed: int, count: int) -> list[DotDashPosition]:
    """Positions with more than three moves that two plies do not decide (a decided search
    stops early, at whatever depth it found the result)."""
    out = []
    for pos in playouts(rules, seed, 4 * count):
        decided = abs(search(rules, pos, FULL_WIDTH, None).score) >= WIN - 1000
        if len(out) < count and len(rules.legal_moves(pos)) > 3 and not decided:
            out.append(pos)
    return out


@pytest.mark.parametrize("variant", ["standard", "capture"])
def test_a_narrow_third_ply_keeps_the_best_of_its_moves(variant: str) -> None:
    rules = make_rules("dotdash", variant, 9)
    assert isinstance(rules, DotDashRules)
    positions = open_positions(rules, 31, 2)
    assert len(positions) == 2
    for pos in positions:
        full = search(rules, pos, 3, None)
        narrow = search(rules, pos, 3, 3)
        assert narrow.depth == full.depth == 3
        # the move it keeps is worth, three plies deep, what the search says
        assert narrow.score == value(rules, pos, narrow.move, 3)
        # and no less than the move two plies chose, which it searched first
        first = search(rules, pos, FULL_WIDTH, None).move
        assert narrow.score >= value(rules, pos, first, 3)
        # the full search's choice is the best of all: the narrow one can only fall short
        assert full.score >= narrow.score
        assert narrow.nodes < full.nodes


@pytest.mark.parametrize("q", [0, 2, 3])
def test_a_shorter_race_is_the_race_the_search_runs(q: int) -> None:
    rules = make_rules("dotdash", "capture", 9)
    assert isinstance(rules, DotDashRules)
    for pos in open_positions(rules, 34, 2):
        player = DotDashSearchPlayer("probe", 2, 1, noise=0, qdepth=q)
        result = player.search(rules, pos, random.Random(0), 2, None)
        values = {m: value(rules, pos, m, 2, q) for m in rules.legal_moves(pos)}
        assert result.score == max(values.values()) == values[result.move]


def test_a_width_wider_than_the_moves_changes_nothing() -> None:
    rules = make_rules("dotdash", "frozen", 9)
    assert isinstance(rules, DotDashRules)
    for pos in open_positions(rules, 32, 2):
        full = search(rules, pos, 3, None)
        wide = search(rules, pos, 3, 10_000)
        assert (wide.move, wide.score, wide.depth) == (full.move, full.score, full.depth)


def test_level_4_on_the_largest_boards_is_narrow_and_never_below_two_plies() -> None:
    big = make_rules("dotdash", "capture", 19)
    player = player_for_level(4, big)
    assert isinstance(player, DotDashSearchPlayer)
    assert player.width is not None and player.time_limit is not None
    # on a clock already spent, level 4 still searches level 3's two plies (shown on 9×9,
    # where two plies are quick)
    rules = make_rules("dotdash", "standard", 9)
    assert isinstance(rules, DotDashRules)
    pos = open_positions(rules, 33, 1)[0]
    result = player.search(rules, pos, random.Random(0), 3, 1e-9)
    assert result.depth == FULL_WIDTH
