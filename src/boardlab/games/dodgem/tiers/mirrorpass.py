"""The first pass of a Dodgem tier stored with Piecepack's left-right mirror: the first
side's positions row by row (one x), the second side's column by column (one y). The
positions of a row (a column) share the moving side's moves, so what a move's child index
owes to the move alone (its child tier, where the child's row starts, which of the child's
forms is stored) is worked out once for the line; a position then adds the part that comes
from the other side's placement: that placement, its mirror image or its rank among the
placements not above their mirror (`kernel._rank` spelt out, tested against it)."""

from __future__ import annotations

import numba as nb

from boardlab.core.retrograde_body import begin, child_value, queued
from boardlab.core.retrograde_children import child_code
from boardlab.core.retrograde_work import BAD_CHILD, INVALID, LINE, NO_MOVES, NONE, TOO_BIG
from boardlab.games.dodgem.tiers.kernel import _half, _in_way
from boardlab.games.dodgem.tiers.layout import (
    O_KFIX,
    O_KOFF,
    O_KSIZE,
    O_MIR,
    O_NBIG,
    O_NFIX,
    O_REC,
    O_SYMINV,
    O_SYMOFF,
    O_SYMR,
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

# The shared moves lie in the first pass's scratch words (`work[8]`), one field of MW words
# each, indexed by the move: the destination square + 1 (0 an exit), the kind of move, the
# part of the child's index fixed by the move, a selector, and for a K_COL move the sizes
# that scale the other placement's row and the three forms of the move's new placement.
MW = 32  # moves of a placement, at most (3 per car: 18 on 7×7)
(F_DEST, F_KIND, F_BASE, F_SEL, F_SZ, F_H, F_Z0) = range(7)  # F_Z0, F_Z0 + 1, F_Z0 + 2
F_END = (F_Z0 + 3) * MW  # the second side's stored first placements are listed from here
# kinds of move: sideways (inside the tier); forward into a child tier whose first placement
# is the mover's new one, so the move fixes the child's row (K_ROW); forward into a child
# tier whose first placement is the other side's (K_COL: the move fixes the column's form)
K_SIDE, K_ROW, K_COL = 0, 1, 2


@nb.njit(cache=True, inline="always")
def _forms(params, blob, off, v):
    """Of placement v of the key whose placements start at `off`: which form a stored pair
    keeps (0: v is below its mirror, kept as it is; 1: above, both placements mirrored; 2:
    its own mirror), its mirror, the rank `O_SYMR` of the smaller of the two, and how many
    placements before that one are below / equal to their mirror (where its row starts)."""
    mv = blob[params[O_MIR] + off + v] - off
    form = 0 if mv > v else (1 if mv < v else 2)
    cv = min(v, mv)
    return (
        form,
        mv,
        blob[params[O_SYMR] + off + cv],
        blob[params[O_NBIG] + off + cv],
        blob[params[O_NFIX] + off + cv],
    )


@nb.njit(cache=True, inline="always")
def _mirror_shared_moves(params, blob, child_base, side, g, sc):
    """The moves of `side`'s placement g (number m within its key), shared by a line of a tier
    stored with the mirror, the other side's placement v varying (key `o`), into `sc`'s
    fields; returns how many. A move to the mover's new placement z:

    * sideways (K_SIDE): F_SEL the earlier move to z's mirror image, else -1 (where v is its
      own mirror, the two reach one stored position);
    * K_ROW, into child (1, z, v) of tier (k2, o): the child's index is F_BASE (the child's
      entries, its second half and the start of z's or its mirror's row) plus v, its mirror
      or its rank, as F_SEL (z's form) says;
    * K_COL, into child (0, v, z) of tier (o, k2): F_BASE plus the start of v's row (v's
      `_forms` counts times F_SZ and F_H) plus field F_Z0 + v's form (z, its mirror, its
      rank)."""
    a = params[P_A]
    b = params[P_B]
    k = params[P_K]
    sym = params[P_SYM]
    w = params[P_W]
    o = b if side == 0 else a
    osz = blob[params[O_KSIZE] + o]
    oh = (osz + blob[params[O_KFIX] + o]) // 2
    moff = blob[params[O_KOFF] + (a if side == 0 else b)]
    at = params[O_REC + side] + g * w
    nj = 0
    for j in range(w):
        r = blob[at + j]
        if r < 0:
            break
        z = r >> REC_Z
        sc[F_DEST * MW + nj] = r & 63
        if (r >> REC_KIND) & 3 == 0:
            mz = blob[params[O_MIR] + moff + z] - moff
            twin = -1
            for i in range(nj):
                if sc[F_KIND * MW + i] == K_SIDE and sc[F_Z0 * MW + i] == mz and mz != z:
                    twin = i
            sc[F_KIND * MW + nj] = K_SIDE
            sc[F_SEL * MW + nj] = twin
            sc[F_Z0 * MW + nj] = z
            nj += 1
            continue
        k2 = (r >> REC_KEY) & 4095
        base = child_base[params[P_SLOTS + side * k + k2]]
        koff = blob[params[O_KOFF] + k2]
        zform, mz, zr, znb, znf = _forms(params, blob, koff, z)
        # the child tier: (k2, b) when the first side moves, (a, k2) when the second does,
        # stored swapped where its first key is the larger; its first placement is then z
        # (K_ROW) for the first side's move not swapped and the second side's swapped
        swapped = sym != 0 and (k2 > o if side == 0 else o > k2)
        if swapped == (side == 1):
            sc[F_KIND * MW + nj] = K_ROW
            sc[F_BASE * MW + nj] = base + _half(params, blob, k2, o) + znb * osz + znf * oh
            sc[F_SEL * MW + nj] = zform
        else:
            ksz = blob[params[O_KSIZE] + k2]
            sc[F_KIND * MW + nj] = K_COL
            sc[F_BASE * MW + nj] = base
            sc[F_SZ * MW + nj] = ksz
            sc[F_H * MW + nj] = (ksz + blob[params[O_KFIX] + k2]) // 2
            sc[F_Z0 * MW + nj] = z
            sc[(F_Z0 + 1) * MW + nj] = mz
            sc[(F_Z0 + 2) * MW + nj] = zr
        nj += 1
    return nj


@nb.njit(cache=True, inline="always")
def _fold_mirror_moves(sc, nj, other, v, vform, mv, vr, vnb, vnf):
    """Fold the `nj` shared moves of `sc` into one position, the other side on placement v
    (mask `other`, v's `_forms` the rest): returns (c, legal, winc, lc, hd), or legal -1 for
    an invalid child. Where v is its own mirror, two sideways moves to mirror images reach one
    stored position, which is counted once (as un-moves list it once)."""
    winc, lc, hd, c, legal = NONE, 0, 0, 0, 0
    for j in range(nj):
        if _in_way(sc[F_DEST * MW + j], other):
            continue
        legal += 1
        kind = sc[F_KIND * MW + j]
        if kind == K_SIDE:
            twin = sc[F_SEL * MW + j]
            if vform == 2 and twin >= 0 and not _in_way(sc[F_DEST * MW + twin], other):
                continue
            c += 1
            continue
        if kind == K_ROW:
            sel = sc[F_SEL * MW + j]
            i = sc[F_BASE * MW + j] + (v if sel == 0 else (mv if sel == 1 else vr))
        else:
            i = sc[F_BASE * MW + j] + vnb * sc[F_SZ * MW + j] + vnf * sc[F_H * MW + j]
            i += sc[(F_Z0 + vform) * MW + j]
        cc = child_code(i)
        if cc == INVALID:
            return c, -1, winc, lc, hd
        winc, lc, hd = child_value(cc, winc, lc, hd)
    return c, legal, winc, lc, hd


@nb.njit(cache=True, inline="always")
def _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work):
    """`boardlab.core.retrograde_body.first_pass_body` for a tier stored with the mirror
    (stored rows: one side to move and one first placement x with mirror(x) >= x; when x is
    its own mirror, the row holds only the second placements y with mirror(y) >= y). The
    first side's positions row by row in stored order, the second side's column by column
    (one y, every stored x), each line's moves worked out once (`_mirror_shared_moves`).
    No index is unranked. Fills the same arrays with the same values (tested against it)."""
    begin(work)
    top = 0
    params, blob = ctx
    sc = work[8]
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    if params[P_W] > MW or F_END + asz > 5 * LINE:
        return TOO_BIG  # no board up to 6×6 has that many moves or placements of a key
    a = params[P_A]
    b = params[P_B]
    half = _half(params, blob, a, b)
    bh = (bsz + blob[params[O_KFIX] + b]) // 2
    omir = params[O_MIR]
    syminv = params[O_SYMINV] + blob[params[O_SYMOFF] + b]
    for x in range(asz):  # the first side to move: row x
        ga = offa + x
        mx = blob[omir + ga] - offa
        if mx < x:
            continue  # stored as its mirror's row
        xfixed = mx == x
        start = blob[params[O_NBIG] + ga] * bsz + blob[params[O_NFIX] + ga] * bh
        m0 = blob[om0 + ga]
        nj = _mirror_shared_moves(params, blob, child_base, 0, ga, sc)
        for col in range(bh if xfixed else bsz):
            y = blob[syminv + col] if xfixed else col
            p = start + col
            m1 = blob[om1 + offb + y]
            if _decided(work, code, p, m0, m1, 0, blocked, misere):
                continue
            yform, my, yr, ynb, ynf = _forms(params, blob, offb, y)
            c, legal, winc, lc, hd = _fold_mirror_moves(sc, nj, m1, y, yform, my, yr, ynb, ynf)
            if legal < 0:
                return BAD_CHILD
            lv = _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 0, blocked, misere)
            if lv < 0:
                return NO_MOVES
            top = max(top, lv)
    # the second side to move: a column (one y) shares its moves; its stored positions are
    # (x, y) for every x below its mirror and, where y is not above its own, every x that is
    # its own mirror (at column rank(y)); the stored x listed once
    nx = 0
    for x in range(asz):
        if blob[omir + offa + x] - offa >= x:
            sc[F_END + nx] = x
            nx += 1
    for y in range(bsz):
        g1 = offb + y
        my = blob[omir + g1] - offb
        yr = blob[params[O_SYMR] + g1]  # y's column in a row x that is its own mirror
        m1 = blob[om1 + g1]
        nj = _mirror_shared_moves(params, blob, child_base, 1, g1, sc)
        for i in range(nx):
            x = sc[F_END + i]
            ga = offa + x
            mx = blob[omir + ga] - offa
            xfixed = mx == x
            if xfixed and my < y:
                continue  # stored in column my
            xnb = blob[params[O_NBIG] + ga]
            xnf = blob[params[O_NFIX] + ga]
            p = half + xnb * bsz + xnf * bh + (yr if xfixed else y)
            m0 = blob[om0 + ga]
            if _decided(work, code, p, m0, m1, 1, blocked, misere):
                continue
            xform = 2 if xfixed else 0
            xr = blob[params[O_SYMR] + ga]
            c, legal, winc, lc, hd = _fold_mirror_moves(sc, nj, m0, x, xform, mx, xr, xnb, xnf)
            if legal < 0:
                return BAD_CHILD
            lv = _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 1, blocked, misere)
            if lv < 0:
                return NO_MOVES
            top = max(top, lv)
    queued(work, top)
    return 0
