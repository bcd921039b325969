"""The table checker interface: what a game declares so that its tables can be verified.

A checker re-derives what every stored entry of a tier must hold from the game's rules, written
apart from the tier adapter's compiled functions that the solver runs, and from the stored
entries of the tier itself and of its child tiers. The verifier (`boardlab.solver.verify`)
compares the two and names every difference; it knows the game only through this interface and
the tier adapter (which tiers are stored, in which packs).

Derived codes are the solver's codes (`boardlab.core.retrograde_work`: 0 no position, 1 draw,
2 + 2r win in r, 3 + 2r loss in r, for the side to move) or `BAD_CHILD`: a position one of whose
moves leads to an entry stored as no position, so that nothing can be derived for it.

The rule a checker applies is local and needs no queue: a finished position holds its value
with remoteness 0; otherwise, over its children's stored codes (each for the opponent), a
position is a win in 1 + r where r is the smallest remoteness of a lost child, else a draw if
a child is drawn, else a loss in 1 + the largest remoteness of its (won) children. A table in
which every entry agrees with this is the table of the game: a stored win or loss is proved by
a chain of agreeing entries down to a finished position, and a position that the game decides
cannot be left as a draw (its shortest forced result would be found among its children).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

BAD_CHILD = 0xFFFF
"""A derived code: a move of the position leads to an entry stored as no position."""


@runtime_checkable
class TierChecker(Protocol):
    """An independent check of one ruleset's stored tiers."""

    @property
    def name(self) -> str:
        """What the checker is and which version of its rules (kept in the verify record:
        a record made by another checker is not trusted)."""
        ...

    @property
    def independent(self) -> bool:
        """True when the checker's rules are written apart from the solver's."""
        ...

    def child_tiers(self, tier: int) -> Sequence[int]:
        """The stored tiers whose entries `derive` reads besides `tier` itself, as the rules
        find them (not as the tier adapter declares them), no repeats."""
        ...

    def derive(
        self,
        tier: int,
        codes: npt.NDArray[np.uint16],
        children: Sequence[npt.NDArray[np.uint16]],
    ) -> npt.NDArray[np.uint16]:
        """What each entry of the stored tier must hold (see the module docstring), given its
        stored `codes` and the stored codes of `child_tiers(tier)` in that order."""
        ...

    def work_bytes(self, tier: int) -> int:
        """Memory `derive` needs for `tier` beyond the stored codes it is handed (its result
        and work arrays): the verifier makes room for it within its budget."""
        ...

    def spec(self) -> dict[str, Any]:
        """Plain data from which `checker_from_spec` rebuilds this object elsewhere
        (`spec['checker']` names 'module:function')."""
        ...


def checker_from_spec(spec: dict[str, Any]) -> TierChecker:
    """Rebuild a checker from its `spec()`."""
    import importlib

    module, _, func = str(spec["checker"]).partition(":")
    made: TierChecker = getattr(importlib.import_module(module), func)(spec)
    return made
