"""The first pass of a Dodgem tier stored without the mirror, a line at a time: the first
side's positions row by row (one x), the second side's column by column (one y). The
positions of a line share the moving side's moves, so their children are found once and
read at a fixed stride, move by move, without a branch on a position."""

from __future__ import annotations

import numba as nb
import numpy as np

from boardlab.core.retrograde_body import begin, queued
from boardlab.core.retrograde_children import child_code, child_run, prefetch
from boardlab.core.retrograde_work import (
    BAD_CHILD,
    CNT_ONE,
    DECIDED,
    DRAW,
    INVALID,
    LINE,
    NO_MOVES,
    NONE,
    PARKED,
    TOO_BIG,
    WIN,
)
from boardlab.games.dodgem.tiers.layout import P_BLOCKED, P_MISERE
from boardlab.games.dodgem.tiers.rows import _decided, _row_shape, _settle, _shared_moves


@nb.njit(cache=True, inline="always")
def _line(work, code, slot, idx, nj, side, mover, omasks, n, start, pstep, blocked, misere):
    """The row pass over one line: the n positions p = start + k * pstep (k < n) where the
    side to move stands on `mover` and shares the `nj` moves of `_shared_moves`, the other
    side on `omasks[k]`. Move by move over the line's undecided positions, without a branch
    on a position (their children's codes follow no pattern a processor predicts): per
    position, its in-tier moves, legal moves, drawn child and invalid child in one word, its
    fastest win and longest loss in two more (`LINE` of each, in `work[8]`). Returns the
    largest level queued, or BAD_CHILD / NO_MOVES."""
    scr = work[8]
    ks = scr[:LINE]
    om = scr[LINE : 2 * LINE]
    aw = scr[2 * LINE : 3 * LINE]
    al = scr[3 * LINE : 4 * LINE]
    af = scr[4 * LINE :]
    nv = 0
    for k in range(n):
        other = omasks[k]
        m0, m1 = (mover, other) if side == 0 else (other, mover)
        if _decided(work, code, start + k * pstep, m0, m1, side, blocked, misere):
            continue
        ks[nv] = k
        om[nv] = other
        aw[nv] = NONE
        al[nv] = 0
        af[nv] = 0
        nv += 1
    _fold_moves(slot, idx, nj, nv, ks, om, aw, al, af)
    top = 0
    for i in range(nv):
        f = af[i]
        if f >> 17:
            return BAD_CHILD
        other = om[i]
        m0, m1 = (mover, other) if side == 0 else (other, mover)
        p = start + ks[i] * pstep
        c, legal, hd = f & 255, (f >> 8) & 255, (f >> 16) & 1
        lv = _settle(work, code, p, c, aw[i], al[i], hd, legal, m0, m1, side, blocked, misere)
        if lv < 0:
            return NO_MOVES
        top = max(top, lv)
    return top


@nb.njit(cache=True, inline="always")
def _line_live(work, code, slot, idx, nj, side, mover, omasks, n, start, pstep, blocked, misere):
    """`_line` for a tier where both sides have cars (nobody has cleared), whose entries
    `_first_pass_rows` has all set to invalid beforehand. The moves are folded into every
    index of the line, one whose placements overlap (about half) too, its result then
    dropped: the loops have no gaps and no branch, and where a child's entries lie one after
    the other the compiler vectorises them (a third of the time of a loop over the valid
    positions only, in a plain test). Each valid position is then stored and queued without a
    branch (where it is not queued, it is parked: see `PARKED`)."""
    scr = work[8]
    ks = scr[:LINE]
    aw = scr[2 * LINE : 3 * LINE]
    al = scr[3 * LINE : 4 * LINE]
    af = scr[4 * LINE :]
    for k in range(n):
        aw[k] = NONE
        al[k] = 0
        af[k] = 0
    nv = np.int64(0)
    for k in range(n):
        ks[nv] = k
        nv += np.int64(mover & omasks[k] == 0)
    _fold_all(slot, idx, nj, n, nv, ks, omasks, aw, al, af)
    st, head, nxt, lost = work[0], work[1], work[2], work[7]
    top = 0
    bad = 0
    for i in range(nv):
        e = np.uint64(ks[i])  # indices known not negative (see `plain_propagate`)
        f = af[e]
        bad |= f
        p = start + np.int64(e) * pstep
        c, legal, hd = f & 255, (f >> 8) & 255, (f >> 16) & 1
        winc = aw[e]
        lc = al[e]
        if legal == 0:  # rare: no car move
            other = omasks[e]
            m0, m1 = (mover, other) if side == 0 else (other, mover)
            lv = _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere)
            if lv < 0:
                return NO_MOVES
            top = max(top, lv)
            continue
        win = np.int64(winc < NONE)
        at = np.uint64(p)
        st[at] = np.uint8(win * WIN + c * CNT_ONE)
        lost[at] = np.uint16((lc << 1) | hd)
        # queued: a win in winc, or a loss in lc with no move left inside the tier
        lose = (1 - win) * np.int64(c == 0) * (1 - hd)
        lv = win * winc + lose * lc
        r = np.uint64(lv + (1 - win - lose) * (PARKED - lv))
        nxt[at] = head[r]
        head[r] = p
        top = max(top, lv)
    if bad >> 17:
        return BAD_CHILD
    return top


AHEAD = 12  # reads ahead that a strided loop asks for (past the list: a useless, harmless hint)


@nb.njit(cache=True, inline="always")
def _fold_all(slot, idx, nj, n, nv, ks, om, aw, al, af):
    """`_fold_moves` into entry k of a line for the other side on `om[k]`: for every k < n
    where the child's entries lie one after the other, else for the `nv` valid positions
    `ks[:nv]` only (each read there is a cache line of its own: half of them would be for
    nothing)."""
    for j in range(nj):
        e = idx[j]
        d1 = e >> 40
        need = np.int64(d1 > 0)
        sh = (d1 - 1) & 63
        at = slot[j]
        if at < 0:
            for k in range(n):
                free = 1 - (need & (om[k] >> sh) & 1)
                af[k] += free * (256 + 1)
            continue
        stride = e & 0xFFFFFFFFFF
        run = child_run(at)
        if stride == 1:
            for k in range(n):
                _fold_one(run[k], need, sh, om, aw, al, af, k)
        else:  # a cache line a read: asked for a few reads ahead
            for i in range(nv):
                prefetch((at + ks[i + AHEAD] * stride) << 1)  # type: ignore[call-arg]
                k = np.uint64(ks[i])
                _fold_one(run[k * np.uint64(stride)], need, sh, om, aw, al, af, k)


@nb.njit(cache=True, inline="always")
def _fold_one(code16, need, sh, om, aw, al, af, k):
    """Fold one child's code into entry k of a line (see `_line`)."""
    free = 1 - (need & (om[k] >> sh) & 1)
    cc = np.int64(code16)
    odd = cc & 1
    is_draw = np.int64(cc == DRAW)
    won = free & odd & (1 - is_draw)  # a loss for the opponent: a win in r + 1
    aw[k] = min(aw[k], NONE + won * (((cc - 1) >> 1) - NONE))
    al[k] = max(al[k], (cc >> 1) * (1 - odd) * free)
    bad = free & np.int64(cc == INVALID)
    af[k] = (af[k] + free * 256) | ((free & is_draw) << 16) | (bad << 17)


@nb.njit(cache=True, inline="always")
def _fold_moves(slot, idx, nj, nv, ks, om, aw, al, af):
    """Fold the `nj` shared moves into the `nv` listed positions of a line (see `_line`)."""
    for j in range(nj):
        e = idx[j]
        d1 = e >> 40  # destination square + 1, 0 an exit (never in the way)
        need = np.int64(d1 > 0)
        sh = (d1 - 1) & 63
        at = slot[j]
        if at < 0:
            for i in range(nv):
                free = 1 - (need & (om[i] >> sh) & 1)
                af[i] += free * (256 + 1)
            continue
        stride = e & 0xFFFFFFFFFF
        for i in range(nv):
            _fold_one(child_code(at + ks[i] * stride), need, sh, om, aw, al, af, i)


@nb.njit(cache=True, inline="always")
def _first_pass_rows(ctx, size, child_codes, child_base, code, work):
    """`boardlab.core.retrograde_body.first_pass_body` for a tier stored without the
    mirror: the first side's positions row by row (one x), the second side's column by column
    (one y). The positions of a row (a column) share the moving side's moves, so their
    children are found once and read at a fixed stride, where they lie (`child_base`: the
    children's addresses, see `boardlab.core.retrograde_children.child_addresses`;
    `child_codes` is unused), move by move (`_line`). Fills the same arrays with the same
    values (tested against it)."""
    begin(work)
    top = 0
    params, blob = ctx
    slot, idx = work[5], work[6]
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    if asz > LINE or bsz > LINE:
        return TOO_BIG  # no board up to 6×6 has lines that long
    half = asz * bsz
    m1s = blob[om1 + offb : om1 + offb + bsz]
    m0s = blob[om0 + offa : om0 + offa + asz]
    # where both keys have cars (a key without is one placement, the empty board), nobody has
    # cleared: an index is invalid exactly where its placements overlap
    live = m0s[0] != 0 and m1s[0] != 0
    if live:
        st = work[0]
        for p in range(size):  # without a branch: the compiler vectorises it
            st[p] = DECIDED
            code[p] = INVALID
    for x in range(asz):
        g0 = offa + x
        nj = _shared_moves(params, blob, child_base, 0, g0, slot, idx)
        if live:
            lv = _line_live(
                work, code, slot, idx, nj, 0, blob[om0 + g0], m1s, bsz, x * bsz, 1, blocked, misere
            )
        else:
            lv = _line(
                work, code, slot, idx, nj, 0, blob[om0 + g0], m1s, bsz, x * bsz, 1, blocked, misere
            )
        if lv < 0:
            return lv
        top = max(top, lv)
    # the second side to move: a column (one y) shares its moves, and a column's children
    # lie at a fixed stride in x
    for y in range(bsz):
        g1 = offb + y
        nj = _shared_moves(params, blob, child_base, 1, g1, slot, idx)
        mover = blob[om1 + g1]
        if live:
            lv = _line_live(
                work, code, slot, idx, nj, 1, mover, m0s, asz, half + y, bsz, blocked, misere
            )
        else:
            lv = _line(
                work, code, slot, idx, nj, 1, mover, m0s, asz, half + y, bsz, blocked, misere
            )
        if lv < 0:
            return lv
        top = max(top, lv)
    queued(work, top)
    return 0
