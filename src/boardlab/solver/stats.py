"""Statistics of built tables, from the manifest's totals (no tier is decompressed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardlab.solver.api import Tablebase


@dataclass
class TableStats:
    """Counts over all positions, the start's value, the longest result and a histogram."""

    all: dict[str, int]
    start: dict[str, Any]
    max_remoteness: int
    histogram: dict[str, list[int]]  # win / loss counts by remoteness
    reachable: dict[str, int] | None = None  # not computed by the tier solver yet
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


def table_stats(rules: Any, table: Tablebase) -> TableStats:
    """Statistics of a complete table."""
    h = table.header
    top = int(h["max_remoteness"])
    hist = {"win": [0] * (top + 1), "loss": [0] * (top + 1)}
    for code, n in h["histogram"]:
        if code >= 2:
            hist["loss" if code & 1 else "win"][(code - 2) // 2] += n
    start = rules.start()
    value, rem = table.probe(start)
    return TableStats(
        all={k: int(h[k]) for k in ("positions", "win", "loss", "draw")},
        start={"position": str(start), "value": value.value, "remoteness": rem},
        max_remoteness=top,
        histogram=hist,
    )
