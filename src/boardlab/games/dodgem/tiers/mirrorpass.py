"""The first pass of a Dodgem tier stored with Piecepack's left-right mirror, row by row in
stored order, each move looked at once."""

from __future__ import annotations

import numba as nb

from boardlab.core.retrograde_body import begin, child_value, queued
from boardlab.core.retrograde_children import child_code
from boardlab.core.retrograde_work import BAD_CHILD, INVALID, NO_MOVES, NONE
from boardlab.games.dodgem.tiers.kernel import _half, _in_way, _rank
from boardlab.games.dodgem.tiers.layout import (
    O_KFIX,
    O_MIR,
    O_NBIG,
    O_NFIX,
    O_REC,
    O_SYMINV,
    O_SYMOFF,
    P_A,
    P_B,
    P_BLOCKED,
    P_K,
    P_MISERE,
    P_SLOTS,
    P_SYM,
    P_W,
    REC_KEY,
    REC_KIND,
    REC_Z,
)
from boardlab.games.dodgem.tiers.rows import _decided, _row_shape, _settle


@nb.njit(cache=True, inline="always")
def _mirror_moves(params, blob, child_base, side, x, y, fixed, g, other, q_seen):
    """Fold the moves of position (side, x, y) of a tier stored with the mirror, whose mover
    stands on placement g (of key a when the first side moves, else of key b): returns (c,
    legal, winc, lc, hd), or legal -1 for an invalid child. `fixed`: the placement the mover
    keeps (y, else x) is its own mirror, the only case where two sideways moves reach one
    stored position, which is then counted once (as un-moves list it once)."""
    a = params[P_A]
    b = params[P_B]
    k = params[P_K]
    sym = params[P_SYM]
    w = params[P_W]
    o = params[O_REC + side] + g * w
    winc, lc, hd, c, legal = NONE, 0, 0, 0, 0
    for j in range(w):
        r = blob[o + j]
        if r < 0:
            break
        if _in_way(r & 63, other):
            continue
        legal += 1
        z = r >> REC_Z
        if (r >> REC_KIND) & 3 == 0:
            if fixed:
                if side == 0:
                    q = _rank(params, blob, a, b, 1, z, y)
                else:
                    q = _rank(params, blob, a, b, 0, x, z)
                seen = False
                for i in range(c):
                    if q_seen[i] == q:
                        seen = True
                if seen:
                    continue
                q_seen[c] = q
            c += 1
            continue
        k2 = (r >> REC_KEY) & 4095
        if side == 0:
            s = params[P_SLOTS + k2]
            if sym and k2 > b:
                i = _rank(params, blob, b, k2, 0, y, z)
            else:
                i = _rank(params, blob, k2, b, 1, z, y)
        else:
            s = params[P_SLOTS + k + k2]
            if sym and a > k2:
                i = _rank(params, blob, k2, a, 1, z, x)
            else:
                i = _rank(params, blob, a, k2, 0, x, z)
        cc = child_code(child_base[s] + i)
        if cc == INVALID:
            return c, -1, winc, lc, hd
        winc, lc, hd = child_value(cc, winc, lc, hd)
    return c, legal, winc, lc, hd


@nb.njit(cache=True, inline="always")
def _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work):
    """`boardlab.core.retrograde_body.first_pass_body` for a tier stored with the mirror, row
    by row in stored order (a row: one side to move and one first placement x with mirror(x)
    >= x; when x is its own mirror, the row holds only the second placements y with
    mirror(y) >= y): no index is unranked, and each move is looked at once. Fills the same
    arrays with the same values (tested against it)."""
    begin(work)
    top = 0
    params, blob = ctx
    q_seen = work[6]
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    a = params[P_A]
    b = params[P_B]
    half = _half(params, blob, a, b)
    bh = (bsz + blob[params[O_KFIX] + b]) // 2
    omir = params[O_MIR]
    syminv = params[O_SYMINV] + blob[params[O_SYMOFF] + b]
    for side in range(2):
        for x in range(asz):
            ga = offa + x
            mx = blob[omir + ga] - offa
            if mx < x:
                continue  # stored as its mirror's row
            xfixed = mx == x
            start = side * half + blob[params[O_NBIG] + ga] * bsz
            start += blob[params[O_NFIX] + ga] * bh
            m0 = blob[om0 + ga]
            ncol = bh if xfixed else bsz
            for col in range(ncol):
                y = blob[syminv + col] if xfixed else col
                p = start + col
                g1 = offb + y
                m1 = blob[om1 + g1]
                if _decided(work, code, p, m0, m1, side, blocked, misere):
                    continue
                if side == 0:
                    yfixed = blob[omir + g1] == g1
                    c, legal, winc, lc, hd = _mirror_moves(
                        params, blob, child_base, 0, x, y, yfixed, ga, m1, q_seen
                    )
                else:
                    c, legal, winc, lc, hd = _mirror_moves(
                        params, blob, child_base, 1, x, y, xfixed, g1, m0, q_seen
                    )
                if legal < 0:
                    return BAD_CHILD
                lv = _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere)
                if lv < 0:
                    return NO_MOVES
                top = max(top, lv)
    queued(work, top)
    return 0
