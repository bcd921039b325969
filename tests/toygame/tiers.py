"""Nim's solver adapter: the toy game declares tiers and is solved by the same tier solver.

Tier t holds the positions with t tokens left (every move takes tokens, so it leads to a
child tier and no tier has a cycle). Index: side * R + the heaps in mixed radix (heap 0 least
significant, heap i counting 0..3+i), R the product of the radices; an index whose heaps do
not add up to t is invalid. No symmetry is declared.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.tiers import TierKernel
from tests.toygame import NimPosition, NimRules

# params: t, misere, heaps, R, then each heap's radix
P_T, P_MISERE, P_HEAPS, P_R, P_RADIX = range(5)


@nb.njit(cache=True)
def _heap(params, code, h):  # type: ignore[no-untyped-def]
    for i in range(h):
        code //= params[P_RADIX + i]
    return code % params[P_RADIX + h]


@nb.njit(cache=True)
def nim_primitive(ctx, p):  # type: ignore[no-untyped-def]
    params = ctx[0]
    code = p % params[P_R]
    total = 0
    for h in range(params[P_HEAPS]):
        total += _heap(params, code, h)
    if total != params[P_T]:
        return 0
    if total == 0:  # no move: the side to move loses (normal) or wins (misère)
        return 2 if params[P_MISERE] else 3
    return 1


@nb.njit(cache=True)
def nim_moves(ctx, p, slot, index):  # type: ignore[no-untyped-def]
    params = ctx[0]
    r = params[P_R]
    side = p // r
    code = p % r
    n = 0
    weight = 1
    for h in range(params[P_HEAPS]):
        tokens = _heap(params, code, h)
        for k in range(1, tokens + 1):
            slot[n] = k - 1  # child tier t - k
            index[n] = (1 - side) * r + code - k * weight
            n += 1
        weight *= params[P_RADIX + h]
    return n


@nb.njit(cache=True)
def nim_unmoves(ctx, p, index):  # type: ignore[no-untyped-def]
    return 0  # no move stays in its tier


class NimTiers:
    """The tier game of one Nim ruleset."""

    def __init__(self, rules: NimRules) -> None:
        self.rules = rules
        self.radix = [4 + i for i in range(rules.size)]
        self.r = int(np.prod(self.radix))
        self.most = sum(r - 1 for r in self.radix)

    @property
    def ruleset_id(self) -> str:
        return f"nim-{self.rules.size}-{self.rules.variant}"

    @property
    def rebuild_command(self) -> str:
        return f"boardlab solve --game nim --variant {self.rules.variant} --size {self.rules.size}"

    @cached_property
    def kernel(self) -> TierKernel:
        return TierKernel(nim_primitive, nim_moves, nim_unmoves, self.most)

    def tiers(self) -> list[int]:
        return list(range(self.most + 1))

    def child_tiers(self, tier: int) -> list[int]:
        return [tier - k for k in range(1, max(self.radix)) if tier - k >= 0]

    def tier_size(self, tier: int) -> int:
        return 2 * self.r

    def orbit_size(self, tier: int) -> int:
        return 1

    def weighted_counts(
        self,
        tier: int,
        codes: npt.NDArray[Any],
        out: npt.NDArray[Any] | None = None,
        tally: npt.NDArray[Any] | None = None,
    ) -> npt.NDArray[Any]:
        counts = np.bincount(codes, minlength=65536).astype(np.int64)
        if out is None:
            return counts
        out += counts
        return out

    def tier_name(self, tier: int) -> str:
        return str(tier)

    def tier_context(self, tier: int) -> tuple[Any, ...]:
        head = [tier, int(self.rules.misere), self.rules.size, self.r]
        return (np.array(head + self.radix, np.int64),)

    def locate(self, position: Any) -> tuple[int, int]:
        if not isinstance(position, NimPosition) or len(position.heaps) != self.rules.size:
            raise ValueError(f"{position} is not a position of this Nim")
        code, weight = 0, 1
        for tokens, radix in zip(position.heaps, self.radix, strict=True):
            code += tokens * weight
            weight *= radix
        return sum(position.heaps), position.to_move * self.r + code

    def position(self, tier: int, index: int) -> NimPosition | None:
        side, code = divmod(index, self.r)
        heaps = []
        for radix in self.radix:
            code, tokens = divmod(code, radix)
            heaps.append(tokens)
        return NimPosition(tuple(heaps), side) if sum(heaps) == tier else None

    def start(self) -> NimPosition:
        return self.rules.start()

    def full_game(self) -> NimTiers:
        return self

    def canonical_tier(self, tier: int) -> int:
        return tier

    def unfold(self, tier: int, canonical: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return canonical

    def spec(self) -> dict[str, Any]:
        return {
            "adapter": "tests.toygame.tiers:from_spec",
            "size": self.rules.size,
            "misere": self.rules.misere,
        }


def from_spec(spec: dict[str, Any]) -> NimTiers:
    return NimTiers(NimRules(int(spec["size"]), bool(spec["misere"])))


def tiers_for(rules: Any) -> NimTiers | None:
    return NimTiers(rules) if isinstance(rules, NimRules) and rules.size <= 4 else None
