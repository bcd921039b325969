"""The solver's entry for the Dodgem family: a first pass that walks a tier row by row (a
row: one side to move and one first placement), then the kernel's propagation, compiled
together; and the plain entry it is tested against."""

from __future__ import annotations

import numba as nb
import numpy as np

from boardlab.core.retrograde import (
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
    begin,
    child_code,
    child_run,
    child_value,
    finish,
    prefetch,
    propagate_body,
    queued,
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
    plain_shape,
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
from boardlab.games.dodgem.tiers.plainprop import plain_propagate


@nb.njit(cache=True, inline="always")
def _decided(work, code, p, m0, m1, side, blocked, misere):
    """For the row pass: settle p if it is an invalid index or finished by rule 1 (someone
    has cleared), and say so."""
    if m0 & m1:
        finish(work, code, p, INVALID)
        return True
    winner = terminal_winner(m0, m1, side, 1, blocked, misere)
    if winner < 0:
        return False
    finish(work, code, p, 2 if winner == side else 3)
    return True


@nb.njit(cache=True, inline="always")
def _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere):
    """Store what the row pass found of p (`legal` car moves, `c` of them sideways): a
    position without a car move is finished unless the rules pass; returns the level where
    `record` queued it (0 if none) or NO_MOVES."""
    if legal == 0:
        winner = terminal_winner(m0, m1, side, 0, blocked, misere)
        if winner >= 0:
            finish(work, code, p, 2 if winner == side else 3)
            return 0
        if blocked != BLOCKED_PASSES:
            return NO_MOVES
        c = 1  # the pass: the same placement, the other side to move
    return record(work, p, c, winc, lc, hd)


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
    """`boardlab.core.retrograde.first_pass_body` for a tier stored without the mirror: the
    first side's positions row by row (one x), the second side's column by column (one y).
    The positions of a row (a column) share the moving side's moves, so their children are
    found once and read at a fixed stride, where they lie (`child_base`: the children's
    addresses, see `boardlab.core.retrograde.child_addresses`; `child_codes` is unused),
    move by move (`_line`). Fills the same arrays with the same values (tested against it)."""
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
    return _propagate(ctx, size, code, work)


@nb.njit(cache=True, inline="always")
def _propagate(ctx, size, code, work):
    """The kernel's propagation: where the tier has neither the mirror nor passes, with the
    un-moves written into it (`plain_propagate`) and the tier's numbers read once."""
    params, blob = ctx
    if params[P_MIR] == 0 and params[P_BLOCKED] != BLOCKED_PASSES:
        return plain_propagate(plain_shape(params, blob), blob, size, code, work)
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
    return _propagate(ctx, size, code, work)


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
