"""The reachability walk of `stats` for the Dodgem family, row by row like the solve."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from boardlab.core.retrograde_reach import reach_tier_body
from boardlab.core.retrograde_work import INVALID
from boardlab.games.dodgem.kernel import BLOCKED_PASSES
from boardlab.games.dodgem.tiers.kernel import _in_way, dodgem_moves, dodgem_primitive
from boardlab.games.dodgem.tiers.layout import P_BLOCKED
from boardlab.games.dodgem.tiers.rows import _row_shape, _shared_moves


@nb.njit(cache=True, inline="always")
def _finished(cd):
    """Whether a solved code is an invalid index or a finished position (remoteness 0)."""
    return cd == INVALID or cd == 2 or cd == 3


@nb.njit(cache=True, inline="always")
def _follow(
    mark,
    child_marks,
    counts,
    codes,
    pending,
    slot,
    idx,
    nj,
    p,
    k,
    other,
    at,
    step,
    pend,
    passq,
    passes,
):
    """One reached position p of a row or column of `_reach_rows`: count it, and unless it
    is finished follow its moves (`slot`, `idx` as the row or column has them, k its place
    along it, `other` the opponent's cars): children are marked, a sideways move to z marks
    `at + z * step` and a pass marks `passq`, each flagging `pending[pend]`. Returns whether
    it marked a position of the tier."""
    mark[p] = 2
    counts[codes[p]] += 1
    if _finished(codes[p]):
        return False
    # without a branch on whether a move is blocked (it cannot be predicted): a blocked
    # move ORs 0 into its child's mark, which exists all the same
    legal = 0
    fresh = np.uint8(0)
    for j in range(nj):
        e = idx[j]
        free = np.uint8(not _in_way(e >> 40, other))
        legal += int(free)
        s = slot[j]
        if s >= 0:
            q = s + k * (e & 0xFFFFFFFFFF)
            child_marks[q] |= free
        else:
            q = at + (-1 - s) * step
            new = free & (mark[q] == 0)
            mark[q] |= new
            fresh |= new
    inside = fresh != 0
    if legal == 0 and passes and mark[passq] == 0:
        mark[passq] = 1
        inside = True
    if inside:
        pending[pend] = 1
    return inside


@nb.njit(cache=True, inline="always")
def _reach_rows(ctx, mark, child_marks, child_base, codes, counts, pending, slot, idx):
    """`boardlab.core.retrograde_reach.reach_tier_body` for a tier stored without the mirror, in
    sweeps instead of depth first. A mark is 1 when reached and 2 once its moves are
    followed. The first side's positions are swept row by row (same x: the same moves, their
    children at a fixed stride in y, as in `_first_pass_rows`), the second side's column by
    column (same y: the same moves, at a fixed stride in x). Moves inside the tier (sideways
    moves, passes) mark their targets and flag the target's row or column as pending
    (`pending[x]`, `pending[|A| + y]`); the sweeps repeat until nothing is pending.
    Finished positions are known from the codes (remoteness 0)."""
    params, blob = ctx
    passes = params[P_BLOCKED] == BLOCKED_PASSES
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    half = asz * bsz
    for i in range(asz + bsz):
        pending[i] = 0
    for x in range(asz):  # which rows and columns hold a mark (no branch per position)
        row = x * bsz
        seen = 0
        for y in range(bsz):
            seen |= mark[row + y]
            pending[asz + y] |= mark[half + row + y]
        pending[x] = seen
    more = True
    while more:
        more = False
        for x in range(asz):  # the first side to move, row by row
            if pending[x] == 0:
                continue
            pending[x] = 0
            nj = _shared_moves(params, blob, child_base, 0, offa + x, slot, idx)
            row = x * bsz
            for y in range(bsz):
                p = row + y
                if mark[p] == 1:  # its sideways moves and pass lead to (1, z, y)
                    m1 = blob[om1 + offb + y]
                    _follow(
                        mark,
                        child_marks,
                        counts,
                        codes,
                        pending,
                        slot,
                        idx,
                        nj,
                        p,
                        y,
                        m1,
                        half + y,
                        bsz,
                        asz + y,
                        p + half,
                        passes,
                    )
        for y in range(bsz):  # the second side to move, column by column
            if pending[asz + y] == 0:
                continue
            pending[asz + y] = 0
            nj = _shared_moves(params, blob, child_base, 1, offb + y, slot, idx)
            for x in range(asz):
                p = half + x * bsz + y
                # its sideways moves and pass lead to (0, x, z): another sweep of the rows
                if mark[p] == 1 and _follow(
                    mark,
                    child_marks,
                    counts,
                    codes,
                    pending,
                    slot,
                    idx,
                    nj,
                    p,
                    x,
                    blob[om0 + offa + x],
                    x * bsz,
                    1,
                    x,
                    p - half,
                    passes,
                ):
                    more = True
    return 0


@nb.njit(cache=True, nogil=True, _nrt=False)
def reach_rows(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx):
    """`boardlab.core.retrograde_reach.reach_tier_body` for the Dodgem family, for a tier
    stored without the mirror (as in the full game `stats` walks): `_reach_rows`."""
    return _reach_rows(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx)


@nb.njit(cache=True, nogil=True, _nrt=False)
def reach_mirror(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx):
    """The same for a tier stored with the mirror: the kernel's own walk."""
    return reach_tier_body(
        dodgem_primitive,
        dodgem_moves,
        ctx,
        mark,
        child_marks,
        child_base,
        codes,
        counts,
        stack,
        slot,
        idx,
    )


def dodgem_reach_tier(mirror: bool) -> Any:
    """The compiled reachability walk for tiers stored with the mirror or not (one entry
    each, so that a process compiles only the one it walks)."""
    return reach_mirror if mirror else reach_rows
