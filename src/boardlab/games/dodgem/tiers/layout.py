"""The board tables of a Dodgem geometry: each side's placements and keys, their move and
un-move tables, the left-right mirror, and the one int64 blob the compiled functions read
(its layout: the P_* and O_* offsets below)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

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
