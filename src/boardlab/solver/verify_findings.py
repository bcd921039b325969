"""What `boardlab verify` finds: a stored entry against what its children make it, by kind,
as a named line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.checks import BAD_CHILD
from boardlab.core.tiers import TierGame

KINDS = (
    "value contradicted",
    "remoteness off",
    "child entry invalid",
    "entry missing",
    "entry for no position",
)


@dataclass(frozen=True)
class Finding:
    """A stored entry that its children (or the rules) contradict."""

    kind: str
    tier: int
    index: int
    stored: int
    derived: int


def _value(code: int) -> str:
    if code == 1:
        return "draw"
    return "loss" if code & 1 else "win"


def kind_of(stored: int, derived: int) -> str:
    """The named kind of a disagreement."""
    if derived == BAD_CHILD:
        return "child entry invalid"
    if derived == 0:
        return "entry for no position"
    if stored == 0:
        return "entry missing"
    if _value(stored) != _value(derived):
        return "value contradicted"
    return "remoteness off"


def kind_counts(stored: npt.NDArray[Any], derived: npt.NDArray[Any]) -> dict[str, int]:
    """Disagreements by kind (arrays of the disagreeing entries only)."""
    s = stored.astype(np.int64)
    d = derived.astype(np.int64)
    bad = d == BAD_CHILD
    none = ~bad & (d == 0)
    missing = ~bad & ~none & (s == 0)
    rest = ~bad & ~none & ~missing

    def val(c: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.where(c == 1, 0, 1 + (c & 1))

    contradicted = rest & (val(s) != val(d))
    counts = {
        "child entry invalid": int(bad.sum()),
        "entry for no position": int(none.sum()),
        "entry missing": int(missing.sum()),
        "value contradicted": int(contradicted.sum()),
        "remoteness off": int((rest & ~contradicted).sum()),
    }
    return {k: v for k, v in counts.items() if v}


def _text(code: int) -> str:
    if code == 1:
        return "a draw"
    r = (code - 2) // 2
    return f"a {_value(code)} in {r}"


def describe(game: TierGame, f: Finding) -> str:
    """A finding as one named line."""
    try:
        pos: Any = game.position(f.tier, f.index)
    except Exception:  # a layout that cannot name the index: the numbers say enough
        pos = None
    where = f"tier {game.tier_name(f.tier)} index {f.index}" + (f" ({pos})" if pos else "")
    if f.kind == "child entry invalid":
        return f"child entry invalid: {where}: a move leads to an entry stored as no position"
    if f.kind == "entry for no position":
        return f"entry for no position: {where} is no position but holds {_text(f.stored)}"
    if f.kind == "entry missing":
        return (
            f"entry missing: {where} is stored as no position; its children make it "
            f"{_text(f.derived)}"
        )
    if f.kind == "remoteness off":
        k = abs(f.stored - f.derived) // 2
        return (
            f"remoteness off by {k}: {where}: stored {_text(f.stored)}, its children make it "
            f"{_text(f.derived)}"
        )
    return (
        f"value contradicted: {where}: stored {_text(f.stored)}, its children make it "
        f"{_text(f.derived)}"
    )
