"""Compiled Dot Dash search: evaluation, a race solver and alpha-beta over the kernel board.

Scores are from the side to move's point of view; a win found `ply` plies from the root
scores WIN − ply. The race solver (quiescence) looks only at moves that matter for the
start-of-turn check: a side that is behind in fives must equalise (every other move loses at
once), and a side that is level may try lead-taking moves, which the opponent must answer.

`stats` is int64[3]: nodes visited, node budget, aborted flag (set when the budget runs out;
the caller then discards the unfinished iteration).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.games.dotdash.kernel import (
    EMPTY,
    WALL,
    count_moves,
    gen_moves,
    make,
    unmake,
)

WIN = 1_000_000
INF = 10_000_000
QDEPTH = 6  # plies of race solving below the search horizon

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
Board = npt.NDArray[np.int8]

# Weights of a line window of five points holding k stones of one colour and none of the other.
WINDOW = np.array([0, 1, 6, 30, 150, 0], dtype=np.int64)


@nb.njit(cache=True)
def _windows(board: Board, w: int, c: int, weights: I64) -> int:
    o = 3 - c
    total = 0
    for p in range(board.shape[0]):
        if board[p] == WALL:
            continue
        for i in range(4):
            d = 1 if i == 0 else w + 2 - i
            own = 0
            bad = False
            q = p
            for _ in range(5):
                v = board[q]
                if v == WALL or v == o:  # noqa: SIM109 (numba: no tuple membership)
                    bad = True
                    break
                if v == c:
                    own += 1
                q += d
            if not bad:
                total += weights[own]
    return total


@nb.njit(cache=True)
def _threats(board: Board, w: int, c: int) -> int:
    # empty points that would complete a new five of colour c
    total = 0
    for p in range(board.shape[0]):
        if board[p] != EMPTY:
            continue
        for i in range(4):
            d = 1 if i == 0 else w + 2 - i
            a = 0
            q = p - d
            while board[q] == c:
                a += 1
                q -= d
            b = 0
            q = p + d
            while board[q] == c:
                b += 1
                q += d
            if a + b + 1 >= 5 and (a < 5 or b < 5):
                total += 1
                break
    return total


@nb.njit(cache=True)
def evaluate(
    board: Board,
    counts: I32,
    c: int,
    dirs: I32,
    mode: int,
    limit: int,
    weights: I64,
    style: int,
) -> int:
    """Static score for colour c to move: line windows, and for style ≥ 1 also threats and
    mobility."""
    w = dirs[2]
    o = 3 - c
    score = _windows(board, w, c, weights) - _windows(board, w, o, weights)
    if style >= 1:
        score += 40 * (_threats(board, w, c) - _threats(board, w, o))
        mine = count_moves(board, counts, c, dirs, mode, limit, 0)
        theirs = count_moves(board, counts, o, dirs, mode, limit, 0)
        score += 2 * (mine - theirs)
        if mine < 8:
            score -= 60 * (8 - mine)
        if theirs < 8:
            score += 60 * (8 - theirs)
    return score + 10  # the side to move has the initiative


@nb.njit(cache=True)
def _order(
    board: Board,
    fives: I32,
    counts: I32,
    c: int,
    moves: I32,
    n: int,
    keys: I64,
    full: bool,
    dirs: I32,
    mode: int,
    limit: int,
    weights: I64,
    style: int,
) -> None:
    # sort moves best first: lead-taking, then level, then losing; by evaluation when `full`
    w = dirs[2]
    o = 3 - c
    for i in range(n):
        make(board, fives, counts, moves[i], w)
        diff = fives[c - 1] - fives[o - 1]
        key = 0
        if diff > 0:
            key = 1 << 40
        elif diff < 0:
            key = -(1 << 40)
        if full:
            key -= evaluate(board, counts, o, dirs, mode, limit, weights, style)
        keys[i] = key
        unmake(board, fives, counts, moves[i], w)
    # insertion sort, descending by key (n is small)
    for i in range(1, n):
        k = keys[i]
        m0, m1, m2, m3 = moves[i, 0], moves[i, 1], moves[i, 2], moves[i, 3]
        j = i - 1
        while j >= 0 and keys[j] < k:
            keys[j + 1] = keys[j]
            moves[j + 1, 0] = moves[j, 0]
            moves[j + 1, 1] = moves[j, 1]
            moves[j + 1, 2] = moves[j, 2]
            moves[j + 1, 3] = moves[j, 3]
            j -= 1
        keys[j + 1] = k
        moves[j + 1, 0] = m0
        moves[j + 1, 1] = m1
        moves[j + 1, 2] = m2
        moves[j + 1, 3] = m3


# What a frame does next when control comes back to it (see `alphabeta`).
_ENTER, _NEXT, _RETURN = 0, 1, 2


@nb.njit(cache=True)
def alphabeta(
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
    """Negamax alpha-beta to `depth`, then `qdepth` plies of the race solver: equalising
    moves when behind, lead-taking moves when level (standing pat on the evaluation).

    The recursion runs on an explicit stack of frames, one per ply (move list `buf[ply]`,
    move index, alpha, beta, best, depth, qdepth, phase), so the function is not recursive
    and numba can cache it on disk."""
    w = dirs[2]
    levels = buf.shape[0]
    f_c = np.zeros(levels, dtype=np.int64)  # colour to move
    f_depth = np.zeros(levels, dtype=np.int64)
    f_q = np.zeros(levels, dtype=np.int64)
    f_alpha = np.zeros(levels, dtype=np.int64)
    f_beta = np.zeros(levels, dtype=np.int64)
    f_best = np.zeros(levels, dtype=np.int64)
    f_n = np.zeros(levels, dtype=np.int64)  # moves in buf[ply]
    f_i = np.zeros(levels, dtype=np.int64)  # move being searched
    f_full = np.zeros(levels, dtype=np.bool_)  # full-width (True) or race solver (False)
    f_behind = np.zeros(levels, dtype=np.bool_)
    f_found = np.zeros(levels, dtype=np.bool_)
    # arguments of the node being entered
    sp = ply
    cc, d, q, a, b = c, depth, qdepth, alpha, beta
    ret = 0
    action = _ENTER
    while True:
        if action == _ENTER:
            p = sp
            stats[0] += 1
            o = 3 - cc
            best = -INF
            if d > 0 and stats[0] > stats[1]:
                stats[2] = 1
                ret = 0
                action = _RETURN
            elif fives[cc - 1] > fives[o - 1]:
                ret = WIN - p
                action = _RETURN
            else:
                n = gen_moves(board, counts, cc, dirs, mode, limit, buf[p])
                if n == 0:
                    ret = -(WIN - p)
                    action = _RETURN
                elif d > 0:
                    _order(
                        board, fives, counts, cc, buf[p], n, keybuf[p], d >= 2,
                        dirs, mode, limit, weights, style,
                    )  # fmt: skip
                    f_full[p] = True
                    action = _NEXT
                else:
                    f_full[p] = False
                    behind = fives[o - 1] > fives[cc - 1]
                    action = _NEXT
                    if not behind:
                        best = evaluate(board, counts, cc, dirs, mode, limit, weights, style)
                        if q <= 0 or best >= b:
                            ret = best
                            action = _RETURN
                        elif best > a:
                            a = best
                    elif q <= -2:
                        ret = evaluate(board, counts, cc, dirs, mode, limit, weights, style) - 500
                        action = _RETURN
                    f_behind[p] = behind
                    f_found[p] = False
                if action == _NEXT:
                    f_c[p], f_depth[p], f_q[p] = cc, d, q
                    f_alpha[p], f_beta[p], f_best[p] = a, b, best
                    f_n[p], f_i[p] = n, 0
        elif action == _NEXT:
            # frame sp searches its move f_i[sp], or returns when none is left
            p = sp
            cp = f_c[p]
            o = 3 - cp
            i = f_i[p]
            if f_full[p]:
                if i < f_n[p]:
                    make(board, fives, counts, buf[p, i], w)
                    cc, d, q, a, b = o, f_depth[p] - 1, f_q[p], -f_beta[p], -f_alpha[p]
                    sp = p + 1
                    action = _ENTER
                else:
                    ret = f_best[p]
                    action = _RETURN
            else:
                behind = f_behind[p]
                action = _RETURN
                while i < f_n[p]:
                    make(board, fives, counts, buf[p, i], w)
                    mine, theirs = fives[cp - 1], fives[o - 1]
                    relevant = mine >= theirs if behind else mine > theirs
                    if relevant:
                        f_i[p] = i
                        cc, d, q, a, b = o, 0, f_q[p] - 1, -f_beta[p], -f_alpha[p]
                        sp = p + 1
                        action = _ENTER
                        break
                    unmake(board, fives, counts, buf[p, i], w)
                    i += 1
                if action == _RETURN:
                    f_i[p] = i
                    # behind with no equalising move: the opponent wins next turn
                    ret = -(WIN - p - 1) if behind and not f_found[p] else f_best[p]
        else:  # _RETURN: hand `ret` to the parent frame
            if sp == ply:
                return ret
            p = sp - 1
            sp = p
            v = -ret
            i = f_i[p]
            unmake(board, fives, counts, buf[p, i], w)
            if f_full[p] and stats[2]:
                ret = 0
                continue  # still _RETURN
            if not f_full[p]:
                f_found[p] = True
            if v > f_best[p]:
                f_best[p] = v
            if v > f_alpha[p]:
                f_alpha[p] = v
            if f_alpha[p] >= f_beta[p]:
                ret = f_best[p]
                continue  # still _RETURN
            f_i[p] = i + 1
            action = _NEXT


def search_root(
    board: Board,
    fives: I32,
    counts: I32,
    c: int,
    depth: int,
    moves: I32,
    n: int,
    noise: I64,
    scores: I64,
    dirs: I32,
    mode: int,
    limit: int,
    buf: I32,
    keybuf: I64,
    weights: I64,
    style: int,
    stats: I64,
    qdepth: int = QDEPTH,
) -> int:
    """Score the root moves in the given order (exact for the best, bounds for the rest, plus
    `noise`); returns the index of the best move.

    The loop runs in Python; one call per root move costs nothing."""
    w = int(dirs[2])
    o = 3 - c
    alpha = -INF
    best_i = 0
    for i in range(n):
        # the move must beat alpha after its noise is added: search against alpha - noise
        bar = alpha - int(noise[i]) if alpha > -INF else -INF
        make(board, fives, counts, moves[i], w)
        v = -int(
            alphabeta(
                board, fives, counts, o, depth - 1, qdepth, -INF, -bar, 1,
                dirs, mode, limit, buf, keybuf, weights, style, stats,
            )
        )  # fmt: skip
        unmake(board, fives, counts, moves[i], w)
        if stats[2]:
            return best_i
        if abs(v) < WIN - 1000:
            v += int(noise[i])
        scores[i] = v
        if v > alpha:
            alpha = v
            best_i = i
    return best_i
