"""Compiled per-position functions of the Dodgem tier game: rank and unrank within a tier,
the finished positions, moves and un-moves, handed to the retrograde kernel; and the
symmetry helpers (unfolding a stored tier, orbit-weighted counts)."""

from __future__ import annotations

import numba as nb
import numpy as np

from boardlab.games.dodgem.kernel import BLOCKED_PASSES, terminal_winner
from boardlab.games.dodgem.tiers.layout import (
    O_KFIX,
    O_KINV,
    O_KOFF,
    O_KSIZE,
    O_MASKS,
    O_MIR,
    O_NBIG,
    O_NFIX,
    O_REC,
    O_SYMINV,
    O_SYMOFF,
    O_SYMR,
    O_UNREC,
    P_A,
    P_B,
    P_BLOCKED,
    P_K,
    P_MIR,
    P_MISERE,
    P_SLOTS,
    P_SYM,
    P_U,
    P_W,
    REC_KEY,
    REC_KIND,
    REC_Z,
)


@nb.njit(cache=True, inline="always")
def _half(params, blob, a, b):
    """Stored (first, second) placement pairs of keys a and b, per side to move."""
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    if params[P_MIR] == 0:
        return asz * bsz
    af = blob[params[O_KFIX] + a]
    bf = blob[params[O_KFIX] + b]
    return (asz - af) // 2 * bsz + af * ((bsz + bf) // 2)


@nb.njit(cache=True, inline="always")
def _rank(params, blob, a, b, side, x, y):
    """Index of (side, x, y) in the stored tier (a, b): with the mirror, of its canonical
    form (the smaller of (x, y) and (mirror x, mirror y))."""
    bsz = blob[params[O_KSIZE] + b]
    if params[P_MIR] == 0:
        return (side * blob[params[O_KSIZE] + a] + x) * bsz + y
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    mx = blob[params[O_MIR] + offa + x] - offa
    fixed = mx == x
    if mx < x:
        x = mx
        y = blob[params[O_MIR] + offb + y] - offb
    ga = offa + x
    bh = (bsz + blob[params[O_KFIX] + b]) // 2
    row = blob[params[O_NBIG] + ga] * bsz + blob[params[O_NFIX] + ga] * bh
    if fixed:
        my = blob[params[O_MIR] + offb + y] - offb
        if my < y:
            y = my
        col = blob[params[O_SYMR] + offb + y]
    else:
        col = y
    return side * _half(params, blob, a, b) + row + col


@nb.njit(cache=True, inline="always")
def _unrank(params, blob, a, b, p):
    """(side, x, y) of index p of the stored tier (a, b)."""
    half = _half(params, blob, a, b)
    side = 1 if p >= half else 0  # p < 2 * half: no division
    r = p - side * half
    bsz = blob[params[O_KSIZE] + b]
    if params[P_MIR] == 0:
        # r // bsz by a multiply: with m = ceil(2**32 / bsz), (r * m) >> 32 is the quotient
        # or one more (r < 2**32), and r * m < 2**63 (r < 2**29, m <= 2**32)
        x = (r * blob[params[O_KINV] + b]) >> 32
        if x * bsz > r:
            x -= 1
        return side, x, r - x * bsz
    asz = blob[params[O_KSIZE] + a]
    offa = blob[params[O_KOFF] + a]
    bh = (bsz + blob[params[O_KFIX] + b]) // 2
    lo = 0
    hi = asz - 1
    while lo < hi:  # the last x whose row starts at or before r
        mid = (lo + hi + 1) // 2
        start = blob[params[O_NBIG] + offa + mid] * bsz + blob[params[O_NFIX] + offa + mid] * bh
        if start <= r:
            lo = mid
        else:
            hi = mid - 1
    x = lo
    off = r - (blob[params[O_NBIG] + offa + x] * bsz + blob[params[O_NFIX] + offa + x] * bh)
    if blob[params[O_MIR] + offa + x] - offa == x:
        y = blob[params[O_SYMINV] + blob[params[O_SYMOFF] + b] + off]
    else:
        y = off
    return side, x, y


@nb.njit(cache=True, inline="always")
def _split(params, blob, p):
    a = params[P_A]
    b = params[P_B]
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    half = _half(params, blob, a, b)
    side, x, y = _unrank(params, blob, a, b, p)
    g0 = blob[params[O_KOFF] + a] + x
    g1 = blob[params[O_KOFF] + b] + y
    return side, x, y, g0, g1, half, asz, bsz


@nb.njit(cache=True, inline="always")
def _seen(index, slot, n, q):
    """Whether in-tier index q is among the first n entries (slot -1)."""
    for j in range(n):  # noqa: SIM110 (numba: a plain loop)
        if slot[j] == -1 and index[j] == q:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _seen_plain(index, n, q):
    for j in range(n):  # noqa: SIM110 (numba: a plain loop)
        if index[j] == q:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _in_way(dest1, other):
    """Whether a move's destination (square + 1 as packed, 0 an exit) holds one of the
    `other` side's cars (the mover's own cars never block a listed move)."""
    return dest1 > 0 and (other >> (dest1 - 1)) & 1 != 0


@nb.njit(cache=True, inline="always")
def _has_car_move(params, blob, s, g, other):
    w = params[P_W]
    o = params[O_REC + s] + g * w
    for j in range(w):
        r = blob[o + j]
        if r < 0:
            break
        if not _in_way(r & 63, other):
            return True
    return False


@nb.njit(cache=True, inline="always")
def _terminal(params, blob, side, m0, m1, g0, g1):
    """0 invalid, 1 undecided, 2 win, 3 loss for the side to move: the rules kernel's
    `terminal_winner` (rule 1 alone first, so the car moves are looked at only when nobody
    has cleared) in the solver's codes."""
    if m0 & m1:
        return 0
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    winner = terminal_winner(m0, m1, side, 1, blocked, misere)
    if winner < 0:
        if side == 0:
            can = _has_car_move(params, blob, 0, g0, m1)
        else:
            can = _has_car_move(params, blob, 1, g1, m0)
        winner = terminal_winner(m0, m1, side, 1 if can else 0, blocked, misere)
    if winner < 0:
        return 1
    return 2 if winner == side else 3


@nb.njit(cache=True, inline="always")
def dodgem_primitive(ctx, p):
    """Terminal value of index p (see boardlab.core.tiers)."""
    params, blob = ctx
    side, _x, _y, g0, g1, _h, _asz, _bsz = _split(params, blob, p)
    m0 = blob[params[O_MASKS] + g0]
    m1 = blob[params[O_MASKS + 1] + g1]
    return _terminal(params, blob, side, m0, m1, g0, g1)


@nb.njit(cache=True, inline="always")
def dodgem_moves(ctx, p, slot, index):
    """Moves of index p as (child slot or -1, index)."""
    return _moves(ctx, p, slot, index, True)


@nb.njit(cache=True, inline="always")
def _moves_for_solve(ctx, p, slot, index):
    """`dodgem_moves` for the retrograde kernel, which counts the moves inside the tier but
    never reads their indices: those are left unset unless the mirror needs them to count
    each target once (saves a tenth of a classic solve)."""
    return _moves(ctx, p, slot, index, False)


@nb.njit(cache=True, inline="always")
def _moves(ctx, p, slot, index, in_tier_indices):
    params, blob = ctx
    side, x, y, g0, g1, _h, _asz, _bsz = _split(params, blob, p)
    a = params[P_A]
    b = params[P_B]
    k = params[P_K]
    sym = params[P_SYM]
    w = params[P_W]
    m0 = blob[params[O_MASKS] + g0]
    m1 = blob[params[O_MASKS + 1] + g1]
    if side == 0:
        other, g = m1, g0
    else:
        other, g = m0, g1
    o = params[O_REC + side] + g * w
    mir = params[P_MIR]
    n = 0
    for j in range(w):
        r = blob[o + j]
        if r < 0:
            break
        if _in_way(r & 63, other):
            continue
        z = r >> REC_Z
        if (r >> REC_KIND) & 3 == 0:
            slot[n] = -1
            if in_tier_indices or mir:
                if side == 0:
                    q = _rank(params, blob, a, b, 1, z, y)
                else:
                    q = _rank(params, blob, a, b, 0, x, z)
                if mir and _seen(index, slot, n, q):
                    continue  # each in-tier position once: the un-moves list it once too
                index[n] = q
        else:
            k2 = (r >> REC_KEY) & 4095
            slot[n] = params[P_SLOTS + side * k + k2]
            if side == 0:  # child tier (k2, b), second side to move
                if sym and k2 > b:
                    index[n] = _rank(params, blob, b, k2, 0, y, z)
                else:
                    index[n] = _rank(params, blob, k2, b, 1, z, y)
            else:  # child tier (a, k2), first side to move
                if sym and a > k2:
                    index[n] = _rank(params, blob, k2, a, 1, z, x)
                else:
                    index[n] = _rank(params, blob, a, k2, 0, x, z)
        n += 1
    if n == 0 and params[P_BLOCKED] == BLOCKED_PASSES:
        slot[0] = -1
        index[0] = _rank(params, blob, a, b, 1 - side, x, y)
        n = 1
    return n


@nb.njit(cache=True, inline="always")
def dodgem_unmoves(ctx, p, index):
    """Positions of the same tier with a move to p (each once per move)."""
    params, blob = ctx
    if params[P_MIR] == 0 and params[P_BLOCKED] != BLOCKED_PASSES:
        return _plain_unmoves(params, blob, p, index)
    side, x, y, g0, g1, _h, _asz, _bsz = _split(params, blob, p)
    m0 = blob[params[O_MASKS] + g0]
    m1 = blob[params[O_MASKS + 1] + g1]
    if m0 & m1:
        return 0
    occ = m0 | m1
    n = 0
    mover = 1 - side
    u = params[P_U]
    g = g0 if mover == 0 else g1
    o = params[O_UNREC + mover] + g * u
    a = params[P_A]
    b = params[P_B]
    mir = params[P_MIR]
    for j in range(u):
        r = blob[o + j]
        if r < 0:
            break
        if (occ >> (r & 255)) & 1:
            continue
        par = r >> 8
        if mover == 0:
            q = _rank(params, blob, a, b, 0, par, y)
        else:
            q = _rank(params, blob, a, b, 1, x, par)
        if mir and _seen_plain(index, n, q):
            continue
        index[n] = q
        n += 1
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    if blocked == BLOCKED_PASSES and terminal_winner(m0, m1, mover, 1, blocked, misere) < 0:
        # a pass by the mover: possible when nobody had cleared and the mover had no car move
        if mover == 0:
            can = _has_car_move(params, blob, 0, g0, m1)
        else:
            can = _has_car_move(params, blob, 1, g1, m0)
        if not can:
            index[n] = _rank(params, blob, a, b, mover, x, y)
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def _plain_unmoves(params, blob, p, index):
    """`dodgem_unmoves` without the mirror and without passes (every variant but Piecepack):
    `plain_unmoves` with the tier's numbers read here."""
    return plain_unmoves((plain_shape(params, blob), blob), p, index)


@nb.njit(cache=True, inline="always")
def plain_shape(params, blob):
    """The numbers of a tier stored without the mirror that `plain_unmoves` needs, as a
    tuple of integers: a solver entry reads them once per tier, and the compiler keeps them
    in registers (read through `params`, they are read again after every store, as any
    array may be the one stored to)."""
    a = params[P_A]
    b = params[P_B]
    bsz = blob[params[O_KSIZE] + b]
    u = params[P_U]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    return (
        blob[params[O_KSIZE] + a] * bsz,  # half: the first side's positions
        bsz,
        blob[params[O_KINV] + b],
        params[O_MASKS] + offa,  # the first side's masks, by x
        params[O_MASKS + 1] + offb,  # the second side's, by y
        params[O_UNREC] + offa * u,  # the first side's un-moves, by x
        params[O_UNREC + 1] + offb * u,  # the second side's, by y
        u,
    )


@nb.njit(cache=True, inline="always")
def plain_unmoves(ctx, p, index):
    """`dodgem_unmoves` for a tier without the mirror and without passes, `ctx` the tier's
    (`plain_shape`, blob): a parent differs from p in the mover's placement only, so its
    index is p's row or column with that placement put back (a tenth of the propagation's
    time on 5×5 classic)."""
    shape, blob = ctx
    half, bsz, kinv, m0at, m1at, u0at, u1at, u = shape
    side = 1 if p >= half else 0
    r = p - side * half
    x = (r * kinv) >> 32  # r // bsz, as in _unrank
    if x * bsz > r:
        x -= 1
    y = r - x * bsz
    m0 = blob[m0at + x]
    m1 = blob[m1at + y]
    if m0 & m1:
        return 0
    occ = m0 | m1
    n = 0
    if side == 1:  # the first side moved sideways: parents (0, its placement before, y)
        o = u0at + x * u
        base = y
        step = bsz
    else:  # the second side did: parents (1, x, its placement before)
        o = u1at + y * u
        base = half + x * bsz
        step = 1
    for j in range(u):
        rec = blob[o + j]
        if rec < 0:
            break
        # the parent is written, and kept if its square was free (no branch to mispredict)
        index[n] = base + (rec >> 8) * step
        n += 1 - ((occ >> (rec & 255)) & 1)
    return n


@nb.njit(cache=True, nogil=True)
def _unfold(params, blob, a, b, canonical, out):
    """Codes of the full tier (a, b) (index (side * |A| + x) * |B| + y) from the stored one
    (the same as `canonical[_rank(...)]` for every position; under the symmetry a tier with
    a > b is stored as (b, a) with the sides swapped). Row by row: a row's stored entries
    start at one place, and within it the second placement, its mirror or its rank among
    the placements no greater than their mirror (`_rank`) gives the entry."""
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    swap = params[P_SYM] != 0 and a > b
    if params[P_MIR] == 0:
        for side in range(2):
            for x in range(asz):
                for y in range(bsz):
                    full = (side * asz + x) * bsz + y
                    out[full] = canonical[((1 - side) * bsz + y) * asz + x if swap else full]
        return
    s1, s2 = (b, a) if swap else (a, b)  # the stored tier: first placements u, second v
    n1 = blob[params[O_KSIZE] + s1]
    n2 = blob[params[O_KSIZE] + s2]
    off1 = blob[params[O_KOFF] + s1]
    off2 = blob[params[O_KOFF] + s2]
    h2 = (n2 + blob[params[O_KFIX] + s2]) // 2
    half = _half(params, blob, s1, s2)
    omir = params[O_MIR]
    osymr = params[O_SYMR] + off2
    for side in range(2):  # the full position's side to move
        stored_side = 1 - side if swap else side
        for u in range(n1):
            mu = blob[omir + off1 + u] - off1
            gu = off1 + min(u, mu)
            start = stored_side * half + blob[params[O_NBIG] + gu] * n2
            start += blob[params[O_NFIX] + gu] * h2
            for v in range(n2):
                if mu > u:
                    col = v
                else:
                    mv = blob[omir + off2 + v] - off2
                    col = mv if mu < u else blob[osymr + min(v, mv)]
                if swap:  # full (side, x = v, y = u)
                    out[(side * asz + v) * bsz + u] = canonical[start + col]
                else:
                    out[(side * asz + u) * bsz + v] = canonical[start + col]


@nb.njit(cache=True, nogil=True)
def _weighted_counts(params, blob, a, b, codes, orbit, counts):
    """Add each stored position's orbit to `counts[its code]`: under the mirror, a position
    stands for two unless both its placements are their own mirrors. Walks the rows in stored
    order (see `_unrank`), so no index is unranked."""
    if params[P_MIR] == 0:
        # four counts per small code, one for each of four neighbouring entries: runs of one
        # code then add to four counters in turn instead of waiting on one (a quarter faster)
        small = np.zeros((4, 1024), np.int64)
        n = codes.shape[0]
        m = n - n % 4
        for p in range(0, m, 4):
            c0, c1, c2, c3 = codes[p], codes[p + 1], codes[p + 2], codes[p + 3]
            if (c0 | c1 | c2 | c3) < 1024:
                small[0, c0] += 1
                small[1, c1] += 1
                small[2, c2] += 1
                small[3, c3] += 1
            else:
                counts[c0] += orbit
                counts[c1] += orbit
                counts[c2] += orbit
                counts[c3] += orbit
        for p in range(m, n):
            counts[codes[p]] += orbit
        for c in range(1024):
            counts[c] += orbit * (small[0, c] + small[1, c] + small[2, c] + small[3, c])
        return
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    bh = (bsz + blob[params[O_KFIX] + b]) // 2
    omir = params[O_MIR]
    syminv = params[O_SYMINV] + blob[params[O_SYMOFF] + b]
    p = 0
    for _side in range(2):
        for x in range(asz):
            mx = blob[omir + offa + x] - offa
            if mx > x:
                for _y in range(bsz):
                    counts[codes[p]] += 2 * orbit
                    p += 1
            elif mx == x:
                for col in range(bh):
                    g1 = offb + blob[syminv + col]
                    counts[codes[p]] += orbit if blob[omir + g1] == g1 else 2 * orbit
                    p += 1
