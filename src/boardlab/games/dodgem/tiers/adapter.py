"""`DodgemTiers`: the tier adapter the solver sees (tiers, children, sizes, rank and unrank,
symmetries, the spec that rebuilds it in a Dask worker)."""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import NotationError
from boardlab.core.tiers import TierKernel
from boardlab.games.dodgem.kernel import blocked_code
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.games.dodgem.tiers.kernel import (
    _half,
    _rank,
    _unfold,
    _unrank,
    _weighted_counts,
    dodgem_moves,
    dodgem_primitive,
    dodgem_unmoves,
)
from boardlab.games.dodgem.tiers.layout import (
    I64,
    P_A,
    P_B,
    Placements,
    _shared_blob,
    placements,
)
from boardlab.games.dodgem.tiers.reach import (
    dodgem_reach_tier,
)
from boardlab.games.dodgem.tiers.rowpass import (
    dodgem_entries,
)


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
        """The compiled functions (the entries of this adapter's flavour of tier)."""
        solve, first_pass, propagate = dodgem_entries(self.mirror, self.rules.blocked == "passes")
        return TierKernel(
            dodgem_primitive,
            dodgem_moves,
            dodgem_unmoves,
            3 * (self.rules.size - 1) + 1,
            solve=solve,
            reach=dodgem_reach_tier(self.mirror),
            first_pass=first_pass,
            propagate=propagate,
            child_addresses=True,
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

    @lru_cache(maxsize=1 << 16)  # noqa: B019 (the plan, the solve and tier_context ask)
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

    def weighted_counts(
        self,
        tier: int,
        codes: npt.NDArray[Any],
        out: npt.NDArray[np.int64] | None = None,
        tally: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """How many positions of the whole game hold each code (65536 long): each stored
        entry stands for its orbit (the colour swap's tier, and its mirror image unless the
        position is its own mirror image). With `out`, added into it and returned. Without
        the mirror every entry weighs the same, and `tally` (the kernel's count of the
        codes) gives the counts without reading the codes."""
        counts = np.zeros(65536, np.int64) if out is None else out
        if tally is not None and not self.mirror:
            counts[: len(tally)] += self.orbit_size(tier) * tally
            return counts
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
