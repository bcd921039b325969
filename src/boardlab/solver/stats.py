"""Statistics of built tables: counts over all positions (from the manifest) and over the
positions reachable from the start (a walk over the tiers, children last, bounded memory).

Reachability walks the game without symmetry (`full_game()`): a tier's reached marks are
complete once every tier with a move into it is done, which the level order guarantees, so
each tier is walked once, then its marks are counted against its codes (unfolded from the
stored canonical tier) and dropped. The tiers of a level have no moves between them, so they
are walked on several threads at once.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.retrograde import run_reach
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


def reachable_counts(
    table: Tablebase, start: Any, threads: int | None = None
) -> npt.NDArray[np.int64]:
    """How many positions reachable from `start` hold each code, walking the tiers of each
    level on `threads` threads (default: the cores; the kernel releases the GIL)."""
    game = table.game
    full = game.full_game()
    levels = tier_levels(full)
    by_level: dict[int, list[int]] = {}
    for t, lv in levels.items():
        by_level.setdefault(lv, []).append(t)
    t0, i0 = full.locate(start)
    marks: dict[int, npt.NDArray[np.uint8]] = {t0: np.zeros(full.tier_size(t0), np.uint8)}
    marks[t0][i0] = 1
    merge = threading.Lock()
    kept = threading.local()

    def walk(
        tier: int, mark: npt.NDArray[np.uint8], canon_codes: npt.NDArray[np.uint16]
    ) -> npt.NDArray[np.int64]:
        kids = list(full.child_tiers(tier))
        # the children's marks of this tier alone, side by side in one array (one flat
        # index in the kernel): other tiers of the level mark the same children at once,
        # so each ORs its own into the shared marks when done
        base = np.zeros(len(kids) + 1, np.int64)
        np.cumsum([full.tier_size(c) for c in kids], out=base[1:])
        n = max(1, int(base[-1]))
        held: npt.NDArray[np.uint8] | None = getattr(kept, "buf", None)
        if held is None or len(held) < n:  # the thread's buffer, kept: no page faults
            kept.buf = held = np.empty(n, np.uint8)
        reached = held[:n]
        reached.fill(0)
        codes = game.unfold(tier, canon_codes)
        counts = np.zeros(65536, np.int64)
        run_reach(full.kernel, full.tier_context(tier), mark, reached, base, codes, counts)
        with merge:
            for i, c in enumerate(kids):
                np.bitwise_or(marks[c], reached[base[i] : base[i + 1]], out=marks[c])
        return counts

    total = np.zeros(65536, np.int64)
    nthreads = max(1, threads or os.cpu_count() or 1)
    with ThreadPoolExecutor(nthreads) as pool:
        for lv in sorted(by_level, reverse=True):  # parents first
            running: set[Future[npt.NDArray[np.int64]]] = set()
            # a tier and its image under the symmetry (same level) one after the other: the
            # stored codes they share are read once
            last: tuple[int, npt.NDArray[np.uint16]] | None = None
            for canon, tier in sorted((game.canonical_tier(t), t) for t in by_level[lv]):
                mark = marks.pop(tier, None)
                if mark is None:
                    continue
                if last is None or last[0] != canon:
                    last = (canon, table.pack(table.pack_of(canon)).tier_codes(canon))
                for c in full.child_tiers(tier):
                    if c not in marks:
                        marks[c] = np.zeros(full.tier_size(c), np.uint8)
                if len(running) >= 2 * nthreads:  # a bounded number of tiers in memory
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for f in finished:
                        total += f.result()
                running.add(pool.submit(walk, tier, mark, last[1]))
            for f in running:
                total += f.result()  # the level is done: its children's marks are complete
    return total


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
