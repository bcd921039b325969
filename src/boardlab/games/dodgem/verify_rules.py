"""Dodgem's independent table checker: the rules written again, compiled, for `boardlab verify`.

The solver's tier adapter (`boardlab.games.dodgem.tiers`) takes its moves from packed move
records and its finished positions from the rules kernel (`boardlab.games.dodgem.kernel`).
This module uses neither: the moves of every placement are worked out here from the board's
directions (docs/rules-dodgem.md), and the terminal rules are written out below. What it shares
with the adapter is the storage layout only, which is what a stored entry means: the placement
numbering (`placements`: which cars each number stands for, and its key) and, for Piecepack's
left-right mirror, the adapter's `unfold` (every position of a tier from its stored pairs).

A tier (a, b) is checked in its full layout, index (side * |A| + x) * |B| + y. Classic tables
store the tier (a, b) with a <= b in exactly that layout, and a child tier (b', a') with b' > a'
as its colour-swapped image (a', b'): a child entry is read from it at the swapped index. A
Piecepack tier and its children are unfolded first; the entries derived for the full tier are
folded back onto the stored pairs (a pair disagrees if either of its two positions does).

The first side's positions are taken row by row (a row shares the moving placement, so its
moves, and every child of the row lies at a fixed stride); the second side's column by column,
a band of TILE rows at a time. A column of a band reads a child stored swapped along one of
its rows, and the band's rows of the other children stay in the processor's cache from one
column to the next: on the largest 6×6 tiers this takes the second side from about 15 to 10 ns
an entry (`benchmarks/verify_derive.py`). Banding the first side the same way was slower.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache, cached_property
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.checks import BAD_CHILD
from boardlab.core.retrograde_children import child_addresses, child_code
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.games.dodgem.tiers import DodgemTiers, placements

I64 = npt.NDArray[np.int64]
U16 = npt.NDArray[np.uint16]
CHECKER_NAME = "dodgem-rules-1"
TILE = 32  # rows of a band of the second side's pass (16 to 256 measured alike)
UNFOLDED_BYTES = 256 << 20  # Piecepack: full child tiers kept unfolded, least recently used out

# (forward, sideways, sideways) as (file step, rank step), per geometry and side (rules page)
DIRECTIONS: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {
    # blue: east, north, south; red: north, west, east
    "classic": (((1, 0), (0, 1), (0, -1)), ((0, 1), (-1, 0), (1, 0))),
    # red: north, west, east; green: south, west, east
    "piecepack": (((0, 1), (-1, 0), (1, 0)), ((0, -1), (-1, 0), (1, 0))),
}
WINS, LOSES, PASSES = 0, 1, 2
_BLOCKED = {"wins": WINS, "loses": LOSES, "passes": PASSES}


@nb.njit(cache=True)
def _car_moves(masks, sorted_masks, order, key_of, key_offset, n, steps, width):
    """Every car move of every placement of one side: per placement g and move j, the bit of
    the destination square (0: the car leaves the board), and the key and the number within
    it of the placement after the move; `count[g]` moves."""
    total = masks.shape[0]
    count = np.zeros(total, np.int64)
    bit = np.zeros((total, width), np.int64)
    key = np.zeros((total, width), np.int64)
    num = np.zeros((total, width), np.int64)
    for g in range(total):
        mine = masks[g]
        j = 0
        for sq in range(n * n):
            if not (mine >> sq) & 1:
                continue
            f = sq % n
            r = sq // n
            for k in range(3):
                nf = f + steps[k, 0]
                nr = r + steps[k, 1]
                inside = 0 <= nf < n and 0 <= nr < n
                if not inside and k > 0:
                    continue  # sideways off the board: no move
                after = mine & ~(np.int64(1) << sq)
                b = np.int64(0)
                if inside:
                    d = nr * n + nf
                    b = np.int64(1) << d
                    if mine & b:
                        continue  # onto one of its own cars
                    after |= b
                at = np.searchsorted(sorted_masks, after)
                if at == total or sorted_masks[at] != after:
                    raise ValueError("a move leads to cars that no placement number stands for")
                h = order[at]
                bit[g, j] = b
                key[g, j] = key_of[h]
                num[g, j] = h - key_offset[key_of[h]]
                j += 1
        count[g] = j
    return count, bit, key, num


class Board:
    """One board's numbering (from the storage layout) and its moves (worked out here)."""

    def __init__(self, size: int, geometry: str) -> None:
        pl = placements(size, geometry)
        self.keys = len(pl.keys)
        self.key_size = pl.key_size.astype(np.int64)
        self.key_offset = pl.key_offset.astype(np.int64)
        self.masks = (pl.masks[0].astype(np.int64), pl.masks[1].astype(np.int64))
        width = 3 * (size - 1)
        moves = []
        for side in (0, 1):
            order = np.argsort(self.masks[side], kind="stable")
            steps = np.array(DIRECTIONS[geometry][side], np.int64)
            moves.append(
                _car_moves(
                    self.masks[side],
                    self.masks[side][order],
                    order,
                    pl.key_of.astype(np.int64),
                    self.key_offset,
                    size,
                    steps,
                    width,
                )
            )
        self.width = width
        self.count = (moves[0][0], moves[1][0])
        self.bit = (moves[0][1], moves[1][1])
        self.key = (moves[0][2], moves[1][2])
        self.num = (moves[0][3], moves[1][3])
        # per side and key: the keys one forward move (or exit) away
        self.key_children: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            self._key_children(side) for side in (0, 1)
        )

    def _key_children(self, side: int) -> tuple[tuple[int, ...], ...]:
        out = []
        for a in range(self.keys):
            lo = int(self.key_offset[a])
            hi = lo + int(self.key_size[a])
            mask = np.arange(self.width)[None, :] < self.count[side][lo:hi, None]
            kids = np.unique(self.key[side][lo:hi][mask])
            out.append(tuple(int(k) for k in kids if k != a))
        return tuple(out)


@cache
def board(size: int, geometry: str) -> Board:
    """The board tables, once per process."""
    return Board(size, geometry)


@nb.njit(cache=True, inline="always")
def _fold(c, lost, drawn, won, bad):
    """Take a child's stored code (for the opponent) into what is known of the position."""
    if c == 0:
        bad = True
    elif c == 1:
        drawn = True
    elif c & 1:
        r = (c - 3) >> 1
        if r < lost:
            lost = r
    else:
        r = (c - 2) >> 1
        if r > won:
            won = r
    return lost, drawn, won, bad


@nb.njit(cache=True, inline="always")
def _result(lost, drawn, won, bad):
    if bad:
        return BAD_CHILD
    if lost < (1 << 30):
        return 2 + 2 * (lost + 1)
    if drawn:
        return 1
    return 3 + 2 * (won + 1)


@nb.njit(cache=True, inline="always")
def _cleared(mover, other, misere):
    """The code of a position in which a side has no cars left, else 0. The side that has
    just moved (`other`, the opponent of the side to move) is looked at first: it cleared
    with its move. The side that clears wins, or loses in misère."""
    if other == 0:
        return 2 if misere else 3
    if mover == 0:
        return 3 if misere else 2
    return 0


@nb.njit(cache=True, inline="always")
def _position(mover, other, nm, rbit, rat, rstride, i, passed, blocked, misere):
    """The code a position must hold: `mover` the cars of the side to move, `other` the other
    side's. Its moves j < nm land on the square bits `rbit[j]` (blocked by the other side's
    cars there) and lead to the child entries at `rat[j] + i * rstride[j]`; `passed` is the
    entry after a pass, for a side that passes when blocked."""
    if mover & other:
        return 0
    done = _cleared(mover, other, misere)
    if done:
        return done
    lost = 1 << 30
    won = -1
    drawn = False
    bad = False
    legal = 0
    for j in range(nm):
        if rbit[j] & other:
            continue
        legal += 1
        lost, drawn, won, bad = _fold(child_code(rat[j] + i * rstride[j]), lost, drawn, won, bad)
    if legal == 0:
        if blocked == 0:
            return 2
        if blocked == 1:
            return 3
        lost, drawn, won, bad = _fold(child_code(passed), lost, drawn, won, bad)
    return _result(lost, drawn, won, bad)


def _address(codes: U16) -> int:
    """Where `codes` lie in memory, in two-byte units (see `derive_full`)."""
    return int(child_addresses([codes])[0])


@nb.njit(cache=True, nogil=True)
def derive_full(a, b, ksize, koff, masks0, masks1, mv, width, blocked, misere, own, views, out):
    """The code every position of the full tier (a, b) must hold, into `out`.

    The codes are read where they lie (`boardlab.core.retrograde_children.child_code`,
    addresses in two-byte units, none copied): the tier's own codes (full layout) from `own`, and
    `views[s, k]` for side s's forward moves into key k: (where the child's stored codes
    start, swapped), swapped meaning the child is stored as its colour-swapped image. `mv` =
    (count0, bit0, key0, num0, count1, bit1, key1, num1), the flattened move tables of
    `Board`."""
    count0, bit0, key0, num0, count1, bit1, key1, num1 = mv
    asz = ksize[a]
    bsz = ksize[b]
    offa = koff[a]
    offb = koff[b]
    half = asz * bsz
    rbit = np.empty(width, np.int64)
    rat = np.empty(width, np.int64)
    rstride = np.empty(width, np.int64)
    # the first side to move: a row x shares its placement and its moves
    for x in range(asz):
        g0 = offa + x
        m0 = masks0[g0]
        nm = count0[g0]
        for j in range(nm):
            e = g0 * width + j
            k2 = key0[e]
            z = num0[e]
            rbit[j] = bit0[e]
            if k2 == a:  # sideways: (1, z, y) of this tier
                rat[j] = own + (asz + z) * bsz
                rstride[j] = 1
            else:  # forward or off: (1, z, y) of the tier (k2, b)
                k2sz = ksize[k2]
                start = views[0, k2, 0]
                if views[0, k2, 1]:  # stored as (b, k2): (0, y, z)
                    rat[j] = start + z
                    rstride[j] = k2sz
                else:
                    rat[j] = start + (k2sz + z) * bsz
                    rstride[j] = 1
        for y in range(bsz):
            p = x * bsz + y
            passed = own + half + p  # the same placements, the other side to move
            out[p] = _position(
                m0, masks1[offb + y], nm, rbit, rat, rstride, y, passed, blocked, misere
            )
    # the second side to move: a column y shares its placement and its moves; the columns
    # are taken a band of TILE rows at a time, so that each child is read along its rows
    for x0 in range(0, asz, TILE):
        x1 = min(asz, x0 + TILE)
        for y in range(bsz):
            g1 = offb + y
            m1 = masks1[g1]
            nm = count1[g1]
            for j in range(nm):
                e = g1 * width + j
                k2 = key1[e]
                z = num1[e]
                rbit[j] = bit1[e]
                if k2 == b:  # sideways: (0, x, z) of this tier
                    rat[j] = own + z
                    rstride[j] = bsz
                else:  # (0, x, z) of the tier (a, k2)
                    k2sz = ksize[k2]
                    start = views[1, k2, 0]
                    if views[1, k2, 1]:  # stored as (k2, a): (1, z, x) there
                        rat[j] = start + (k2sz + z) * asz
                        rstride[j] = 1
                    else:
                        rat[j] = start + z
                        rstride[j] = k2sz
            for x in range(x0, x1):
                p = half + x * bsz + y
                passed = own + p - half
                m0 = masks0[offa + x]
                out[p] = _position(m1, m0, nm, rbit, rat, rstride, x, passed, blocked, misere)


@nb.njit(cache=True, nogil=True)
def fold_back(where, full, stored, out):
    """Derived codes of stored entries from those of the full tier: `where[i]` the stored entry
    of full index i. An entry keeps its stored code unless a position it stands for derives
    another, which it then takes."""
    out[:] = stored
    for i in range(where.shape[0]):
        q = where[i]
        if full[i] != stored[q]:
            out[q] = full[i]


class DodgemChecker:
    """The independent checker of one Dodgem ruleset's stored tables."""

    independent = True

    def __init__(self, rules: DodgemRules) -> None:
        self.rules = rules
        # the storage layout (which tiers are stored, Piecepack's mirror pairs)
        self.layout = DodgemTiers(rules)
        self.mirror = self.layout.mirror
        self._children: dict[int, list[int]] = {}
        self._unfolded: OrderedDict[int, tuple[U16, U16]] = OrderedDict()
        self._unfolded_bytes = 0
        self._lock = threading.Lock()  # Dask threads share one checker

    @property
    def name(self) -> str:
        """The checker and the version of its rules."""
        return CHECKER_NAME

    def spec(self) -> dict[str, Any]:
        """Plain data to rebuild this checker elsewhere."""
        r = self.rules
        return {
            "checker": "boardlab.games.dodgem.verify_rules:from_spec",
            "size": r.size,
            "geometry": r.geometry,
            "blocked": r.blocked,
            "goal": r.goal,
        }

    @cached_property
    def board(self) -> Board:
        """The board's numbering and moves."""
        return board(self.rules.size, self.rules.geometry)

    @cached_property
    def _moves(self) -> tuple[I64, ...]:
        bd = self.board
        flat: list[I64] = []
        for side in (0, 1):
            flat += [bd.count[side], bd.bit[side].ravel(), bd.key[side].ravel()]
            flat.append(bd.num[side].ravel())
        return tuple(flat)

    def _canonical(self, a: int, b: int) -> int:
        k = self.board.keys
        return min(a, b) * k + max(a, b)

    def _full_children(self, tier: int) -> list[tuple[int, int, int]]:
        """(side whose forward move leads there, new key, full child tier) of a stored tier."""
        k = self.board.keys
        a, b = divmod(tier, k)
        kc = self.board.key_children
        return [(0, k2, k2 * k + b) for k2 in kc[0][a]] + [(1, k2, a * k + k2) for k2 in kc[1][b]]

    def child_tiers(self, tier: int) -> list[int]:
        """The stored tiers that moves out of `tier` lead to, as this module's moves find them."""
        got = self._children.get(tier)
        if got is None:
            got = self._children[tier] = self._child_tiers(tier)
        return got

    def _child_tiers(self, tier: int) -> list[int]:
        k = self.board.keys
        return sorted(
            {self._canonical(*divmod(full, k)) for _s, _k2, full in self._full_children(tier)}
        )

    def _unfold_child(self, child: int, canonical: U16) -> U16:
        """A full child tier from its stored one, kept for the next tiers that read it (a
        tier is the child of several): unfolding is most of the work of a Piecepack check.
        An entry serves only the very stored array it was made from (another table, or the
        same tier read again, is unfolded again)."""
        with self._lock:
            got = self._unfolded.get(child)
            if got is not None and got[0] is canonical:
                self._unfolded.move_to_end(child)
                return got[1]
        made: U16 = self.layout.unfold(child, canonical)
        size = made.nbytes + canonical.nbytes
        with self._lock:
            old = self._unfolded.pop(child, None)
            if old is not None:
                self._unfolded_bytes -= old[0].nbytes + old[1].nbytes
            if size <= UNFOLDED_BYTES:
                self._unfolded[child] = (canonical, made)
                self._unfolded_bytes += size
                while self._unfolded_bytes > UNFOLDED_BYTES:
                    a, b = self._unfolded.popitem(last=False)[1]
                    self._unfolded_bytes -= a.nbytes + b.nbytes
        return made

    def work_bytes(self, tier: int) -> int:
        """The result (classic: the tier and its children are read where they lie in the
        cache); for Piecepack also the tier and its children unfolded (twice their stored
        size) and the map back."""
        size = self.layout.tier_size(tier)
        kids = sum(self.layout.tier_size(c) for c in self.child_tiers(tier))
        if not self.mirror:
            return 2 * size
        full = 2 * size
        # full codes, full result, the map back (int32), the result; children unfolded
        return 2 * full + 2 * full + 4 * full + 2 * size + 2 * (2 * kids)

    def derive(self, tier: int, codes: U16, children: Any) -> U16:
        """What every stored entry of `tier` must hold (see `boardlab.core.checks`)."""
        bd = self.board
        k = bd.keys
        a, b = divmod(tier, k)
        stored = {t: c for t, c in zip(self.child_tiers(tier), children, strict=True)}
        full = self.layout.unfold(tier, codes) if self.mirror else codes
        parts: list[U16] = [full]  # kept alive while the kernel reads them where they lie
        views = np.zeros((2, k, 2), np.int64)
        placed: dict[int, int] = {}
        for side, k2, child in self._full_children(tier):
            ca, cb = divmod(child, k)
            canon = self._canonical(ca, cb)
            if self.mirror:  # every full child tier unfolded on its own
                arr = self._unfold_child(child, stored[canon])
                views[side, k2] = (_address(arr), 0)
                parts.append(arr)
                continue
            if canon not in placed:
                placed[canon] = _address(stored[canon])
            views[side, k2] = (placed[canon], int(canon != child))
        out = np.empty(len(full), np.uint16)
        derive_full(
            a,
            b,
            bd.key_size,
            bd.key_offset,
            bd.masks[0],
            bd.masks[1],
            self._moves,
            bd.width,
            _BLOCKED[self.rules.blocked],
            int(self.rules.goal == "misere"),
            _address(full),
            views,
            out,
        )
        if not self.mirror:
            return out
        where = self.layout.unfold(tier, np.arange(len(codes), dtype=np.int32))
        folded = np.empty(len(codes), np.uint16)
        fold_back(where, out, codes, folded)
        return folded


def from_spec(spec: dict[str, Any]) -> DodgemChecker:
    """Rebuild a checker from `DodgemChecker.spec()`."""
    rules = DodgemRules(
        size=int(spec["size"]),
        geometry=spec["geometry"],
        blocked=spec["blocked"],
        goal=spec["goal"],
    )
    return DodgemChecker(rules)


def checker_for(rules: Any) -> DodgemChecker | None:
    """The checker of a Dodgem ruleset whose tables the solver builds (sizes 3-6), else None."""
    if not isinstance(rules, DodgemRules) or not 3 <= rules.size <= 6:
        return None
    return DodgemChecker(rules)
