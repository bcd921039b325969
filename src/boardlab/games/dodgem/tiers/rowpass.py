"""The solver's entry for the Dodgem family: a first pass that walks a tier row by row (a
row: one side to move and one first placement), then the kernel's propagation, compiled
together; and the plain entry it is tested against."""

from __future__ import annotations

import numba as nb

from boardlab.core.retrograde import (
    BAD_CHILD,
    INVALID,
    NO_MOVES,
    NONE,
    TOO_BIG,
    child_code,
    child_value,
    propagate_body,
    record,
    solve_tier_body,
)
from boardlab.games.dodgem.kernel import BLOCKED_PASSES, terminal_winner
from boardlab.games.dodgem.tiers.kernel import (
    _half,
    _in_way,
    _moves_for_solve,
    _rank,
    dodgem_moves,
    dodgem_primitive,
    dodgem_unmoves,
)
from boardlab.games.dodgem.tiers.layout import (
    O_KFIX,
    O_KOFF,
    O_KSIZE,
    O_MASKS,
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
    P_MIR,
    P_MISERE,
    P_SLOTS,
    P_SYM,
    P_W,
    REC_KEY,
    REC_KIND,
    REC_Z,
)


@nb.njit(cache=True, inline="always")
def _decided(flags, code, p, m0, m1, side, blocked, misere):
    """For the row pass: settle p if it is an invalid index or finished by rule 1 (someone
    has cleared), and say so."""
    if m0 & m1:
        flags[p] = 1
        code[p] = INVALID
        return True
    winner = terminal_winner(m0, m1, side, 1, blocked, misere)
    if winner < 0:
        return False
    flags[p] = 1
    code[p] = 2 if winner == side else 3
    return True


@nb.njit(cache=True, inline="always")
def _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere):
    """Store what the row pass found of p (`legal` car moves, `c` of them sideways): a
    position without a car move is finished unless the rules pass; returns 0 or NO_MOVES."""
    if legal == 0:
        winner = terminal_winner(m0, m1, side, 0, blocked, misere)
        if winner >= 0:
            work[0][p] = 1
            code[p] = 2 if winner == side else 3
            return 0
        if blocked != BLOCKED_PASSES:
            return NO_MOVES
        c = 1  # the pass: the same placement, the other side to move
    record(work, p, c, winc, lc, hd)
    return 0


@nb.njit(cache=True, inline="always")
def _row_shape(params, blob):
    """(|A|, |B|, where keys a and b start, where each side's masks start) of a tier."""
    a = params[P_A]
    b = params[P_B]
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    return asz, bsz, offa, offb, params[O_MASKS], params[O_MASKS + 1]


@nb.njit(cache=True, inline="always")
def _shared_moves(params, blob, child_base, side, g, slot, idx):
    """The moves of `side`'s placement g, shared by the positions of a row (the first side
    on x = g's number: they differ in y) or of a column (the second side on y: they differ
    in x), tier stored without the mirror: per move, in `slot` the child entry of the
    position with the other placement 0, as its child's `child_base` plus its index (in the
    solve an address, see `child_code`; in reachability a flat offset), or for a sideways
    move, inside the tier, to placement z: -1 - z; and in `idx` its stride in that placement
    | (destination square + 1) << 40. Returns how many."""
    other = params[P_B] if side == 0 else params[P_A]
    osz = blob[params[O_KSIZE] + other]
    o = params[O_REC + side] + g * params[P_W]
    nj = 0
    for j in range(params[P_W]):
        r = blob[o + j]
        if r < 0:
            break
        dest = (r & 63) << 40
        z = r >> REC_Z
        if (r >> REC_KIND) & 3 == 0:
            slot[nj] = -1 - z
            idx[nj] = dest
        else:
            k2 = (r >> REC_KEY) & 4095
            ksz = blob[params[O_KSIZE] + k2]
            at = child_base[params[P_SLOTS + side * params[P_K] + k2]]
            # the child tier is (k2, b) or (a, k2), stored swapped where its first key is
            # the larger; the varying placement is then either its last index (stride 1)
            # or the first (stride |k2|)
            swapped = params[P_SYM] != 0 and (k2 > other if side == 0 else other > k2)
            if swapped == (side == 1):  # (1, z, y) of (k2, b), or (1, z, x) of (k2, a)
                slot[nj] = at + (ksz + z) * osz
                idx[nj] = dest | 1
            else:  # (0, y, z) of (b, k2), or (0, x, z) of (a, k2)
                slot[nj] = at + z
                idx[nj] = dest | ksz
        nj += 1
    return nj


@nb.njit(cache=True, inline="always")
def _fold_shared(slot, idx, nj, other, k):
    """Fold the `nj` moves a row (a column) shares, as `_shared_moves` wrote them, for its
    position whose other side stands on the squares of `other` and that lies k strides into
    the row's children: (in-tier moves, legal moves, winc, lc, hd), legal -1 when a child's
    entry is invalid."""
    winc, lc, hd, c, legal = NONE, 0, 0, 0, 0
    for j in range(nj):
        e = idx[j]
        if _in_way(e >> 40, other):
            continue
        legal += 1
        at = slot[j]
        if at < 0:
            c += 1
            continue
        cc = child_code(at + k * (e & 0xFFFFFFFFFF))
        if cc == INVALID:
            return c, -1, winc, lc, hd
        winc, lc, hd = child_value(cc, winc, lc, hd)
    return c, legal, winc, lc, hd


@nb.njit(cache=True, inline="always")
def _first_pass_rows(ctx, size, child_codes, child_base, code, work):
    """`boardlab.core.retrograde.first_pass_body` for a tier stored without the mirror: the
    first side's positions row by row (one x), the second side's column by column (one y).
    The positions of a row (a column) share the moving side's moves, so their children are
    found once and read at a fixed stride, where they lie (`child_base`: the children's
    addresses, see `boardlab.core.retrograde.child_addresses`; `child_codes` is unused).
    Fills the same arrays with the same values (tested against it)."""
    params, blob = ctx
    flags, slot, idx = work[0], work[7], work[8]
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    half = asz * bsz
    for x in range(asz):
        g0 = offa + x
        m0 = blob[om0 + g0]
        nj = _shared_moves(params, blob, child_base, 0, g0, slot, idx)
        row = x * bsz
        for y in range(bsz):
            p = row + y
            m1 = blob[om1 + offb + y]
            if _decided(flags, code, p, m0, m1, 0, blocked, misere):
                continue
            c, legal, winc, lc, hd = _fold_shared(slot, idx, nj, m1, y)
            if legal < 0:
                return BAD_CHILD
            if _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 0, blocked, misere) < 0:
                return NO_MOVES
    # the second side to move: a column (one y) shares its moves, and a column's children
    # lie at a fixed stride in x
    for y in range(bsz):
        g1 = offb + y
        m1 = blob[om1 + g1]
        nj = _shared_moves(params, blob, child_base, 1, g1, slot, idx)
        for x in range(asz):
            p = half + x * bsz + y
            m0 = blob[om0 + offa + x]
            if _decided(flags, code, p, m0, m1, 1, blocked, misere):
                continue
            c, legal, winc, lc, hd = _fold_shared(slot, idx, nj, m0, x)
            if legal < 0:
                return BAD_CHILD
            if _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 1, blocked, misere) < 0:
                return NO_MOVES
    return 0


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
    """`boardlab.core.retrograde.first_pass_body` for a tier stored with the mirror, row by
    row in stored order (a row: one side to move and one first placement x with mirror(x)
    >= x; when x is its own mirror, the row holds only the second placements y with
    mirror(y) >= y): no index is unranked, and each move is looked at once. Fills the same
    arrays with the same values (tested against it)."""
    params, blob = ctx
    flags = work[0]
    q_seen = work[8]
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
                if _decided(flags, code, p, m0, m1, side, blocked, misere):
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
                if _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere):
                    return NO_MOVES
    return 0


KERNEL_FUNCS = (dodgem_primitive, dodgem_moves, dodgem_unmoves)


# the retrograde kernel with the functions above inlined, compiled without reference counting
# (it allocates nothing) and cached on disk
@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_solve_tier(ctx, size, max_moves, child_codes, child_base, code, work):
    """`boardlab.core.retrograde.solve_tier_body` for the Dodgem family: the row pass
    (`_first_pass_rows`) where the tier is stored without the mirror, then the kernel's
    propagation. It reads the children where they lie: `child_base` from
    `boardlab.core.retrograde.child_addresses`, `child_codes` unused (no copy of them)."""
    if size >= (1 << 29):
        return TOO_BIG
    if ctx[0][P_MIR]:
        status = _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work)
    else:
        status = _first_pass_rows(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_body(dodgem_unmoves, ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_first_pass(ctx, size, child_codes, child_base, code, work):
    """The first half of `dodgem_solve_tier` (the solver times the halves apart)."""
    if size >= (1 << 29):
        return TOO_BIG
    if ctx[0][P_MIR]:
        return _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work)
    return _first_pass_rows(ctx, size, child_codes, child_base, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_propagate(ctx, size, code, work):
    """The second half of `dodgem_solve_tier`."""
    return propagate_body(dodgem_unmoves, ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_solve_tier_plain(ctx, size, max_moves, child_codes, child_base, code, work):
    """The same with the kernel's own first pass, one position at a time: the reference the
    row pass is tested against (its children side by side, as `side_by_side` sets them)."""
    return solve_tier_body(
        dodgem_primitive,
        _moves_for_solve,
        dodgem_unmoves,
        ctx,
        size,
        max_moves,
        child_codes,
        child_base,
        code,
        work,
    )
