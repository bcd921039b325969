"""Perft for Dodgem: the number of leaves of the move tree, as a compiled kernel.

A finished game (a side has cleared its cars, or a blocked side under blocked = wins or
loses) has no children; a Piecepack pass is a move; repetition is ignored. At the last ply
the moves are counted without being played.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import EXIT, DodgemRules

NO_STEP = -2  # padding in the step table where a square has fewer than three steps
_BLOCKED_CODE = {"wins": 0, "loses": 1, "passes": 2}


def step_array(rules: DodgemRules) -> npt.NDArray[np.int64]:
    """Steps as an array [player, square, k]: a destination, EXIT (-1) or NO_STEP (-2)."""
    n = rules.size
    out = np.full((2, n * n, 3), NO_STEP, dtype=np.int64)
    for player in (0, 1):
        for s, dests in enumerate(rules.step_table[player]):
            for k, d in enumerate(dests):
                out[player, s, k] = d
    return out


@nb.njit(cache=True)
def _gen(
    mine: np.uint64, occupied: np.uint64, table: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> int:
    """Write the (source, destination) pairs of the car moves into `out`; return their count."""
    count = 0
    m = mine
    one = np.uint64(1)
    while m:
        s = 0
        low = m & (~m + one)
        while (low >> np.uint64(s)) != one:
            s += 1
        for k in range(3):
            d = table[s, k]
            if d == EXIT or (d >= 0 and not (occupied >> np.uint64(d)) & one):
                out[count, 0] = s
                out[count, 1] = d
                count += 1
        m ^= low
    return count


PASS_MARK = -3  # source of a pass in the move buffer


@nb.njit(cache=True)
def _expand(
    first: np.uint64,
    second: np.uint64,
    side: int,
    steps: npt.NDArray[np.int64],
    blocked: int,
    out: npt.NDArray[np.int64],
) -> int:
    """Write the moves of a position into `out` and return their number (0: finished)."""
    if first == 0 or second == 0:
        return 0  # somebody has cleared: finished
    mine = first if side == 0 else second
    count = _gen(mine, first | second, steps[side], out)
    if count == 0 and blocked == 2:
        out[0, 0] = PASS_MARK
        return 1
    return count  # 0 here: blocked side wins or loses, finished


@nb.njit(cache=True)
def _perft(
    first: np.uint64,
    second: np.uint64,
    side: int,
    depth: int,
    steps: npt.NDArray[np.int64],
    blocked: int,
    buf: npt.NDArray[np.int64],
) -> int:
    """Depth-first leaf count with an explicit stack (one level of `buf` per ply)."""
    if depth == 0:
        return 1
    firsts = np.zeros(depth + 1, dtype=np.uint64)
    seconds = np.zeros(depth + 1, dtype=np.uint64)
    sides = np.zeros(depth + 1, dtype=np.int64)
    counts = np.zeros(depth + 1, dtype=np.int64)
    nexts = np.zeros(depth + 1, dtype=np.int64)
    firsts[depth], seconds[depth], sides[depth] = first, second, side
    counts[depth] = _expand(first, second, side, steps, blocked, buf[depth])
    if depth == 1:
        return int(counts[depth])
    one = np.uint64(1)
    total = 0
    level = depth
    while level <= depth:
        if nexts[level] >= counts[level]:
            level += 1
            continue
        i = nexts[level]
        nexts[level] += 1
        f, s, sd = firsts[level], seconds[level], sides[level]
        src = buf[level, i, 0]
        if src != PASS_MARK:
            dst = buf[level, i, 1]
            mine = f if sd == 0 else s
            mine = mine & ~(one << np.uint64(src))
            if dst >= 0:
                mine |= one << np.uint64(dst)
            if sd == 0:
                f = mine
            else:
                s = mine
        child = level - 1
        c = _expand(f, s, 1 - sd, steps, blocked, buf[child])
        if child == 1:
            total += c
            continue
        firsts[child], seconds[child], sides[child] = f, s, 1 - sd
        counts[child] = c
        nexts[child] = 0
        level = child
    return total


def perft(rules: DodgemRules, position: DodgemPosition, depth: int) -> int:
    """Leaf count of the move tree of `position` at `depth` plies."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    buf = np.zeros((depth + 1, 3 * rules.size * rules.size, 2), dtype=np.int64)
    count: int = int(
        _perft(
            np.uint64(position.first),
            np.uint64(position.second),
            position.to_move,
            depth,
            step_array(rules),
            _BLOCKED_CODE[rules.blocked],
            buf,
        )
    )
    return count
