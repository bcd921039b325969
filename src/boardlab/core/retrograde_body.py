"""The retrograde kernel's body, written once for every game: `solve_tier_body`, a first
pass (`first_pass_body`, or a game's own built from `begin`, `finish`, `record`, `queued`
and `child_value`) then the propagation (`propagate_body`). All of it is inlined into the
entry that calls it (see `boardlab.core.retrograde`) and allocates nothing: it works in the
arrays of `boardlab.core.retrograde_work`.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir as llvm_ir
from numba.extending import intrinsic

from boardlab.core.retrograde_work import (
    BAD_CHILD,
    CNT_ONE,
    CTL_CLEAN,
    CTL_TOP,
    DECIDED,
    DRAW,
    DRAWN,
    INVALID,
    MAX_REMOTENESS,
    NO_MOVES,
    NONE,
    PARKED,
    TOO_BIG,
    TOO_DEEP,
    WIN,
)


@nb.njit(inline="always")
def solve_tier_body(
    primitive,
    moves,
    unmoves,
    ctx,
    size,
    max_moves,
    child_codes,
    child_base,
    code,
    work,
):
    """Solve one tier into `code` (uint16, length `size`), with the work arrays of
    `work_arrays`; returns the largest remoteness, or a negative status (a child entry
    invalid, remoteness too deep, a position with no moves that is not finished, a tier too
    big for the queue). Allocates nothing: `first_pass_body`, then `propagate_body`.

    A game's specialised entry point is a module-level function of the game, compiled with
    `cache=True, _nrt=False`, that calls this with its own (inline="always") functions:

        @nb.njit(cache=True, nogil=True, _nrt=False)
        def my_solve_tier(ctx, size, max_moves, child_codes, child_base, code, work):
            return solve_tier_body(my_primitive, my_moves, my_unmoves, ctx, size, ...)

    It may also run a first pass of its own that fills the same arrays faster (for instance
    row by row, where a row shares its moves), then `propagate_body`."""
    if size >= (1 << 29):
        return TOO_BIG
    status = first_pass_body(primitive, moves, ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_body(unmoves, ctx, size, code, work)


@nb.njit(inline="always")
def child_value(cc, winc, lc, hd):
    """Fold a child's code (for the opponent, who moves there; never INVALID) into the
    position's fastest win `winc` (NONE: none yet), longest loss `lc` and whether a child is
    drawn `hd`. Without branches: children's codes follow no pattern a processor predicts,
    and a mispredicted branch costs more than the arithmetic (a third of the time per read
    in benchmarks/kernel_floor.py's loop)."""
    c = np.int64(cc)
    odd = c & 1
    hd = hd | np.int64(c == DRAW)
    winc = min(winc, (c - 1) >> 1 if odd and c != DRAW else NONE)  # a loss in r: win in r + 1
    lc = max(lc, (c >> 1) * (1 - odd))  # a win in r: loss in r + 1
    return winc, lc, hd


@intrinsic
def _ctz(typingctx: Any, value: Any) -> Any:
    """The number of trailing zero bits of a non-zero uint64."""
    if not isinstance(value, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], llvm_ir.Constant(llvm_ir.IntType(1), 1))

    return nb.types.uint64(value), codegen


@nb.njit(inline="always")
def _queue(work, p, r):
    """Queue undecided position p in level r of the far queue (a list per level, through
    the positions: each is in it once at most). The caller keeps the largest level."""
    head, nxt = work[1], work[2]
    nxt[p] = head[r]
    head[r] = p


@nb.njit(inline="always")
def begin(work):
    """Start a tier's first pass: the queue emptied if a tier before it stopped half-way,
    and marked in use. The pass ends with `queued`."""
    head, maps, ctl = work[1], work[3], work[4]
    if ctl[CTL_CLEAN] == 0:
        for i in range(head.shape[0]):
            head[i] = -1
        for i in range(maps.shape[0]):
            maps[i] = 0
    ctl[CTL_CLEAN] = 0
    ctl[CTL_TOP] = 0


@nb.njit(inline="always")
def queued(work, top):
    """End a first pass that queued positions up to level `top`."""
    work[1][PARKED] = -1
    work[4][CTL_TOP] = top


@nb.njit(inline="always")
def finish(work, code, p, c):
    """Decide p in the first pass: `c` INVALID, or a finished position's code (2 a win, 3 a
    loss for the side to move), which is queued at remoteness 0."""
    work[0][p] = DECIDED
    code[p] = c
    if c >= 2:
        _queue(work, p, 0)


@nb.njit(inline="always")
def record(work, p, c, winc, lc, hd):
    """Store what the first pass found of undecided position p: `c` moves inside the tier
    (counted as often as `unmoves` lists p's parent), the fastest win through a child tier
    `winc` (NONE: none), the longest loss `lc` and whether a child is drawn `hd`; queue it
    if that decides it: a win in `winc`, or a loss in `lc` when it has no other move.
    Returns the level where it is queued, else 0."""
    if winc < NONE:
        work[0][p] = WIN | (c * CNT_ONE)
        _queue(work, p, winc)
        return winc
    work[0][p] = c * CNT_ONE
    work[7][p] = (lc << 1) | (DRAWN if hd else 0)
    if c == 0 and not hd:
        _queue(work, p, lc)
        return lc
    return 0


@nb.njit(inline="always")
def first_pass_body(primitive, moves, ctx, size, child_codes, child_base, code, work):
    """The kernel's first pass, one position at a time: `begin`, then `finish` every decided
    position (invalid index, or finished) and `record` the others. Every entry read later is
    written here first: the arrays may be reused dirty. Returns 0, or BAD_CHILD / NO_MOVES.

    The kernel counts a position's moves inside the tier (slot -1) but reads the index only of
    a move into a child tier: a game's own entry may pass a `moves` that leaves in-tier indices
    unset, as long as it lists each in-tier target as often as `unmoves` lists the position."""
    begin(work)
    slot, idx = work[5], work[6]
    top = 0
    for p in range(size):
        pr = primitive(ctx, p)
        if pr != 1:
            finish(work, code, p, pr)
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
            winc, lc, hd = child_value(cc, winc, lc, hd)
        top = max(top, record(work, p, c, winc, lc, hd))
    queued(work, top)
    return 0


@nb.njit(inline="always")
def _parents(unmoves, ctx, st, lost, idx, work, nmap, p, is_loss, r):
    """Pass the decision of p at remoteness r to its parents: each parent of a loss wins in
    r + 1 unless it is decided by then (it goes in the next level's map `nmap`, a bit per
    position, with its win pending: where it is queued sooner, it is decided there); a
    parent of a win has one move fewer to look for, and loses once none is left, no win is
    pending and no child is drawn: in r + 1, or later after its longest loss through a
    child tier (the far queue). Returns how many bits it set (at most) and the largest level
    it queued (0: none)."""
    n = unmoves(ctx, p, idx)
    if is_loss:
        # without branches on the parent's state, which follows no pattern a processor
        # predicts: a decided parent's bit is set too, and skipped when its level comes
        for j in range(n):
            q = idx[j]
            st[q] |= WIN
            nmap[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
        return n, 0
    marked = 0
    far = 0
    r1 = r + 1
    for j in range(n):
        q = idx[j]
        s = np.int64(st[q])
        s -= CNT_ONE * np.int64(s & (DECIDED | WIN) == 0)
        st[q] = s
        if s == 0:  # no move left: a loss unless a child is drawn
            lc = np.int64(lost[q])
            if lc & DRAWN == 0:
                rr = max(r1, lc >> 1)
                if rr == r1:
                    nmap[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                    marked += 1
                else:
                    _queue(work, q, rr)
                    far = max(far, rr)
    return marked, far


@nb.njit(inline="always")
def finish_propagation(st, code, size, decided, tallied, ctl):
    """The end of a propagation: every position still undecided is a draw; the tally's
    draws and invalid indices (`decided` positions were decided), and the work arrays
    marked clean for the next tier."""
    draws = 0
    for i in range(size):  # without a branch: the compiler vectorises it
        undecided = 1 - (st[i] & DECIDED)
        code[i] = DRAW if undecided else code[i]
        draws += undecided
    tallied[DRAW] = draws
    tallied[INVALID] = size - draws - decided
    ctl[CTL_CLEAN] = 1


@nb.njit(inline="always")
def propagate_body(unmoves, ctx, size, code, work):
    """The kernel after its first pass: decide positions level by level in order of
    remoteness through `unmoves`, from what the first pass queued (finished positions at 0,
    wins through a child tier, positions whose every move is a known win for the opponent);
    what is left is a draw. Returns the largest remoteness, or TOO_DEEP. Sets `work[9]`'s
    entries up to code 3 + 2 * that remoteness to the tier's count of each code (`tally`).

    A level's positions are those of its far queue and those the level before found (a win
    or a loss one ply on): they are gathered in a bit map and taken in index order, so that
    the parents of neighbouring positions (neighbours too) are read one after the other. A
    position in a level is a win if a win is pending for it, else a loss. The queue is left
    empty and the maps clear, as `work_arrays` makes them."""
    st, head, nxt, maps, ctl = work[0], work[1], work[2], work[3], work[4]
    idx, lost, tallied = work[6], work[7], work[9]
    words = maps.shape[0] // 2
    used = (size + 63) // 64
    cur = maps[:words]
    nmap = maps[words:]
    maxrem = 0
    decided = 0
    top = ctl[CTL_TOP]
    r = 0
    while r <= top:
        if top > MAX_REMOTENESS:
            return TOO_DEEP  # the queue is left for the next `begin` to empty
        p = np.int64(head[r])
        head[r] = -1
        while p >= 0:
            cur[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
            p = np.int64(nxt[p])
        found = 0
        losses = 0
        marked = 0
        for wi in range(used):
            bits = cur[wi]
            if bits == 0:
                continue
            cur[wi] = 0
            while bits != 0:
                p = wi * 64 + np.int64(_ctz(bits))  # type: ignore[call-arg]  # as child_code
                bits &= bits - np.uint64(1)
                s = st[p]
                if s & DECIDED:
                    if r != 0:
                        continue
                    is_loss = code[p] & 1  # finished: decided in the first pass
                else:
                    is_loss = 1 - ((s >> 1) & 1)
                    st[p] = s | DECIDED
                    code[p] = 2 + 2 * r + is_loss
                found += 1
                losses += is_loss
                m, far = _parents(unmoves, ctx, st, lost, idx, work, nmap, p, is_loss, r)
                marked += m
                top = max(top, far)
        if found:
            maxrem = r
        tallied[2 + 2 * r] = found - losses
        tallied[3 + 2 * r] = losses
        decided += found
        if marked:
            top = max(top, r + 1)
        cur, nmap = nmap, cur
        r += 1
    finish_propagation(st, code, size, decided, tallied, ctl)
    return maxrem
