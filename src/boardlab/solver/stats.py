"""Statistics of built tables: counts over all positions (from the manifest) and over the
positions reachable from the start (a walk over the tiers, children last, bounded memory).

Reachability walks the game without symmetry (`full_game()`): a tier's reached marks are
complete once every tier with a move into it is done, which the level order guarantees, so
each tier is walked once, then its marks are counted against its codes (unfolded from the
stored canonical tier) and dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.retrograde import run_reach, side_by_side
from boardlab.solver.api import Tablebase
from boardlab.solver.engine import tier_levels


@dataclass
class TableStats:
    """Counts over all and reachable positions, the start's value, longest result, histograms."""

    all: dict[str, int]
    start: dict[str, Any]
    max_remoteness: int
    histogram: dict[str, list[int]]  # win / loss counts by remoteness
    reachable: dict[str, int] | None = None
    reachable_histogram: dict[str, list[int]] | None = None

    def as_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "all": self.all,
            "reachable": self.reachable,
            "start": self.start,
            "max_remoteness": self.max_remoteness,
            "histogram": self.histogram,
            "reachable_histogram": self.reachable_histogram,
        }


def reachable_counts(table: Tablebase, start: Any) -> npt.NDArray[np.int64]:
    """How many positions reachable from `start` hold each code."""
    game = table.game
    full = game.full_game()
    levels = tier_levels(full)
    order = sorted(levels, key=lambda t: (-levels[t], t))
    t0, i0 = full.locate(start)
    marks: dict[int, npt.NDArray[np.uint8]] = {t0: np.zeros(full.tier_size(t0), np.uint8)}
    marks[t0][i0] = 1
    counts = np.zeros(65536, np.int64)
    for tier in order:
        mark = marks.pop(tier, None)
        if mark is None:
            continue
        kids = list(full.child_tiers(tier))
        for c in kids:
            if c not in marks:
                marks[c] = np.zeros(full.tier_size(c), np.uint8)
        # the children's marks side by side in one array (one flat index in the kernel, much
        # faster than a list of arrays), copied back once the tier is walked
        joined, base = side_by_side([marks[c] for c in kids], np.uint8)
        canon = game.canonical_tier(tier)
        codes = game.unfold(tier, table.pack(table.pack_of(canon)).tier_codes(canon))
        run_reach(full.kernel, full.tier_context(tier), mark, joined, base, codes, counts)
        for i, c in enumerate(kids):
            marks[c] = joined[base[i] : base[i + 1]].copy()
        del joined
    return counts


def _split(counts: npt.NDArray[np.int64]) -> tuple[dict[str, int], dict[str, list[int]]]:
    nz = np.flatnonzero(counts)
    top = max(0, (int(nz[-1]) - 2) // 2) if len(nz) and nz[-1] >= 2 else 0
    hist = {"win": [0] * (top + 1), "loss": [0] * (top + 1)}
    for code in nz:
        if code >= 2:
            hist["loss" if code & 1 else "win"][(int(code) - 2) // 2] += int(counts[code])
    win, loss, draw = sum(hist["win"]), sum(hist["loss"]), int(counts[1])
    return {"win": win, "loss": loss, "draw": draw, "positions": win + loss + draw}, hist


def table_stats(rules: Any, table: Tablebase, reachable: bool = True) -> TableStats:
    """Statistics of a complete table (reachable counts unless `reachable` is False)."""
    h = table.header
    counts = np.zeros(65536, np.int64)
    for code, n in h["histogram"]:
        counts[code] = n
    all_counts, hist = _split(counts)
    start = rules.start()
    value, rem = table.probe(start)
    st = TableStats(
        all=all_counts,
        start={"position": str(start), "value": value.value, "remoteness": rem},
        max_remoteness=int(h["max_remoteness"]),
        histogram=hist,
    )
    if reachable:
        st.reachable, st.reachable_histogram = _split(reachable_counts(table, start))
    return st
