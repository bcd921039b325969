"""Dodgem family as tiers for the tier solver: classic, blocked-loses, misère and Piecepack.

A side's *key* is how many of its cars stand on each of its lines, a line being the set of
squares at the same progress towards its exit edge (classic: blue's files and red's ranks;
Piecepack: red's ranks counted from the bottom and green's from the top). Only forward moves
and exits change a key, so the tier (first side's key, second side's key) holds every cycle
of the game, and a forward move leads to a child tier.

Both sides number their placements the same way: keys in order of car count, then line by
line (line 0 most significant) the rank of the line's set of cars among the subsets of that
size, each line's squares taken in a fixed order. The orders are chosen so that the colour
swap maps placement numbers to themselves:

* classic: blue's line f holds squares (f, 0), (f, 1)...; red's line r holds (0, r), (1, r)...
  so a red placement is the transpose of the blue one with the same number;
* Piecepack: red's line r holds (0, r), (1, r)...; green's line l holds (n-1, n-1-l),
  (n-2, n-1-l)... so a green placement is the half-turn of the red one with the same number.

The symmetry "swap the colours, and transpose (classic) or turn the board half round
(Piecepack)" therefore maps tier (a, b) to tier (b, a) and index (side, x, y) to
(1 - side, y, x). Only tiers with a <= b are solved and stored: about half the work and disk.
Piecepack also has the left-right mirror: it maps each tier to itself, and the placement
with the same number for both sides (placement x of a key to placement mirror(x) of that key),
so a Piecepack tier stores only the pairs (x, y) that are not above their mirror image
(mirror(x), mirror(y)): half the work and disk again (a position that is its own mirror
image is stored once, as before). Together the two symmetries store about a quarter of the
Piecepack positions, half of the classic ones.

Index in tier (a, b) of sizes (A, B): side * A * B + x * B + y, with x and y the placement
numbers of the first and second side within their keys (classic); with the mirror, side * H +
(start of row x) + (y, or for x its own mirror image the rank of y among the placements not
above their mirror), H the number of stored pairs (see `_rank`). Overlapping placements are
invalid.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.errors import NotationError
from boardlab.core.retrograde import (
    BAD_CHILD,
    INVALID,
    NO_MOVES,
    NONE,
    TOO_BIG,
    child_value,
    first_pass_body,
    propagate_body,
    reach_tier_body,
    record,
    solve_tier_body,
)
from boardlab.core.tiers import TierKernel
from boardlab.games.dodgem.kernel import BLOCKED_PASSES, blocked_code, terminal_winner
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import EXIT, DodgemRules

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I8 = npt.NDArray[np.int8]


def line_squares(size: int, geometry: str, side: int) -> list[list[int]]:
    """For each line (by progress) of a side, its squares in numbering order."""
    n = size
    if geometry == "classic":
        if side == 0:
            return [[r * n + f for r in range(n)] for f in range(n)]
        return [[r * n + f for f in range(n)] for r in range(n)]
    if side == 0:
        return [[r * n + f for f in range(n)] for r in range(n)]
    return [[(n - 1 - ln) * n + (n - 1 - k) for k in range(n)] for ln in range(n)]


@dataclass(frozen=True)
class Placements:
    """Every placement of one board geometry, for both sides, with keys and move tables."""

    size: int
    keys: tuple[tuple[int, ...], ...]
    key_size: I64
    key_offset: I64
    key_of: I64
    masks: tuple[I64, I64]  # per side: the bit mask of each global placement number
    by_mask: tuple[I64, I64]  # per side: the global placement numbers in order of their masks
    dest: tuple[I32, I32]  # [g, j] destination square, -1 exit
    child: tuple[I32, I32]  # [g, j] global placement after the move
    kind: tuple[I8, I8]  # [g, j] 0 sideways, 1 forward or exit, -1 unused
    un_src: tuple[I32, I32]  # [g, j] square a car came from by a sideways move, -1 unused
    un_parent: tuple[I32, I32]  # [g, j] placement before that move
    key_children: tuple[tuple[int, ...], ...] = field(repr=False)  # keys one forward move away

    @property
    def num_keys(self) -> int:
        """Keys per side."""
        return len(self.keys)

    def number(self, side: int, mask: int) -> int:
        """The global placement number of a side's cars on the squares of `mask`; KeyError
        when no placement has them (too many cars)."""
        order, masks = self.by_mask[side], self.masks[side]
        i = int(np.searchsorted(masks, mask, sorter=order))
        if i == len(order) or int(masks[order[i]]) != mask:
            raise KeyError(mask)
        return int(order[i])


@cache
def placements(size: int, geometry: str) -> Placements:
    """The placement tables of a board (depend on size and geometry only)."""
    n = size
    keys = sorted(
        (c for c in itertools.product(range(n), repeat=n) if sum(c) <= n - 1),
        key=lambda c: (sum(c), c),
    )
    subsets = [list(itertools.combinations(range(n), k)) for k in range(n + 1)]
    lines = [line_squares(n, geometry, s) for s in (0, 1)]
    masks: list[list[int]] = [[], []]
    key_size, key_offset, key_of = [], [], []
    for kid, counts in enumerate(keys):
        key_offset.append(len(masks[0]))
        count = 0
        for choice in itertools.product(*[subsets[c] for c in counts]):
            for s in (0, 1):
                m = 0
                for ln, ks in enumerate(choice):
                    for k in ks:
                        m |= 1 << lines[s][ln][k]
                masks[s].append(m)
            key_of.append(kid)
            count += 1
        key_size.append(count)
    arrays = (np.array(masks[0], np.int64), np.array(masks[1], np.int64))
    by_mask = (np.argsort(arrays[0], kind="stable"), np.argsort(arrays[1], kind="stable"))
    rules = DodgemRules(size=n, geometry=geometry)  # type: ignore[arg-type]
    tables = [_move_tables(rules, s, arrays[s], by_mask[s]) for s in (0, 1)]
    key_of_arr = np.array(key_of, np.int64)
    g_fw, j_fw = np.nonzero(tables[0][2] == 1)
    pairs = np.unique(key_of_arr[g_fw] * len(keys) + key_of_arr[tables[0][1][g_fw, j_fw]])
    kchildren: list[list[int]] = [[] for _ in keys]
    for kp, kc in zip(*np.divmod(pairs, len(keys)), strict=True):
        kchildren[int(kp)].append(int(kc))
    return Placements(
        size=n,
        keys=tuple(keys),
        key_size=np.array(key_size, np.int64),
        key_offset=np.array(key_offset, np.int64),
        key_of=key_of_arr,
        masks=arrays,
        by_mask=by_mask,
        dest=(tables[0][0], tables[1][0]),
        child=(tables[0][1], tables[1][1]),
        kind=(tables[0][2], tables[1][2]),
        un_src=(tables[0][3], tables[1][3]),
        un_parent=(tables[0][4], tables[1][4]),
        key_children=tuple(tuple(c) for c in kchildren),
    )


def _move_tables(
    rules: DodgemRules, player: int, masks: I64, by_mask: I64
) -> tuple[I32, I32, I8, I32, I32]:
    """A side's moves from every placement: destination square (-1 an exit), placement after,
    kind (1 forward or exit, 0 sideways, -1 no more), and per placement the sideways moves
    into it (square the car came from, placement before), each in the order of the squares."""
    n = rules.size
    steps = np.full((n * n, 3), -2, np.int64)
    for q, dests in enumerate(rules.step_table[player]):
        steps[q, : len(dests)] = dests
    return _build_move_tables(masks, masks[by_mask], by_mask, steps, 3 * (n - 1))  # type: ignore[no-any-return]


@nb.njit(cache=True)
def _build_move_tables(masks, sorted_masks, order, steps, slots):  # type: ignore[no-untyped-def]
    g_count = masks.shape[0]
    dest = np.full((g_count, slots), -2, np.int32)
    child = np.full((g_count, slots), -1, np.int32)
    kind = np.full((g_count, slots), -1, np.int8)
    src = np.full((g_count, slots), -1, np.int32)  # the square each move leaves
    for g in range(g_count):
        mask = masks[g]
        j = 0
        for q in range(steps.shape[0]):
            if not (mask >> q) & 1:
                continue
            for k in range(3):
                d = steps[q, k]
                if d == -2:
                    break
                if d != EXIT and (mask >> d) & 1:
                    continue  # own car in the way: never legal
                new = mask & ~(np.int64(1) << q)
                if d != EXIT:
                    new |= np.int64(1) << d
                dest[g, j] = d
                child[g, j] = order[np.searchsorted(sorted_masks, new)]
                kind[g, j] = 1 if k == 0 else 0
                src[g, j] = q
                j += 1
    count = np.zeros(g_count, np.int64)
    for g in range(g_count):
        for j in range(slots):
            if kind[g, j] == 0:
                count[child[g, j]] += 1
    width = max(1, count.max())
    un_src = np.full((g_count, width), -1, np.int32)
    un_parent = np.full((g_count, width), -1, np.int32)
    count[:] = 0
    for g in range(g_count):  # parents in increasing order, as the moves were found
        for j in range(slots):
            if kind[g, j] == 0:
                c = child[g, j]
                un_src[c, count[c]] = src[g, j]
                un_parent[c, count[c]] = g
                count[c] += 1
    return dest, child, kind, un_src, un_parent


# -- compiled per-position functions ----------------------------------------------------------
# ctx = (params, blob): one int64 array of every board table (made once per board) and the
# tier's parameters. Few arrays keep each call cheap (numba counts references per array).
# params: a, b, K, blocked (the rules kernel's code), misere, symmetric, W (move slots), U
# (un-move slots), then the offsets in blob of: key_size, key_offset, key_of, each side's
# masks, the mirror tables, the reciprocals of the key sizes, each side's packed moves and
# un-moves; then the mirror flag, then slot0[K] and slot1[K] (child slot of the tiers a
# forward move of the first / second side leads to, by its new key).
(P_A, P_B, P_K, P_BLOCKED, P_MISERE, P_SYM, P_W, P_U, O_KSIZE, O_KOFF, O_KOF) = range(11)
O_MASKS = 11  # per side s: O_MASKS + s, the bit mask of each of its placements
# the left-right mirror tables (see mirror_tables)
(O_MIR, O_NBIG, O_NFIX, O_SYMR, O_KFIX, O_SYMOFF, O_SYMINV) = range(13, 20)
O_KINV = 20  # per key: ceil(2**32 / its size), to divide by a multiply (see _unrank)
O_REC = 21  # per side s: O_REC + s, its moves packed one per int64 (see move_records)
O_UNREC = 23  # per side s: O_UNREC + s, its sideways un-moves packed likewise
P_MIR = 25
P_SLOTS = 26


@cache
def mirror_tables(size: int, geometry: str) -> tuple[I64, ...]:
    """The left-right mirror of every placement (Piecepack; the identity for classic) and the
    tables that number the pairs of placements up to the mirror.

    Returns (mir, nbig, nfix, symrank, kfix, symoff, syminv): `mir[g]` the mirror of global
    placement g (same key, same number for both sides); for g the x-th placement of its key,
    `nbig[g]` and `nfix[g]` how many earlier placements of the key are below / equal to their
    mirror; `symrank[g]` the rank of x among the placements y of its key with mirror(y) >= y
    (else -1); per key `kfix` the placements equal to their mirror and `symoff` where its list
    of placements with mirror(y) >= y starts in `syminv`."""
    pl = placements(size, geometry)
    n = size
    total = len(pl.masks[0])
    mir = np.arange(total, dtype=np.int64)
    if geometry == "piecepack":
        for s in (0, 1):
            masks = pl.masks[s]
            mm = np.zeros_like(masks)
            for sq in range(n * n):
                r, f = divmod(sq, n)
                mm |= ((masks >> sq) & 1) << (r * n + n - 1 - f)
            order = pl.by_mask[s]
            h = order[np.searchsorted(masks, mm, sorter=order)]
            if not np.array_equal(masks[h], mm):
                raise AssertionError("a mirrored placement is a placement")
            if s == 0:
                mir = h
            elif not np.array_equal(mir, h):
                raise AssertionError("the mirror numbers the sides' placements alike")
    off = pl.key_offset[pl.key_of]  # where each placement's key starts
    x = np.arange(total, dtype=np.int64) - off
    mx = mir - off

    def before(flags: npt.NDArray[np.bool_]) -> I64:
        """How many placements before each one (globally) have the flag."""
        return np.concatenate([[0], np.cumsum(flags, dtype=np.int64)[:-1]])

    big, fix, keep = before(mx > x), before(mx == x), before(mx >= x)
    nbig, nfix = big - big[off], fix - fix[off]
    ends = pl.key_offset + pl.key_size - 1
    kfix = nfix[ends] + (mx[ends] == x[ends])
    symoff = keep[pl.key_offset]
    symrank = np.where(mx >= x, keep - keep[off], -1)
    syminv = np.concatenate([x[mx >= x], [0]])
    return mir, nbig, nfix, symrank, kfix, symoff, syminv


def reciprocals(sizes: I64) -> I64:
    """ceil(2**32 / size) of each size: `_unrank` divides by a size with a multiply."""
    return ((1 << 32) + sizes - 1) // sizes


REC_DEST, REC_KIND, REC_KEY, REC_Z = 0, 6, 8, 20  # bit fields of a packed move


def move_records(pl: Placements, side: int) -> tuple[I64, I64]:
    """A side's moves and sideways un-moves packed one per int64, so that a move costs one
    load: `rec[g, j]` holds the destination square + 1 (0: an exit) in bits 0-5, 0 sideways
    or 1 forward in bits 6-7, the new key in bits 8-19 and the new placement's number within
    it from bit 20 (-1: no more moves); `unrec[g, j]` the square a car came from sideways in
    bits 0-7 and the number of the placement before, within its key, from bit 8."""
    kind = pl.kind[side].astype(np.int64)
    child = pl.child[side].astype(np.int64).clip(0)
    key = pl.key_of[child]
    rec = (
        (pl.dest[side].astype(np.int64) + 1) << REC_DEST
        | kind << REC_KIND
        | key << REC_KEY
        | (child - pl.key_offset[key]) << REC_Z
    )
    rec[kind < 0] = -1
    src = pl.un_src[side].astype(np.int64)
    par = pl.un_parent[side].astype(np.int64).clip(0)
    unrec = src | (par - pl.key_offset[pl.key_of[par]]) << 8
    unrec[src < 0] = -1
    return rec, unrec


def board_blob(pl: Placements, geometry: str) -> tuple[I64, list[int], int, int]:
    """The board tables as one int64 array, the offsets and the slot widths W and U."""
    w = int(pl.dest[0].shape[1])
    u = max(int(pl.un_src[0].shape[1]), int(pl.un_src[1].shape[1]))
    parts: list[npt.NDArray[Any]] = [pl.key_size, pl.key_offset, pl.key_of, *pl.masks]
    parts += list(mirror_tables(pl.size, geometry))
    parts.append(reciprocals(pl.key_size))  # O_KINV
    recs = [move_records(pl, side) for side in (0, 1)]
    parts += [recs[0][0], recs[1][0]]  # O_REC
    for side in (0, 1):  # O_UNREC, both as wide
        unrec = recs[side][1]
        parts.append(np.pad(unrec, ((0, 0), (0, u - unrec.shape[1])), constant_values=-1))
    offsets = []
    at = 0
    for part in parts:
        offsets.append(at)
        at += part.size
    blob = np.concatenate([p.astype(np.int64).ravel() for p in parts])
    return blob, offsets, w, u


@cache
def _shared_blob(size: int, geometry: str) -> tuple[I64, list[int], int, int]:
    """One board blob per board in a process, shared by every adapter of it (the solver's,
    the caller's, the full game's: about 200 MB on 6×6)."""
    return board_blob(placements(size, geometry), geometry)


@nb.njit(cache=True, inline="always")
def _half(params, blob, a, b):  # type: ignore[no-untyped-def]
    """Stored (first, second) placement pairs of keys a and b, per side to move."""
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    if params[P_MIR] == 0:
        return asz * bsz
    af = blob[params[O_KFIX] + a]
    bf = blob[params[O_KFIX] + b]
    return (asz - af) // 2 * bsz + af * ((bsz + bf) // 2)


@nb.njit(cache=True, inline="always")
def _rank(params, blob, a, b, side, x, y):  # type: ignore[no-untyped-def]
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
def _unrank(params, blob, a, b, p):  # type: ignore[no-untyped-def]
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
def _split(params, blob, p):  # type: ignore[no-untyped-def]
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
def _seen(index, slot, n, q):  # type: ignore[no-untyped-def]
    """Whether in-tier index q is among the first n entries (slot -1)."""
    for j in range(n):  # noqa: SIM110 (numba: a plain loop)
        if slot[j] == -1 and index[j] == q:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _seen_plain(index, n, q):  # type: ignore[no-untyped-def]
    for j in range(n):  # noqa: SIM110 (numba: a plain loop)
        if index[j] == q:
            return True
    return False


@nb.njit(cache=True, inline="always")
def _in_way(dest1, other):  # type: ignore[no-untyped-def]
    """Whether a move's destination (square + 1 as packed, 0 an exit) holds one of the
    `other` side's cars (the mover's own cars never block a listed move)."""
    return dest1 > 0 and (other >> (dest1 - 1)) & 1 != 0


@nb.njit(cache=True, inline="always")
def _has_car_move(params, blob, s, g, other):  # type: ignore[no-untyped-def]
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
def _terminal(params, blob, side, m0, m1, g0, g1):  # type: ignore[no-untyped-def]
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
def dodgem_primitive(ctx, p):  # type: ignore[no-untyped-def]
    """Terminal value of index p (see boardlab.core.tiers)."""
    params, blob = ctx
    side, _x, _y, g0, g1, _h, _asz, _bsz = _split(params, blob, p)
    m0 = blob[params[O_MASKS] + g0]
    m1 = blob[params[O_MASKS + 1] + g1]
    return _terminal(params, blob, side, m0, m1, g0, g1)


@nb.njit(cache=True, inline="always")
def dodgem_moves(ctx, p, slot, index):  # type: ignore[no-untyped-def]
    """Moves of index p as (child slot or -1, index)."""
    return _moves(ctx, p, slot, index, True)


@nb.njit(cache=True, inline="always")
def _moves_for_solve(ctx, p, slot, index):  # type: ignore[no-untyped-def]
    """`dodgem_moves` for the retrograde kernel, which counts the moves inside the tier but
    never reads their indices: those are left unset unless the mirror needs them to count
    each target once (saves a tenth of a classic solve)."""
    return _moves(ctx, p, slot, index, False)


@nb.njit(cache=True, inline="always")
def _moves(ctx, p, slot, index, in_tier_indices):  # type: ignore[no-untyped-def]
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
def dodgem_unmoves(ctx, p, index):  # type: ignore[no-untyped-def]
    """Positions of the same tier with a move to p (each once per move)."""
    params, blob = ctx
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
def _decided(flags, code, p, m0, m1, side, blocked, misere):  # type: ignore[no-untyped-def]
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
def _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, side, blocked, misere):  # type: ignore[no-untyped-def]
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
def _row_shape(params, blob):  # type: ignore[no-untyped-def]
    """(|A|, |B|, where keys a and b start, where each side's masks start) of a tier."""
    a = params[P_A]
    b = params[P_B]
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    return asz, bsz, offa, offb, params[O_MASKS], params[O_MASKS + 1]


@nb.njit(cache=True, inline="always")
def _first_side_row(params, blob, child_base, g0, slot, idx):  # type: ignore[no-untyped-def]
    """The moves of the first side's placement g0 for a row pass (tier stored without the
    mirror): per move, in `slot` the flat child entry of y = 0 (a sideways move, inside the
    tier, to placement z: -1 - z) and in `idx` its stride in y | (destination square + 1) <<
    40. Returns how many."""
    b = params[P_B]
    bsz = blob[params[O_KSIZE] + b]
    o = params[O_REC] + g0 * params[P_W]
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
            at = child_base[params[P_SLOTS + k2]]
            if params[P_SYM] and k2 > b:  # (0, y, z) of tier (b, k2)
                slot[nj] = at + z
                idx[nj] = dest | ksz
            else:  # (1, z, y) of tier (k2, b)
                slot[nj] = at + (ksz + z) * bsz
                idx[nj] = dest | 1
        nj += 1
    return nj


@nb.njit(cache=True, inline="always")
def _second_side_child(params, blob, child_base, r, x):  # type: ignore[no-untyped-def]
    """Flat child entry of the second side's forward move `r` (a packed record) from a
    position of row x (tier stored without the mirror)."""
    a = params[P_A]
    k2 = (r >> REC_KEY) & 4095
    z = r >> REC_Z
    ksz = blob[params[O_KSIZE] + k2]
    at = child_base[params[P_SLOTS + params[P_K] + k2]]
    if params[P_SYM] and a > k2:  # (1, z, x) of tier (k2, a)
        return at + (ksz + z) * blob[params[O_KSIZE] + a] + x
    return at + x * ksz + z  # (0, x, z) of tier (a, k2)


@nb.njit(cache=True, inline="always")
def _first_pass_rows(ctx, size, child_codes, child_base, code, work):  # type: ignore[no-untyped-def]
    """`boardlab.core.retrograde.first_pass_body` for a tier stored without the mirror, row
    by row: the positions (side, x, y) with the same side and x follow each other, and when
    the first side moves they share its moves, so their children are found once a row and
    read at a fixed stride. Fills the same arrays with the same values (tested against it)."""
    params, blob = ctx
    flags, slot, idx = work[0], work[7], work[8]
    w = params[P_W]
    blocked = params[P_BLOCKED]
    misere = params[P_MISERE]
    asz, bsz, offa, offb, om0, om1 = _row_shape(params, blob)
    half = asz * bsz
    for x in range(asz):
        g0 = offa + x
        m0 = blob[om0 + g0]
        nj = _first_side_row(params, blob, child_base, g0, slot, idx)
        row = x * bsz
        for y in range(bsz):
            p = row + y
            m1 = blob[om1 + offb + y]
            if _decided(flags, code, p, m0, m1, 0, blocked, misere):
                continue
            winc, lc, hd, c, legal = NONE, 0, 0, 0, 0
            for j in range(nj):
                e = idx[j]
                if _in_way(e >> 40, m1):
                    continue
                legal += 1
                at = slot[j]
                if at < 0:
                    c += 1
                    continue
                cc = child_codes[at + y * (e & 0xFFFFFFFFFF)]
                if cc == INVALID:
                    return BAD_CHILD
                winc, lc, hd = child_value(cc, winc, lc, hd)
            if _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 0, blocked, misere) < 0:
                return NO_MOVES
    # the second side to move: its moves change with y
    orec = params[O_REC + 1]
    for x in range(asz):
        m0 = blob[om0 + offa + x]
        row = half + x * bsz
        for y in range(bsz):
            p = row + y
            g1 = offb + y
            m1 = blob[om1 + g1]
            if _decided(flags, code, p, m0, m1, 1, blocked, misere):
                continue
            winc, lc, hd, c, legal = NONE, 0, 0, 0, 0
            o = orec + g1 * w
            for j in range(w):
                r = blob[o + j]
                if r < 0:
                    break
                if _in_way(r & 63, m0):
                    continue
                legal += 1
                if (r >> REC_KIND) & 3 == 0:
                    c += 1
                    continue
                cc = child_codes[_second_side_child(params, blob, child_base, r, x)]
                if cc == INVALID:
                    return BAD_CHILD
                winc, lc, hd = child_value(cc, winc, lc, hd)
            if _settle(work, code, p, c, winc, lc, hd, legal, m0, m1, 1, blocked, misere) < 0:
                return NO_MOVES
    return 0


KERNEL_FUNCS = (dodgem_primitive, dodgem_moves, dodgem_unmoves)


# the retrograde kernel with the functions above inlined, compiled without reference counting
# (it allocates nothing) and cached on disk
@nb.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
def dodgem_solve_tier(  # type: ignore[no-untyped-def]
    ctx, size, max_moves, child_codes, child_base, code, work
):
    """`boardlab.core.retrograde.solve_tier_body` for the Dodgem family: the row pass
    (`_first_pass_rows`) where the tier is stored without the mirror, then the kernel's
    propagation."""
    if size >= (1 << 29):
        return TOO_BIG
    if ctx[0][P_MIR]:
        status = first_pass_body(
            dodgem_primitive, _moves_for_solve, ctx, size, child_codes, child_base, code, work
        )
    else:
        status = _first_pass_rows(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_body(dodgem_unmoves, ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
def dodgem_solve_tier_plain(  # type: ignore[no-untyped-def]
    ctx, size, max_moves, child_codes, child_base, code, work
):
    """The same with the kernel's own first pass, one position at a time: the reference the
    row pass is tested against."""
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


@nb.njit(cache=True, inline="always")
def _finished(cd):  # type: ignore[no-untyped-def]
    """Whether a solved code is an invalid index or a finished position (remoteness 0)."""
    return cd == INVALID or cd == 2 or cd == 3


@nb.njit(cache=True, inline="always")
def _follow(  # type: ignore[no-untyped-def]
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
def _reach_rows(ctx, mark, child_marks, child_base, codes, counts, pending, slot, idx):  # type: ignore[no-untyped-def]
    """`boardlab.core.retrograde.reach_tier_body` for a tier stored without the mirror, in
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
            nj = _first_side_row(params, blob, child_base, offa + x, slot, idx)
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
            nj = _second_side_column(params, blob, child_base, offb + y, slot, idx)
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


@nb.njit(cache=True, inline="always")
def _second_side_column(params, blob, child_base, g1, slot, idx):  # type: ignore[no-untyped-def]
    """The moves of the second side's placement g1 for a column of `_reach_rows`: per move,
    in `slot` the flat child entry of x = 0 (a sideways move to z: -1 - z) and in `idx` its
    stride in x | (destination square + 1) << 40. Returns how many."""
    o = params[O_REC + 1] + g1 * params[P_W]
    nj = 0
    for j in range(params[P_W]):
        r = blob[o + j]
        if r < 0:
            break
        dest = (r & 63) << 40
        if (r >> REC_KIND) & 3 == 0:
            slot[nj] = -1 - (r >> REC_Z)
            idx[nj] = dest
        else:  # the child entry is linear in x
            slot[nj] = _second_side_child(params, blob, child_base, r, 0)
            idx[nj] = dest | (_second_side_child(params, blob, child_base, r, 1) - slot[nj])
        nj += 1
    return nj


@nb.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
def dodgem_reach_tier(  # type: ignore[no-untyped-def]
    ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
):
    """`boardlab.core.retrograde.reach_tier_body` for the Dodgem family: `_reach_rows` where
    the tier is stored without the mirror (as in the full game `stats` walks)."""
    if ctx[0][P_MIR]:
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
    return _reach_rows(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx)


@nb.njit(cache=True, nogil=True)
def _unfold(params, blob, a, b, canonical, out):  # type: ignore[no-untyped-def]
    """Codes of the full tier (a, b) (index (side * |A| + x) * |B| + y) from the stored one."""
    asz = blob[params[O_KSIZE] + a]
    bsz = blob[params[O_KSIZE] + b]
    swap = params[P_SYM] != 0 and a > b
    for side in range(2):
        for x in range(asz):
            for y in range(bsz):
                if swap:
                    q = _rank(params, blob, b, a, 1 - side, y, x)
                else:
                    q = _rank(params, blob, a, b, side, x, y)
                out[(side * asz + x) * bsz + y] = canonical[q]


@nb.njit(cache=True, nogil=True)
def _weighted_counts(params, blob, a, b, codes, orbit, counts):  # type: ignore[no-untyped-def]
    mir = params[P_MIR]
    offa = blob[params[O_KOFF] + a]
    offb = blob[params[O_KOFF] + b]
    for p in range(codes.shape[0]):
        w = orbit
        if mir:
            _side, x, y = _unrank(params, blob, a, b, p)
            fixed = blob[params[O_MIR] + offa + x] == offa + x
            if not (fixed and blob[params[O_MIR] + offb + y] == offb + y):
                w = 2 * orbit
        counts[codes[p]] += w


class DodgemTiers:
    """The tier game of one Dodgem ruleset (see the module docstring)."""

    def __init__(self, rules: DodgemRules, symmetric: bool = True) -> None:
        self.rules = rules
        self.symmetric = symmetric
        # Piecepack's left-right mirror: pairs of placements stored up to the mirror
        self.mirror = symmetric and rules.geometry == "piecepack"

    # -- identity -----------------------------------------------------------------------------
    @property
    def ruleset_id(self) -> str:
        """The rules' id, e.g. dodgem-6-classic-wins-normal."""
        return self.rules.ruleset_id()

    @property
    def rebuild_command(self) -> str:
        """`boardlab solve ...` for this ruleset."""
        parts = ["boardlab solve --game dodgem"]
        if self.rules.variant not in ("classic", "custom"):
            parts.append(f"--variant {self.rules.variant}")
        parts.append(f"--size {self.rules.size}")
        return " ".join(parts)

    def spec(self) -> dict[str, Any]:
        """Plain data to rebuild this adapter elsewhere."""
        r = self.rules
        return {
            "adapter": "boardlab.games.dodgem.tiers:from_spec",
            "size": r.size,
            "geometry": r.geometry,
            "blocked": r.blocked,
            "goal": r.goal,
            "symmetric": self.symmetric,
            "mirror": self.mirror,
        }

    @cached_property
    def kernel(self) -> TierKernel:
        """The compiled functions."""
        return TierKernel(
            dodgem_primitive,
            dodgem_moves,
            dodgem_unmoves,
            3 * (self.rules.size - 1) + 1,
            solve=dodgem_solve_tier,
            reach=dodgem_reach_tier,
        )

    @cached_property
    def placements(self) -> Placements:
        """Placement numbering and move tables of the board."""
        return placements(self.rules.size, self.rules.geometry)

    @cached_property
    def _keys(self) -> int:
        return len(self.placements.keys)

    # -- tiers --------------------------------------------------------------------------------
    def canonical(self, a: int, b: int) -> int:
        """Canonical tier id of (a, b)."""
        if self.symmetric and a > b:
            a, b = b, a
        return a * self._keys + b

    def tiers(self) -> list[int]:
        """Canonical tiers, by id."""
        k = self._keys
        return [a * k + b for a in range(k) for b in range(k) if not self.symmetric or a <= b]

    def child_tiers(self, tier: int) -> list[int]:
        """Tiers one forward move away, canonical, sorted."""
        return list(self._children(tier))

    @lru_cache(maxsize=1024)  # noqa: B019 (asked for again by tier_context straight after)
    def _children(self, tier: int) -> tuple[int, ...]:
        a, b = divmod(tier, self._keys)
        kc = self.placements.key_children
        out = {self.canonical(k2, b) for k2 in kc[a]} | {self.canonical(a, k2) for k2 in kc[b]}
        return tuple(sorted(out))

    def tier_size(self, tier: int) -> int:
        """2 * |A| * |B|, or with the mirror 2 * (pairs up to the mirror)."""
        return int(self._sizes[tier])

    @cached_property
    def _sizes(self) -> I64:
        """Every tier's size, by id (with the mirror, counted by `_half`)."""
        ks = self.placements.key_size.astype(np.int64)
        if not self.mirror:
            out: I64 = 2 * np.outer(ks, ks).reshape(-1)
            return out
        k = self._keys
        out = np.empty(k * k, np.int64)
        for a in range(k):
            for b in range(k):
                out[a * k + b] = 2 * _half(self._base, self._blob[0], a, b)
        return out

    def orbit_size(self, tier: int) -> int:
        """2 for a tier (a, b) with a != b under the colour swap, else 1."""
        a, b = divmod(tier, self._keys)
        return 2 if self.symmetric and a != b else 1

    def weighted_counts(self, tier: int, codes: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """How many positions of the whole game hold each code (65536 long): each stored
        entry stands for its orbit (the colour swap's tier, and its mirror image unless the
        position is its own mirror image)."""
        counts = np.zeros(65536, np.int64)
        a, b = divmod(tier, self._keys)
        _weighted_counts(self._base, self._blob[0], a, b, codes, self.orbit_size(tier), counts)
        return counts

    def full_game(self) -> DodgemTiers:
        """The same rules without any symmetry."""
        return DodgemTiers(self.rules, symmetric=False)

    def canonical_tier(self, tier: int) -> int:
        """(a, b) -> (b, a) when a > b under the symmetry."""
        a, b = divmod(tier, self._keys)
        return self.canonical(a, b)

    def unfold(self, tier: int, canonical: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Codes of every index (side, x, y) of tier (a, b) of the full game: (1 - side, y, x)
        of the stored tier (b, a) under the colour swap, then the canonical mirror pair."""
        a, b = divmod(tier, self._keys)
        if not self.symmetric or (a <= b and not self.mirror):
            return canonical
        ks = self.placements.key_size
        if not self.mirror:  # (side, x, y) is (1 - side, y, x) of the stored (b, a): a transpose
            swapped = canonical.reshape(2, int(ks[b]), int(ks[a]))[::-1].transpose(0, 2, 1)
            return np.ascontiguousarray(swapped).reshape(-1)
        out = np.empty(int(2 * ks[a] * ks[b]), canonical.dtype)
        _unfold(self._base, self._blob[0], a, b, canonical, out)
        return out

    def tier_name(self, tier: int) -> str:
        """`a-b` by key ids."""
        a, b = divmod(tier, self._keys)
        return f"{a}-{b}"

    @cached_property
    def _blob(self) -> tuple[I64, list[int], int, int]:
        return _shared_blob(self.rules.size, self.rules.geometry)

    @cached_property
    def _base(self) -> I64:
        """Parameters without a tier (for rank / unrank from Python)."""
        return self._params(0, 0, np.zeros(0, np.int64))

    @cached_property
    def _head(self) -> I64:
        """The parameters before the slots, of tier (0, 0)."""
        r = self.rules
        _blob, offsets, w, u = self._blob
        head = [0, 0, self._keys, blocked_code(r.blocked), int(r.goal == "misere")]
        head += [int(self.symmetric), w, u, *offsets, int(self.mirror)]
        return np.array(head, np.int64)

    def _params(self, a: int, b: int, slots: I64) -> I64:
        params = np.concatenate([self._head, slots])
        params[P_A] = a
        params[P_B] = b
        return params

    def tier_context(self, tier: int) -> tuple[Any, ...]:
        """(params, blob) for the compiled functions."""
        pl = self.placements
        k = self._keys
        a, b = divmod(tier, k)
        children = self.child_tiers(tier)
        where = {t: i for i, t in enumerate(children)}
        slots = np.full(2 * k, -1, np.int64)
        for k2 in pl.key_children[a]:
            slots[k2] = where[self.canonical(k2, b)]
        for k2 in pl.key_children[b]:
            slots[k + k2] = where[self.canonical(a, k2)]
        return (self._params(a, b, slots), self._blob[0])

    # -- rank / unrank ------------------------------------------------------------------------
    def locate(self, position: Any) -> tuple[int, int]:
        """Canonical (tier, index) of a position of this board."""
        r = self.rules
        if (
            not isinstance(position, DodgemPosition)
            or position.size != r.size
            or position.letters != r.letters
        ):
            raise NotationError(
                f"{position} is not a position of {r.size}×{r.size} {r.geometry} Dodgem"
            )
        pl = self.placements
        try:
            g0 = pl.number(0, position.first)
            g1 = pl.number(1, position.second)
        except KeyError:
            raise NotationError(f"{position} has too many cars for this board") from None
        a, b = int(pl.key_of[g0]), int(pl.key_of[g1])
        x, y = g0 - int(pl.key_offset[a]), g1 - int(pl.key_offset[b])
        side = position.to_move
        if self.symmetric and a > b:
            a, b, side, x, y = b, a, 1 - side, y, x
        return a * self._keys + b, int(_rank(self._base, self._blob[0], a, b, side, x, y))

    def position(self, tier: int, index: int) -> DodgemPosition | None:
        """The position at (tier, index) as stored, or None for an invalid index."""
        pl = self.placements
        a, b = divmod(tier, self._keys)
        side, x, y = (int(v) for v in _unrank(self._base, self._blob[0], a, b, index))
        m0 = int(pl.masks[0][int(pl.key_offset[a]) + x])
        m1 = int(pl.masks[1][int(pl.key_offset[b]) + y])
        if m0 & m1:
            return None
        return DodgemPosition(self.rules.size, m0, m1, side, self.rules.letters)

    def start(self) -> DodgemPosition:
        """The rules' start position."""
        return self.rules.start()


def from_spec(spec: dict[str, Any]) -> DodgemTiers:
    """Rebuild an adapter from `DodgemTiers.spec()`."""
    rules = DodgemRules(
        size=int(spec["size"]),
        geometry=spec["geometry"],
        blocked=spec["blocked"],
        goal=spec["goal"],
    )
    return DodgemTiers(rules, symmetric=bool(spec.get("symmetric", True)))


def tiers_for(rules: Any) -> DodgemTiers | None:
    """The tier game of a Dodgem ruleset the solver covers (sizes 3-6), else None."""
    if not isinstance(rules, DodgemRules) or not 3 <= rules.size <= 6:
        return None
    return DodgemTiers(rules)
