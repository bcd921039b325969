"""Dense indexing of every Dodgem placement, split into slices.

A *key* is how many cars of one side stand on each line: for the first player (blue, moving
east) the count per file, for the second (red, moving north) the count per rank. Sideways
moves keep a side's key, so a slice (blue key, red key) is closed under sideways moves and
every cycle of the game stays inside one slice. Forward moves and exits raise the *level*
(total progress of both sides) by one, so slices are solved from the highest level down.

Within a key, a placement is numbered in mixed radix over the lines (line 0 most
significant), each digit being the rank of that line's set of cars among the subsets of
that size in `itertools.combinations` order. Red placements are the transposes of blue ones
(square (f, r) <-> (r, f)) and share their numbers, which makes the colour-swap symmetry a
plain transpose of a slice.

The position index of (blue placement b in key B, red placement r in key R, side s) is
`slice_offset[B * K + R] + s * |B| * |R| + b * |R| + r`; placements that overlap are
invalid entries of the index space.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import EXIT, DodgemRules

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I8 = npt.NDArray[np.int8]

KIND_NONE, KIND_SIDE, KIND_FORWARD = -1, 0, 1


def transpose_mask(mask: int, n: int) -> int:
    """Reflect a bit mask in the a1 diagonal: square (f, r) goes to (r, f)."""
    out = 0
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out |= 1 << ((i % n) * n + i // n)
        mask ^= low
    return out


@dataclass(frozen=True)
class MoveTables:
    """Per placement of one side: its moves and its sideways un-moves, as arrays."""

    dest: I32  # [g, j] destination square, -1 exit, unused slots -2
    child: I32  # [g, j] placement after the move
    kind: I8  # [g, j] KIND_SIDE, KIND_FORWARD (includes exits) or KIND_NONE
    un_src: I32  # [g, j] square the car came from by a sideways move (-1 unused)
    un_parent: I32  # [g, j] placement before that move


@dataclass(frozen=True)
class IndexScheme:
    """All placements of a board size, their keys, slices and move tables."""

    size: int
    keys: tuple[tuple[int, ...], ...]  # count per line, per key id
    key_size: I64  # placements per key
    key_offset: I64  # first global placement number of each key
    key_of: I64  # key of each global placement
    level_of_key: I64  # progress of a key: sum over cars of line + 1, exits count n
    blue_mask: I64  # bit mask of each global placement as blue cars
    red_mask: I64  # ... and as red cars (the transpose)
    blue_lookup: dict[int, int]
    red_lookup: dict[int, int]
    slice_offset: I64  # [K * K + 1] first position index of each slice
    rules: DodgemRules  # the step geometry the move tables follow
    # the same numbers as Python ints, for fast probing from Python
    py_blue: dict[int, tuple[int, int, int]]  # mask -> (key, number in key, key size)
    py_red: dict[int, tuple[int, int, int]]
    py_slice_offset: tuple[int, ...]

    @cached_property
    def blue_moves(self) -> MoveTables:
        """Moves of every placement as blue cars (built on first use: probing needs none)."""
        return _move_tables(self.rules, 0, [int(m) for m in self.blue_mask], self.blue_lookup)

    @cached_property
    def red_moves(self) -> MoveTables:
        """Moves of every placement as red cars."""
        return _move_tables(self.rules, 1, [int(m) for m in self.red_mask], self.red_lookup)

    @property
    def num_keys(self) -> int:
        """Number of keys of one side."""
        return len(self.keys)

    @property
    def total(self) -> int:
        """Size of the position index space (valid and invalid entries)."""
        return int(self.slice_offset[-1])

    def slice_size(self, bk: int, rk: int) -> int:
        """Entries of slice (bk, rk), both sides to move."""
        return int(2 * self.key_size[bk] * self.key_size[rk])

    def level(self, bk: int, rk: int) -> int:
        """Total progress of a slice; forward moves lead to level + 1."""
        return int(self.level_of_key[bk] + self.level_of_key[rk])

    def index(self, position: DodgemPosition) -> int:
        """Position index of a position of this board size."""
        bk, ib, bs = self.py_blue[position.first]
        rk, ir, rs = self.py_red[position.second]
        base = self.py_slice_offset[bk * len(self.keys) + rk]
        return base + position.to_move * bs * rs + ib * rs + ir

    def position(self, index: int, letters: str = "BR") -> DodgemPosition | None:
        """The position at an index, or None for an invalid (overlapping) entry."""
        k = len(self.keys)
        sl = int(np.searchsorted(self.slice_offset, index, side="right")) - 1
        bk, rk = divmod(sl, k)
        bs, rs = int(self.key_size[bk]), int(self.key_size[rk])
        local = index - int(self.slice_offset[sl])
        side, rest = divmod(local, bs * rs)
        ib, ir = divmod(rest, rs)
        mb = int(self.blue_mask[int(self.key_offset[bk]) + ib])
        mr = int(self.red_mask[int(self.key_offset[rk]) + ir])
        if mb & mr:
            return None
        return DodgemPosition(self.size, mb, mr, side, letters)


def _move_tables(
    rules: DodgemRules, player: int, masks: list[int], lookup: dict[int, int]
) -> MoveTables:
    n = rules.size
    g_count = len(masks)
    slots = 3 * (n - 1)
    dest = np.full((g_count, slots), -2, dtype=np.int32)
    child = np.full((g_count, slots), -1, dtype=np.int32)
    kind = np.full((g_count, slots), KIND_NONE, dtype=np.int8)
    un: list[list[tuple[int, int]]] = [[] for _ in range(g_count)]
    steps = rules.step_table[player]
    for g, mask in enumerate(masks):
        j = 0
        for q in range(n * n):
            if not mask >> q & 1:
                continue
            for k, d in enumerate(steps[q]):
                if d != EXIT and mask >> d & 1:
                    continue  # own car in the way: never legal
                new = mask & ~(1 << q)
                if d != EXIT:
                    new |= 1 << d
                c = lookup[new]
                dest[g, j] = -1 if d == EXIT else d
                child[g, j] = c
                sideways = k > 0
                kind[g, j] = KIND_SIDE if sideways else KIND_FORWARD
                if sideways:
                    un[c].append((q, g))
                j += 1
    width = max(1, max(len(u) for u in un))
    un_src = np.full((g_count, width), -1, dtype=np.int32)
    un_parent = np.full((g_count, width), -1, dtype=np.int32)
    for c, items in enumerate(un):
        for j, (q, g) in enumerate(items):
            un_src[c, j] = q
            un_parent[c, j] = g
    return MoveTables(dest, child, kind, un_src, un_parent)


@cache
def scheme_for(rules: DodgemRules) -> IndexScheme:
    """The index scheme of a board (depends on size and step geometry only)."""
    n = rules.size
    keys = sorted(
        (c for c in itertools.product(range(n), repeat=n) if sum(c) <= n - 1),
        key=lambda c: (sum(c), c),
    )
    subsets = [list(itertools.combinations(range(n), k)) for k in range(n + 1)]
    blue: list[int] = []
    key_size, key_offset, key_of, levels = [], [], [], []
    for kid, counts in enumerate(keys):
        key_offset.append(len(blue))
        per_line = [subsets[c] for c in counts]
        count = 0
        for choice in itertools.product(*per_line):
            mask = 0
            for f, ranks in enumerate(choice):
                for r in ranks:
                    mask |= 1 << (r * n + f)
            blue.append(mask)
            key_of.append(kid)
            count += 1
        key_size.append(count)
        levels.append(sum(f * c for f, c in enumerate(counts)) + n * (n - 1 - sum(counts)))
    red = [transpose_mask(m, n) for m in blue]
    blue_lookup = {m: g for g, m in enumerate(blue)}
    red_lookup = {m: g for g, m in enumerate(red)}
    ks = np.array(key_size, dtype=np.int64)
    sizes = 2 * np.outer(ks, ks).ravel()
    slice_offset = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=slice_offset[1:])
    place = [(key_of[g], g - key_offset[key_of[g]], key_size[key_of[g]]) for g in range(len(blue))]
    return IndexScheme(
        py_blue={m: place[g] for g, m in enumerate(blue)},
        py_red={m: place[g] for g, m in enumerate(red)},
        py_slice_offset=tuple(int(x) for x in slice_offset),
        size=n,
        keys=tuple(keys),
        key_size=ks,
        key_offset=np.array(key_offset, dtype=np.int64),
        key_of=np.array(key_of, dtype=np.int64),
        level_of_key=np.array(levels, dtype=np.int64),
        blue_mask=np.array(blue, dtype=np.int64),
        red_mask=np.array(red, dtype=np.int64),
        blue_lookup=blue_lookup,
        red_lookup=red_lookup,
        slice_offset=slice_offset,
        rules=geometry_rules(rules),
    )


def geometry_rules(rules: DodgemRules) -> DodgemRules:
    """The rules that decide the index scheme: only size and geometry matter."""
    return DodgemRules(size=rules.size, geometry=rules.geometry)
