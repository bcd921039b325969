"""The kernel's propagation for a Dodgem tier stored without the mirror and without passes
(every variant but Piecepack), with the un-moves written into it: the same levels, states and
queue as `boardlab.core.retrograde_body.propagate_body` (it is tested against it), but a decided
position's parents are worked out and updated in one loop, straight from the packed un-move
records, instead of being listed first and then read back."""

from __future__ import annotations

import numba as nb
import numpy as np

from boardlab.core.retrograde_body import _ctz, _queue, finish_propagation
from boardlab.core.retrograde_work import (
    CNT_ONE,
    CTL_TOP,
    DECIDED,
    DRAWN,
    MAX_REMOTENESS,
    TOO_DEEP,
    WIN,
)


@nb.njit(inline="always")
def _at(i):
    """An index known not to be negative, as numba indexes without a check for a negative
    one (a signed index costs two instructions more at every read and write)."""
    return np.uint64(i)


@nb.njit(inline="always")
def plain_propagate(shape, blob, size, code, work):
    """`propagate_body(plain_unmoves, (shape, blob), ...)` (see both), `shape` from
    `plain_shape`. A parent of p differs from it in the mover's placement only: its index is
    p's row or column with the placement before the move put back, and it is one only where
    the square the car came from is free (elsewhere the index is one of two cars on a square,
    an invalid index: decided, so that a win's parent there is left as it is)."""
    st, head, nxt, maps, ctl = work[0], work[1], work[2], work[3], work[4]
    lost, tallied = work[7], work[9]
    half, bsz, kinv, m0at, m1at, u0at, u1at, u = shape
    words = maps.shape[0] // 2
    used = (size + 63) // 64
    cur = maps[:words]
    nmap = maps[words:]
    maxrem = 0
    decided = 0
    top = ctl[CTL_TOP]
    r = 0
    one = np.uint64(1)
    while r <= top:
        if top > MAX_REMOTENESS:
            return TOO_DEEP  # the queue is left for the next `begin` to empty
        p = np.int64(head[r])
        head[r] = -1
        while p >= 0:
            cur[_at(p >> 6)] |= one << np.uint64(p & 63)
            p = np.int64(nxt[_at(p)])
        found = 0
        losses = 0
        marked = 0
        r1 = r + 1
        for wi in range(used):
            bits = cur[wi]
            if bits == 0:
                continue
            cur[wi] = 0
            while bits != 0:
                p = wi * 64 + np.int64(_ctz(bits))  # type: ignore[call-arg]
                bits &= bits - one
                s = st[_at(p)]
                if s & DECIDED:
                    if r != 0:
                        continue
                    is_loss = np.int64(code[_at(p)] & 1)  # finished in the first pass
                else:
                    is_loss = 1 - np.int64((s >> 1) & 1)
                    st[_at(p)] = s | DECIDED
                    code[_at(p)] = 2 + 2 * r + is_loss
                found += 1
                losses += is_loss
                # p = (side, x, y): its parents are (0, x before, y) if the first side moved
                # sideways (p has the second to move), else (1, x, y before)
                side = np.int64(p >= half)
                rest = p - side * half
                x = (rest * kinv) >> 32  # rest // bsz, as in `plain_unmoves`
                x -= np.int64(x * bsz > rest)
                y = rest - x * bsz
                if side == 1:
                    o = u0at + x * u
                    base = y
                    step = bsz
                else:
                    o = u1at + y * u
                    base = half + x * bsz
                    step = 1
                if is_loss:
                    occ = blob[_at(m0at + x)] | blob[_at(m1at + y)]
                    for j in range(u):
                        rec = blob[_at(o + j)]
                        if rec < 0:
                            break
                        q = base + (rec >> 8) * step
                        free = 1 - ((occ >> (rec & 255)) & 1)
                        st[_at(q)] |= np.uint8(WIN * free)
                        nmap[_at(q >> 6)] |= np.uint64(free) << np.uint64(q & 63)
                        marked += free
                    continue
                for j in range(u):
                    rec = blob[_at(o + j)]
                    if rec < 0:
                        break
                    q = base + (rec >> 8) * step
                    sq = np.int64(st[_at(q)])
                    sq -= CNT_ONE * np.int64(sq & (DECIDED | WIN) == 0)
                    st[_at(q)] = sq
                    if sq == 0:  # no move left: a loss unless a child is drawn
                        lc = np.int64(lost[_at(q)])
                        if lc & DRAWN == 0:
                            rr = max(r1, lc >> 1)
                            if rr == r1:
                                nmap[_at(q >> 6)] |= one << np.uint64(q & 63)
                                marked += 1
                            else:
                                _queue(work, q, rr)
                                top = max(top, rr)
        if found:
            maxrem = r
        tallied[2 + 2 * r] = found - losses
        tallied[3 + 2 * r] = losses
        decided += found
        if marked:
            top = max(top, r1)
        cur, nmap = nmap, cur
        r += 1
    finish_propagation(st, code, size, decided, tallied, ctl)
    return maxrem
