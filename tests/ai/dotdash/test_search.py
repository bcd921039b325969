"""The compiled search against plain minimax with the same leaves (also through a player's
race depth), and the window evaluation against a direct count."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.ai.dotdash.players import DotDashSearchPlayer
from boardlab.ai.dotdash.search import INF, QDEPTH, WIN, WINDOW, _windows, alphabeta, evaluate
from boardlab.core import make_rules
from boardlab.core.errors import UsageError
from boardlab.games.dotdash import kernel
from boardlab.games.dotdash.notation import DotDashPosition, Point
from boardlab.games.dotdash.rules import DotDashRules


def leaf(rules: DotDashRules, pos: DotDashPosition, style: int) -> int:
    board, _, counts = kernel.to_arrays(pos)
    dirs = kernel.directions(pos.size)
    mode, limit = kernel.mode_code(rules.mode), kernel.limit_of(rules.reserve)
    return int(evaluate(board, counts, pos.to_move + 1, dirs, mode, limit, WINDOW, style))


def minimax(
    rules: DotDashRules, pos: DotDashPosition, depth: int, q: int, ply: int, style: int
) -> int:
    """The search's definition, written out without pruning."""
    p = pos.to_move
    fives = rules.fives(pos)
    mine, theirs = fives[p], fives[1 - p]
    if mine > theirs:
        return WIN - ply
    moves = rules.generate(pos)
    if not moves:
        return -(WIN - ply)
    if depth > 0:
        return max(-minimax(rules, rules.play(pos, m), depth - 1, q, ply + 1, style) for m in moves)
    behind = theirs > mine
    if not behind:
        stand = leaf(rules, pos, style)
        if q <= 0:
            return stand
        best = stand
    elif q <= -2:
        return leaf(rules, pos, style) - 500
    else:
        best = -INF
    found = False
    for m in moves:
        child = rules.play(pos, m)
        f = rules.fives(child)
        if (f[p] >= f[1 - p]) if behind else (f[p] > f[1 - p]):
            found = True
            best = max(best, -minimax(rules, child, 0, q - 1, ply + 1, style))
    if behind and not found:
        return -(WIN - ply - 1)
    return best


def search(rules: DotDashRules, pos: DotDashPosition, depth: int, q: int, style: int) -> int:
    board, fives, counts = kernel.to_arrays(pos)
    dirs = kernel.directions(pos.size)
    buf = kernel.move_buffer(pos.size, depth + q + 6)
    keybuf = np.zeros(buf.shape[:2], dtype=np.int64)
    stats = np.array([0, 1 << 62, 0], dtype=np.int64)
    mode, limit = kernel.mode_code(rules.mode), kernel.limit_of(rules.reserve)
    value = alphabeta(
        board, fives, counts, pos.to_move + 1, depth, q, -INF, INF, 0,
        dirs, mode, limit, buf, keybuf, WINDOW, style, stats,
    )  # fmt: skip
    assert np.array_equal(board, kernel.to_arrays(pos)[0])  # make/unmake left no trace
    return int(value)


def positions(rules: DotDashRules, seed: int, count: int) -> list[DotDashPosition]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = rules.start()
        for _ in range(rng.randrange(2, 14)):
            moves = rules.legal_moves(pos)
            if not moves:
                break
            pos = rules.play(pos, rng.choice(moves))
        if rules.outcome(pos) is None:
            out.append(pos)
    return out


@pytest.mark.parametrize("variant", ["standard", "capture"])
def test_alphabeta_equals_minimax(variant: str) -> None:
    rules = make_rules("dotdash", variant, 7)
    assert isinstance(rules, DotDashRules)
    for i, pos in enumerate(positions(rules, 5, 6)):
        style = i % 2
        assert search(rules, pos, 1, 2, style) == minimax(rules, pos, 1, 2, 0, style), str(pos)
        if i < 2:
            assert search(rules, pos, 2, 0, style) == minimax(rules, pos, 2, 0, 0, style)


def test_windows_match_a_direct_count() -> None:
    rules = make_rules("dotdash", "standard", 9)
    assert isinstance(rules, DotDashRules)
    steps = [(1, 0), (1, 1), (0, 1), (-1, 1)]
    for pos in positions(rules, 8, 5):
        board, _, _ = kernel.to_arrays(pos)
        for player in (0, 1):
            expected = 0
            for f in range(9):
                for r in range(9):
                    for df, dr in steps:
                        cells = [(f + k * df, r + k * dr) for k in range(5)]
                        if not all(0 <= x < 9 and 0 <= y < 9 for x, y in cells):
                            continue
                        owners = [pos.at(Point(x, y)) for x, y in cells]
                        if 1 - player in owners:
                            continue
                        expected += int(WINDOW[owners.count(player)])
            assert _windows(board, 10, player + 1, WINDOW) == expected


def test_a_players_race_depth_reaches_the_search() -> None:
    # the root value of a one-ply search with q plies of race solving, as minimax defines it
    rules = make_rules("dotdash", "capture", 7)
    assert isinstance(rules, DotDashRules)
    differ = 0
    for pos in positions(rules, 1, 8):
        if len(rules.legal_moves(pos)) < 2:
            continue
        values = []
        for q in (0, 2):
            player = DotDashSearchPlayer("race", depth=1, style=1, noise=0, qdepth=q)
            found = player.search(rules, pos, random.Random(1), 1, None)
            assert found.score == minimax(rules, pos, 1, q, 0, 1), (str(pos), q)
            values.append(found.score)
        differ += values[0] != values[1]
    assert differ  # the positions hold races that two more plies of solving see further


def test_a_race_solver_deeper_than_the_buffers_is_refused() -> None:
    with pytest.raises(UsageError, match="race solver"):
        DotDashSearchPlayer("deep", depth=2, style=1, qdepth=QDEPTH + 1)
