"""One compiled retrograde kernel for every game: solves a tier for "the side to move".

Codes (value for the side to move): 0 invalid index, 1 draw, 2 + 2r win in r plies,
3 + 2r loss in r plies. The game's compiled functions are those of `boardlab.core.tiers`.

Positions are decided in order of remoteness, level by level: a win in r + 1 as soon as a
child loss in r is known (or at once, from a solved child tier), a loss when the last child
is known to be a win for the opponent, its remoteness the largest of theirs plus one.
Whatever is left undecided is a draw.

The kernel is written once, as `solve_tier_body`. A game may compile its own entry point that
calls it with the game's functions (see `solve_tier_body`, and `TierKernel.solve`): numba then
inlines the game's functions into one function without reference counting, which runs about a
quarter faster and is cached on disk. Otherwise `solve_tier` takes the functions as arguments
(compiled once per process, as numba cannot cache it). The kernel lives in `core` so that a
game can build its entry point without depending on the solver.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numba as nb
import numpy as np
import numpy.typing as npt
from llvmlite import ir as llvm_ir
from numba.extending import intrinsic

if TYPE_CHECKING:
    from boardlab.core.tiers import TierKernel

INVALID, DRAW = 0, 1
NONE = 65535  # no pending win / no remoteness
MAX_REMOTENESS = 30000
# status codes returned instead of a remoteness
BAD_CHILD, TOO_DEEP, NO_MOVES, TOO_BIG = -1, -2, -3, -4


# A position's state while its tier is solved, one byte: whether it is decided, whether a
# win is pending for it (in the level where it is queued or sooner), and its in-tier moves
# not yet known to win for the opponent. The propagation touches one byte per parent (one
# bit map of the next level besides), so the bytes of the largest tiers stay in the second-
# level cache; what a position needs only when its last move is known (whether a child is
# drawn, the longest loss through a child tier) lies apart, one 16-bit word each.
DECIDED, WIN = 1, 2
CNT_ONE = 4  # in-tier moves: bits 2-7
MAX_INSIDE = 63  # in-tier moves of a position, at most
DRAWN = 1  # of the second word: a child is drawn; the longest loss from bit 1
# the kernel's control words (work[4]): whether the work arrays are as `work_arrays` makes
# them (far queue empty, level maps clear), and the largest remoteness queued
CTL_CLEAN, CTL_TOP = 0, 1
# levels the far queue can hold: any remoteness a child's 16-bit code gives, plus one
HEADS = 1 << 15
PARKED = HEADS  # a list of the far queue never taken: where a first pass may put a position
# it does not queue, so that it queues every position without a branch (`queued` empties it)
LINE = 1 << 14  # positions a game's first pass may take together (five words each)
TALLY = 1 << 16  # the kernel's count of each code of the tier it solved (work[9])


def work_arrays(size: int, max_moves: int) -> tuple[npt.NDArray[Any], ...]:
    """The kernel's work arrays for tiers of up to `size` indices (about 7.3 bytes per
    index, 9.3 with the codes): allocated here, so that a kernel compiled without reference
    counting (which cannot allocate) can use them. The kernel initialises what it reads and
    leaves the queue empty, so the same arrays serve tier after tier (see `pooled_work`).
    A position has at most MAX_INSIDE moves inside its tier (`max_moves` bounds them).
    After a solve that returned remoteness r, `tally(work, r)` counts the tier's codes."""
    if max_moves > MAX_INSIDE:
        raise ValueError(f"the retrograde kernel takes at most {MAX_INSIDE} moves a position")
    words = (size + 63) // 64 + 1
    ctl = np.zeros(4, np.int64)
    ctl[CTL_CLEAN] = 1
    return (
        np.empty(size, np.uint8),  # state bytes (DECIDED, WIN, moves left)
        np.full(HEADS + 1, -1, np.int32),  # far queue: first position of each level, PARKED
        np.empty(size, np.int32),  # far queue: the next position of the same level
        np.zeros(2 * words, np.uint64),  # two level maps: a bit per position
        ctl,  # control words (CTL_*)
        np.empty(max_moves, np.int64),  # move slots
        np.empty(max_moves, np.int64),  # move indices
        np.empty(size, np.uint16),  # longest loss through a child tier << 1 | DRAWN
        np.empty(5 * LINE, np.int64),  # a game's first pass: words for a line of positions
        np.zeros(TALLY, np.int64),  # how many positions of the tier hold each code
    )


_POOL = threading.local()
POOL_SLACK = 1 << 20  # indices a kept set of arrays may exceed the request by, at least


def pooled_work(size: int, max_moves: int) -> tuple[npt.NDArray[Any], ...]:
    """Work arrays for tiers of up to `size` indices, kept for the calling thread and given
    again while they fit (no larger than `size` plus a quarter, or plus POOL_SLACK).

    Fresh arrays cost a page fault per 4 KiB page the kernel touches, in the operating
    system: kept ones do not. A 5×5 solve on two Dask workers spent 8 s of system time on
    that, against 25 s of kernel."""
    held = getattr(_POOL, "work", None)
    if held is not None:
        cap = len(held[0])
        if size <= cap <= size + max(size // 4, POOL_SLACK) and len(held[5]) >= max_moves:
            return held  # type: ignore[no-any-return]
    _POOL.work = None
    del held  # the old arrays go before the new ones come
    _POOL.work = work_arrays(max(size, 1), max_moves)
    return _POOL.work  # type: ignore[no-any-return]


def tally(work: tuple[npt.NDArray[Any], ...], maxrem: int) -> npt.NDArray[np.int64]:
    """How many indices of the tier just solved hold each code, codes 0 to 3 + 2 * `maxrem`
    (the kernel's returned remoteness; no code lies beyond): counted by the kernel as it
    decided them, so that nobody reads the codes again to count them. A view of `work`."""
    return work[9][: 4 + 2 * maxrem]


def release_work() -> None:
    """Free the calling thread's kept work arrays."""
    _POOL.work = None


def child_addresses(arrays: Sequence[npt.NDArray[np.uint16]]) -> npt.NDArray[np.int64]:
    """Where each child tier's codes lie in memory, in units of two bytes (one entry more
    than the arrays, as `side_by_side`'s `base`): a game entry with
    `TierKernel.child_addresses` reads child s's entry i with `child_code(base[s] + i)`, from
    the arrays as they are, none copied. The caller keeps the arrays alive meanwhile."""
    base = np.zeros(len(arrays) + 1, np.int64)
    for s, a in enumerate(arrays):
        if a.dtype != np.uint16 or a.ndim != 1 or not (a.flags.c_contiguous and a.flags.aligned):
            raise ValueError("child codes must be one-dimensional contiguous aligned uint16 arrays")
        base[s] = a.ctypes.data >> 1  # aligned: an even address
    return base


@intrinsic
def _load_u16(typingctx: Any, address: Any) -> Any:
    """The uint16 at byte `address` (an int64)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = builder.inttoptr(args[0], llvm_ir.IntType(16).as_pointer())
        return builder.load(ptr)

    return nb.types.uint16(address), codegen


@intrinsic
def _pointer_u16(typingctx: Any, address: Any) -> Any:
    """A uint16 pointer to byte `address` (an int64)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], llvm_ir.IntType(16).as_pointer())

    return nb.types.CPointer(nb.types.uint16)(address), codegen


@nb.njit(inline="always")
def child_run(at):
    """The codes from `at` on (two-byte units, as `child_addresses` gives them), as a pointer
    to index: `child_run(at)[k]` is `child_code(at + k)`. A loop that reads `run[k * stride]`
    from one such pointer can be vectorised (the compiler sees one base and a stride, where
    an address made afresh in each step might be any of the loop's arrays)."""
    return _pointer_u16(at << 1)  # type: ignore[call-arg]  # numba passes the typing context


@intrinsic
def prefetch(typingctx: Any, address: Any) -> Any:
    """Ask the processor to bring the cache line of byte `address` (an int64) in, for a read
    soon; an address outside any array is harmless (a hint never faults)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i8p = llvm_ir.IntType(8).as_pointer()
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        ptr = builder.inttoptr(args[0], i8p)
        # a read (0), kept in every level of the cache (3), of data (1)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return nb.types.none(address), codegen


@nb.njit(inline="always")
def child_code(at):
    """A child's code at `at`, in two-byte units, as `child_addresses` gives them."""
    return _load_u16(at << 1)  # type: ignore[call-arg]  # numba passes the typing context


NO_CHILD_CODES = np.zeros(1, np.uint16)  # `child_codes` of a kernel that reads by address


def side_by_side(
    arrays: Sequence[npt.NDArray[Any]], dtype: Any
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
    """Child tiers' arrays as one array and where each starts (`base`, one entry more than
    the arrays): the kernels read child s's entry i at `joined[base[s] + i]`. A single array
    is used as it is; with none, a one-entry stand-in."""
    base = np.zeros(len(arrays) + 1, np.int64)
    if not arrays:
        return np.zeros(1, dtype), base
    np.cumsum([len(a) for a in arrays], out=base[1:])
    return (np.concatenate(arrays) if len(arrays) > 1 else arrays[0]), base


Stamp = tuple[float, float]

# how many solves in this process want processor times (`processor_clock`): reading the
# thread's processor time is a system call, 80,000 of them in a 5×5 solve (0.1-0.3 s)
_CPU_CLOCK = [0]
_CPU_CLOCK_LOCK = threading.Lock()


@contextmanager
def processor_clock(on: bool = True) -> Iterator[None]:
    """While inside (and `on`), `stamp` reads the calling thread's processor time too; else
    it reads 0 for it. For `boardlab solve --timings` and the tasks of a Dask worker."""
    if not on:
        yield
        return
    with _CPU_CLOCK_LOCK:
        _CPU_CLOCK[0] += 1
    try:
        yield
    finally:
        with _CPU_CLOCK_LOCK:
            _CPU_CLOCK[0] -= 1


def stamp() -> Stamp:
    """Now, by the wall clock and, inside `processor_clock`, by the calling thread's
    processor time (else 0)."""
    return time.perf_counter(), (time.thread_time() if _CPU_CLOCK[0] else 0.0)


def add_time(timings: dict[str, float], phase: str, since: Stamp) -> Stamp:
    """Add the wall seconds since `since` to `timings[phase]` and the thread's processor
    seconds to `timings[phase + " cpu"]`; returns now."""
    now = stamp()
    timings[phase] = timings.get(phase, 0.0) + now[0] - since[0]
    cpu = phase + " cpu"
    timings[cpu] = timings.get(cpu, 0.0) + now[1] - since[1]
    return now


def run_solve(
    kernel: TierKernel,
    ctx: tuple[Any, ...],
    size: int,
    children: Sequence[npt.NDArray[np.uint16]],
    code: npt.NDArray[np.uint16],
    work: tuple[npt.NDArray[Any], ...] | None = None,
    timings: dict[str, float] | None = None,
) -> int:
    """Solve a tier from its children's codes (in `child_tiers` order) with the game's
    compiled entry, or the generic kernel without one; `work` from `pooled_work` or
    `work_arrays` (for at least `size` indices), else the thread's. With `timings`, the
    seconds spent setting the children side by side ("join", where the entry does not read
    them where they lie), and, for a game that has the two halves of its entry, those of the
    first pass and of the propagation are added to it."""
    if work is None:
        work = pooled_work(size, kernel.max_moves)
    t = stamp()
    if kernel.child_addresses and kernel.solve is not None:
        child_codes, child_base = NO_CHILD_CODES, child_addresses(children)
    else:
        child_codes, child_base = side_by_side(children, np.uint16)
    if timings is not None:
        t = add_time(timings, "join", t)
    if timings is not None and kernel.first_pass is not None and kernel.propagate is not None:
        status = int(kernel.first_pass(ctx, size, child_codes, child_base, code, work))
        t = add_time(timings, "first pass", t)
        if status >= 0:
            status = int(kernel.propagate(ctx, size, code, work))
        add_time(timings, "propagation", t)
        return status
    if kernel.solve is not None:
        return int(kernel.solve(ctx, size, kernel.max_moves, child_codes, child_base, code, work))
    return int(
        solve_tier(
            kernel.primitive,
            kernel.moves,
            kernel.unmoves,
            ctx,
            size,
            kernel.max_moves,
            child_codes,
            child_base,
            code,
            work,
        )
    )


# not cached on disk: numba's cache cannot match a function that takes other compiled
# functions as arguments in a new process (it would compile again and pile up entries, and
# saving fails once an old entry's functions are gone); it compiles once per process
@nb.njit(cache=False, nogil=True)
def solve_tier(
    primitive, moves, unmoves, ctx, size, max_moves, child_codes, child_base, code, work
):
    """`solve_tier_body` for a game that has no compiled entry of its own (`work`: the
    tuple of `work_arrays`)."""
    return solve_tier_body(
        primitive, moves, unmoves, ctx, size, max_moves, child_codes, child_base, code, work
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


@nb.njit(inline="always")
def reach_tier_body(
    primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
):
    """Mark everything reachable inside a tier from its marked positions (`mark`, one byte
    per index), mark the children reached (child s at `child_marks[child_base[s]:]`), and add
    the codes of the tier's reached positions to `counts`. `stack` holds an index per
    position of the tier (each is pushed at most once); `slot` and `idx` hold the moves of
    one position. Allocates nothing: a game's entry can be compiled like its solve entry."""
    top = 0
    for i in range(mark.shape[0]):
        if mark[i]:
            stack[top] = i
            top += 1
    while top > 0:
        top -= 1
        p = np.int64(stack[top])
        if primitive(ctx, p) != 1:
            continue
        n = moves(ctx, p, slot, idx)
        for j in range(n):
            s = slot[j]
            if s >= 0:
                child_marks[child_base[s] + idx[j]] = 1
            elif mark[idx[j]] == 0:
                mark[idx[j]] = 1
                stack[top] = idx[j]
                top += 1
    for i in range(mark.shape[0]):
        if mark[i]:
            counts[codes[i]] += 1
    return 0


# not cached on disk, like solve_tier
@nb.njit(cache=False, nogil=True)
def reach_tier(
    primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
):
    """`reach_tier_body` for a game that has no compiled entry of its own."""
    return reach_tier_body(
        primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
    )


def run_reach(
    kernel: TierKernel,
    ctx: tuple[Any, ...],
    mark: npt.NDArray[np.uint8],
    child_marks: npt.NDArray[np.uint8],
    child_base: npt.NDArray[np.int64],
    codes: npt.NDArray[np.uint16],
    counts: npt.NDArray[np.int64],
) -> None:
    """Walk a tier's reachable positions with the game's compiled entry, or the generic one."""
    stack = np.empty(len(mark), np.uint32)
    slot, idx = np.empty(kernel.max_moves, np.int64), np.empty(kernel.max_moves, np.int64)
    if kernel.reach is not None:
        kernel.reach(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx)
    else:
        reach_tier(
            kernel.primitive,
            kernel.moves,
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
