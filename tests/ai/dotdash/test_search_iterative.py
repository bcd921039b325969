"""The stack-based compiled search against a recursive copy of it: same values, same node
counts, same abort point, and the board left as it was, on random positions of every variant."""

from __future__ import annotations

import random

import numba as nb
import numpy as np
import numpy.typing as npt
import pytest

from boardlab.ai.dotdash import search as dotdash_search
from boardlab.ai.dotdash.search import INF, WIN, WINDOW, _order, alphabeta, evaluate
from boardlab.core import make_rules
from boardlab.games.dotdash import kernel
from boardlab.games.dotdash.kernel import gen_moves, make, unmake
from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.rules import VARIANTS, DotDashRules

Board = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


@nb.njit(cache=False)  # numba cannot load a recursive function from its disk cache
def _alphabeta_recursive_reference(
    board: Board,
    fives: I32,
    counts: I32,
    c: int,
    depth: int,
    qdepth: int,
    alpha: int,
    beta: int,
    ply: int,
    dirs: I32,
    mode: int,
    limit: int,
    buf: I32,
    keybuf: I64,
    weights: I64,
    style: int,
    stats: I64,
) -> int:
    """The search as it was first written, recursively: same arguments, same result."""
    stats[0] += 1
    if depth > 0 and stats[0] > stats[1]:
        stats[2] = 1
        return 0
    o = 3 - c
    if fives[c - 1] > fives[o - 1]:
        return WIN - ply
    moves = buf[ply]
    n = gen_moves(board, counts, c, dirs, mode, limit, moves)
    if n == 0:
        return -(WIN - ply)
    w = dirs[2]
    best = -INF
    if depth > 0:
        _order(
            board, fives, counts, c, moves, n, keybuf[ply], depth >= 2,
            dirs, mode, limit, weights, style,
        )  # fmt: skip
        for i in range(n):
            make(board, fives, counts, moves[i], w)
            v = -_alphabeta_recursive_reference(
                board, fives, counts, o, depth - 1, qdepth, -beta, -alpha, ply + 1,
                dirs, mode, limit, buf, keybuf, weights, style, stats,
            )  # fmt: skip
            unmake(board, fives, counts, moves[i], w)
            if stats[2]:
                return 0
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best
    behind = fives[o - 1] > fives[c - 1]
    if not behind:
        best = evaluate(board, counts, c, dirs, mode, limit, weights, style)
        if qdepth <= 0 or best >= beta:
            return best
        if best > alpha:
            alpha = best
    elif qdepth <= -2:
        return evaluate(board, counts, c, dirs, mode, limit, weights, style) - 500
    found = False
    for i in range(n):
        make(board, fives, counts, moves[i], w)
        mine, theirs = fives[c - 1], fives[o - 1]
        relevant = mine >= theirs if behind else mine > theirs
        v = -INF
        if relevant:
            v = -_alphabeta_recursive_reference(
                board, fives, counts, o, 0, qdepth - 1, -beta, -alpha, ply + 1,
                dirs, mode, limit, buf, keybuf, weights, style, stats,
            )  # fmt: skip
        unmake(board, fives, counts, moves[i], w)
        if relevant:
            found = True
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                return best
    if behind and not found:
        return -(WIN - ply - 1)  # no equalising move: the opponent wins next turn
    return best


def playouts(rules: DotDashRules, seed: int, count: int) -> list[DotDashPosition]:
    """Unfinished positions after random games of 0 to 40 plies."""
    rng = random.Random(seed)
    out: list[DotDashPosition] = []
    while len(out) < count:
        pos = rules.start()
        for _ in range(rng.randrange(0, 41)):
            moves = rules.legal_moves(pos)
            if not moves:
                break
            pos = rules.play(pos, rng.choice(moves))
        if rules.outcome(pos) is None:
            out.append(pos)
    return out


def run(
    fn: object,
    rules: DotDashRules,
    pos: DotDashPosition,
    depth: int,
    q: int,
    window: tuple[int, int],
    style: int,
    budget: int,
) -> tuple[int, list[int]]:
    board, fives, counts = kernel.to_arrays(pos)
    dirs = kernel.directions(pos.size)
    buf = kernel.move_buffer(pos.size, depth + max(q, 0) + 6)
    keybuf = np.zeros(buf.shape[:2], dtype=np.int64)
    stats = np.array([0, budget, 0], dtype=np.int64)
    mode, limit = kernel.mode_code(rules.mode), kernel.limit_of(rules.reserve)
    value = fn(  # type: ignore[operator]
        board, fives, counts, pos.to_move + 1, depth, q, window[0], window[1], 1,
        dirs, mode, limit, buf, keybuf, WINDOW, style, stats,
    )  # fmt: skip
    start = kernel.to_arrays(pos)
    assert np.array_equal(board, start[0]) and np.array_equal(fives, start[1])
    assert np.array_equal(counts, start[2])
    return int(value), [int(x) for x in stats]


CASES = [
    # size, depth, qdepth: kept small where the capture race solver grows fast
    (7, 1, 0),
    (7, 2, 6),
    (7, 3, 2),
    (9, 1, 6),
    (9, 2, 3),
    (9, 3, 0),
    (13, 1, 2),
    (13, 2, 1),
    (13, 3, 0),
]


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("size", "depth", "q"), CASES)
def test_iterative_search_equals_recursive(variant: str, size: int, depth: int, q: int) -> None:
    rules = make_rules("dotdash", variant, size)
    assert isinstance(rules, DotDashRules)
    rng = random.Random(f"{variant}-{size}-{depth}-{q}")
    for pos in playouts(rules, rng.randrange(1 << 30), 3):
        style = rng.randrange(2)
        windows = [(-INF, INF), (-INF, rng.randrange(-300, 300))]
        lo = rng.randrange(-400, 400)
        windows.append((lo, lo + rng.randrange(1, 80)))
        for window in windows:
            want = run(_alphabeta_recursive_reference, rules, pos, depth, q, window, style, 1 << 62)
            got = run(alphabeta, rules, pos, depth, q, window, style, 1 << 62)
            assert got == want, (str(pos), depth, q, window, style)
        # a node budget that runs out part way: both stop at the same node
        nodes = want[1][0]
        if nodes > 2:
            budget = rng.randrange(1, nodes)
            want = run(
                _alphabeta_recursive_reference, rules, pos, depth, q, (-INF, INF), style, budget
            )
            got = run(alphabeta, rules, pos, depth, q, (-INF, INF), style, budget)
            assert got == want
            if got[1][2]:
                assert got[0] == 0  # an aborted search reports nothing


def test_one_ply_visits_every_move_once() -> None:
    # without a window to cut on, one ply enters the root and each child exactly once
    rules = make_rules("dotdash", "capture", 7)
    assert isinstance(rules, DotDashRules)
    for pos in playouts(rules, 11, 4):
        value, stats = run(alphabeta, rules, pos, 1, 0, (-INF, INF), 0, 1 << 62)
        assert stats == [1 + len(rules.legal_moves(pos)), 1 << 62, 0]
        assert -WIN < value < WIN


@pytest.mark.parametrize(
    ("variant", "size", "depth"), [("frozen", 9, 3), ("capture", 9, 2), ("standard", 13, 1)]
)
def test_root_search_picks_the_same_move(
    variant: str, size: int, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = make_rules("dotdash", variant, size)
    assert isinstance(rules, DotDashRules)
    rng = random.Random(size)
    for pos in playouts(rules, 21, 3):
        board, fives, counts = kernel.to_arrays(pos)
        dirs = kernel.directions(size)
        mode, limit = kernel.mode_code(rules.mode), kernel.limit_of(rules.reserve)
        c = pos.to_move + 1
        buf = kernel.move_buffer(size, depth + dotdash_search.QDEPTH + 6)
        keybuf = np.zeros(buf.shape[:2], dtype=np.int64)
        root = np.zeros((buf.shape[1], 4), dtype=np.int32)
        n = gen_moves(board, counts, c, dirs, mode, limit, root)
        noise = np.array([rng.randrange(5) for _ in range(n)], dtype=np.int64)
        results = []
        for fn in (_alphabeta_recursive_reference, alphabeta):
            monkeypatch.setattr(dotdash_search, "alphabeta", fn)
            scores = np.full(n, -(1 << 40), dtype=np.int64)
            stats = np.array([0, 1 << 62, 0], dtype=np.int64)
            best = dotdash_search.search_root(
                board, fives, counts, c, depth, root, n, noise, scores,
                dirs, mode, limit, buf, keybuf, WINDOW, 1, stats,
            )  # fmt: skip
            results.append((best, scores.tolist(), stats.tolist()))
        assert results[0] == results[1], str(pos)
