"""The shape of a Dodgem board's tiers, counted without building the board's tables.

`DodgemTiers` (the `tiers` package) numbers every placement of both sides and builds move
tables for them: about 770 bytes per placement, which is 12 MB on 5×5 and 18 GB on 7×7 (16
million placements a side). Counting the tiers needs none of it: a side's *key* is how many of its
cars stand on each of its lines, a key holds prod C(n, c) placements, and a forward move or
an exit takes one car from a line to the next (or off the board). This module gives the
same keys, tiers, tier sizes and child tiers as `DodgemTiers` for any size, so that
`boardlab solve --estimate` can plan a board the solver does not run (7×7); a test checks it
against `DodgemTiers` on the boards the solver does run.
"""

from __future__ import annotations

import itertools
import math
from functools import cached_property
from typing import Any

from boardlab.games.dodgem.rules import DodgemRules

MAX_SHAPE_SIZE = 8  # the largest board Dodgem is played on


def _symmetric_subsets(n: int, c: int) -> int:
    """Subsets of c squares of a line of n that the left-right mirror maps to themselves."""
    pairs, middle = divmod(n, 2)
    total = math.comb(pairs, c // 2) if c % 2 == 0 else 0
    if middle and c % 2 == 1:
        total += math.comb(pairs, (c - 1) // 2)
    return total


class DodgemShape:
    """Tiers, sizes and child tiers of one Dodgem ruleset, as `DodgemTiers` has them."""

    def __init__(self, rules: DodgemRules, symmetric: bool = True) -> None:
        self.rules = rules
        self.symmetric = symmetric
        self.mirror = symmetric and rules.geometry == "piecepack"
        n = rules.size
        # keys in the order of `tiers.placements`: by car count, then line by line
        self.keys: tuple[tuple[int, ...], ...] = tuple(
            sorted(
                (c for c in itertools.product(range(n), repeat=n) if sum(c) <= n - 1),
                key=lambda c: (sum(c), c),
            )
        )
        self._key_id = {k: i for i, k in enumerate(self.keys)}
        self.key_size = [math.prod(math.comb(n, c) for c in k) for k in self.keys]
        self.key_fixed = [math.prod(_symmetric_subsets(n, c) for c in k) for k in self.keys]

    @property
    def ruleset_id(self) -> str:
        """The rules' id, e.g. dodgem-7-classic-wins-normal."""
        return self.rules.ruleset_id()

    @property
    def max_moves(self) -> int:
        """The most moves a position has, a pass included (as `DodgemTiers.kernel`)."""
        return 3 * (self.rules.size - 1) + 1

    @cached_property
    def key_children(self) -> tuple[tuple[int, ...], ...]:
        """Per key, the keys one forward move or exit away, by id."""
        n = self.rules.size
        out = []
        for k in self.keys:
            kids = set()
            for line, count in enumerate(k):
                if not count:
                    continue
                child = list(k)
                child[line] -= 1
                if line + 1 < n:
                    child[line + 1] += 1
                kids.add(self._key_id[tuple(child)])
            out.append(tuple(sorted(kids)))
        return tuple(out)

    def canonical(self, a: int, b: int) -> int:
        """Canonical tier id of (a, b)."""
        if self.symmetric and a > b:
            a, b = b, a
        return a * len(self.keys) + b

    def tiers(self) -> list[int]:
        """Canonical tiers, by id."""
        k = len(self.keys)
        return [a * k + b for a in range(k) for b in range(k) if not self.symmetric or a <= b]

    def child_tiers(self, tier: int) -> list[int]:
        """Tiers one forward move away, canonical, sorted."""
        a, b = divmod(tier, len(self.keys))
        kc = self.key_children
        out = {self.canonical(k2, b) for k2 in kc[a]} | {self.canonical(a, k2) for k2 in kc[b]}
        return sorted(out)

    def tier_size(self, tier: int) -> int:
        """2 * |A| * |B|; with the mirror, 2 * the pairs stored up to the mirror."""
        a, b = divmod(tier, len(self.keys))
        pairs = self.key_size[a] * self.key_size[b]
        if self.mirror:
            pairs = (pairs + self.key_fixed[a] * self.key_fixed[b]) // 2
        return 2 * pairs

    def tier_name(self, tier: int) -> str:
        """`a-b` by key ids."""
        a, b = divmod(tier, len(self.keys))
        return f"{a}-{b}"

    def key_depth(self) -> list[int]:
        """Per key, the most forward moves and exits before the side has no car left."""
        depth: list[int] = []
        for kids in self.key_children:  # a key's children come before it (fewer steps left)
            depth.append(1 + max((depth[c] for c in kids), default=-1))
        return depth

    def tier_levels(self) -> dict[int, int]:
        """Each canonical tier's level in the solve (`boardlab.solver.plan.tier_levels`):
        a move changes one side's key to a child key, so the level of (a, b) is the depth
        of a plus the depth of b."""
        depth = self.key_depth()
        k = len(self.keys)
        return {t: depth[t // k] + depth[t % k] for t in self.tiers()}

    @property
    def placements(self) -> int:
        """Placements of one side: every key's."""
        return sum(self.key_size)

    def board_bytes(self) -> int:
        """The board's tables a solving process holds whatever the tier (`tiers.placements`
        and the compiled functions' copy of them): per placement, numbering and masks (40
        bytes), each side's moves (9 bytes a slot, 3(n-1) slots) and sideways un-moves (8
        bytes each, 2(n-1) of them), twice over."""
        n = self.rules.size
        slots, unmoves = 3 * (n - 1), 2 * (n - 1)
        return 2 * (40 + 2 * 9 * slots + 2 * 8 * unmoves) * self.placements

    def facts(self) -> dict[str, Any]:
        """What the estimate prints about the board beyond its tiers."""
        return {"placements per side": self.placements, "board tables": self.board_bytes()}


def shape_for(rules: Any) -> DodgemShape | None:
    """The tier shape of a Dodgem ruleset of any size it is played on, else None."""
    if not isinstance(rules, DodgemRules) or not 3 <= rules.size <= MAX_SHAPE_SIZE:
        return None
    return DodgemShape(rules)
