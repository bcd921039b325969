"""One compiled retrograde kernel for every game: solves a tier for "the side to move".

Codes (value for the side to move): 0 invalid index, 1 draw, 2 + 2r win in r plies,
3 + 2r loss in r plies. The game's compiled functions (see `boardlab.core.tiers`) are
arguments, so numba makes one specialised copy per game.

Positions are decided in order of remoteness with a bucket queue: a win in r + 1 as soon as a
child loss in r is known (or at once, from a solved child tier), a loss when the last child
is known to be a win for the opponent, its remoteness the largest of theirs plus one.
Whatever is left undecided is a draw.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

INVALID, DRAW = 0, 1
NONE = 65535  # no pending win / no remoteness
MAX_REMOTENESS = 30000
# status codes returned instead of a remoteness
BAD_CHILD, TOO_DEEP, NO_MOVES, TOO_BIG = -1, -2, -3, -4


@nb.njit(cache=True)
def _push(head, ev, ev_next, n_ev, r, p, kind):  # type: ignore[no-untyped-def]
    ev[n_ev] = (p << 2) | kind
    ev_next[n_ev] = head[r]
    head[r] = n_ev
    return n_ev + 1


# not cached on disk: numba's cache cannot match a function that takes other compiled
# functions as arguments in a new process (it would compile again and pile up entries, and
# saving fails once an old entry's functions are gone); it compiles once per process
@nb.njit(cache=False)
def solve_tier(  # type: ignore[no-untyped-def]
    primitive, moves, unmoves, ctx, size, max_moves, child_codes, child_base, code
):
    """Solve one tier into `code` (uint16, length `size`); returns the largest remoteness,
    or a negative status (a child entry invalid, remoteness too deep, a position with
    no moves that is not finished, a tier too big for the queue)."""
    if size >= (1 << 29):
        return TOO_BIG
    flags = np.zeros(size, np.uint8)  # 1 decided, 2 has a drawn child
    cnt = np.zeros(size, np.uint8)  # in-tier moves not yet known to win for the opponent
    pend = np.full(size, NONE, np.uint16)  # best win found so far
    lossc = np.zeros(size, np.uint16)  # longest loss among out-of-tier children + 1
    head = np.full(MAX_REMOTENESS + 2, -1, np.int32)
    ev = np.empty(2 * size + 16, np.uint32)
    ev_next = np.empty(2 * size + 16, np.int32)
    slot = np.empty(max_moves, np.int64)
    idx = np.empty(max_moves, np.int64)
    n_ev = 0
    top = 0
    for p in range(size):
        pr = primitive(ctx, p)
        if pr == 0:
            flags[p] = 1
            code[p] = INVALID
            continue
        if pr >= 2:
            flags[p] = 1
            code[p] = pr
            n_ev = _push(head, ev, ev_next, n_ev, 0, p, 2)
            continue
        n = moves(ctx, p, slot, idx)
        if n <= 0:
            return NO_MOVES
        winc = NONE
        lc = 0
        hd = 0
        c = 0
        for j in range(n):
            s = slot[j]
            if s < 0:
                c += 1
                continue
            cc = child_codes[child_base[s] + idx[j]]
            if cc == INVALID:
                return BAD_CHILD
            if cc == DRAW:
                hd = 1
            elif cc & 1:
                winc = min(winc, (cc - 3) // 2 + 1)
            else:
                lc = max(lc, (cc - 2) // 2 + 1)
        cnt[p] = c
        lossc[p] = lc
        if hd:
            flags[p] = 2
        if winc < NONE:
            pend[p] = winc
            n_ev = _push(head, ev, ev_next, n_ev, winc, p, 0)
            top = max(top, winc)
        elif c == 0 and hd == 0:
            n_ev = _push(head, ev, ev_next, n_ev, lc, p, 1)
            top = max(top, lc)
    if top > MAX_REMOTENESS:
        return TOO_DEEP
    r = 0
    maxrem = 0
    while r <= top:
        e = head[r]
        while e >= 0:
            p = ev[e] >> 2
            kind = ev[e] & 3
            e = ev_next[e]
            if kind != 2:
                if flags[p] & 1:
                    continue
                flags[p] |= 1
                code[p] = 2 + 2 * r + kind
            maxrem = max(maxrem, r)
            is_loss = code[p] & 1
            n = unmoves(ctx, p, idx)
            for j in range(n):
                q = idx[j]
                if flags[q] & 1:
                    continue
                if is_loss:
                    if pend[q] > r + 1:
                        pend[q] = r + 1
                        n_ev = _push(head, ev, ev_next, n_ev, r + 1, q, 0)
                        top = max(top, r + 1)
                else:
                    cnt[q] -= 1
                    if cnt[q] == 0 and pend[q] == NONE and (flags[q] & 2) == 0:
                        rr = r + 1 if r + 1 > lossc[q] else lossc[q]
                        n_ev = _push(head, ev, ev_next, n_ev, rr, q, 1)
                        top = max(top, rr)
            if top > MAX_REMOTENESS:
                return TOO_DEEP
        r += 1
    for p in range(size):
        if flags[p] & 1 == 0:
            code[p] = DRAW
    return maxrem


@nb.njit(cache=True)
def count_codes(codes, counts):  # type: ignore[no-untyped-def]
    """Add how many entries hold each code to `counts` (int64, 65536 long)."""
    for i in range(codes.shape[0]):
        counts[codes[i]] += 1


def code_counts(codes: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """How many entries of `codes` hold each code (65536 long)."""
    counts = np.zeros(65536, np.int64)
    count_codes(codes, counts)
    return counts
