"""Statistics of a table: results over all positions and over those reachable from the start."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.outcome import Value
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.solver.api import Tablebase
from boardlab.solver.index import IndexScheme, geometry_rules, scheme_for


@nb.njit(cache=True)
def _reach(  # type: ignore[no-untyped-def]
    reach,
    order,
    start,
    num_keys,
    key_size,
    key_offset,
    slice_offset,
    key_of,
    blue_mask,
    red_mask,
    b_dest,
    b_child,
    b_kind,
    r_dest,
    r_child,
    r_kind,
):
    """Mark every position reachable from `start`; slices are visited in `order` (by level)."""
    reach[start] = 1
    stack = np.empty(1 << 20, np.int64)
    for t in range(order.shape[0]):
        sl = order[t]
        bk = sl // num_keys
        rk = sl - bk * num_keys
        bs = key_size[bk]
        rs = key_size[rk]
        half = bs * rs
        base = slice_offset[sl]
        top = 0
        for p in range(2 * half):
            if reach[base + p]:
                if top >= stack.shape[0]:
                    stack = np.concatenate((stack, np.empty(stack.shape[0], np.int64)))
                stack[top] = p
                top += 1
        while top > 0:
            top -= 1
            p = stack[top]
            side = p // half
            rest = p - side * half
            ib = rest // rs
            ir = rest - ib * rs
            gb = key_offset[bk] + ib
            gr = key_offset[rk] + ir
            mb = blue_mask[gb]
            mr = red_mask[gr]
            if mb == 0 or mr == 0:
                continue  # cleared: the game is over
            if side == 0:
                for j in range(b_kind.shape[1]):
                    kind = b_kind[gb, j]
                    if kind < 0:
                        break
                    d = b_dest[gb, j]
                    if d >= 0 and (mr >> d) & 1:
                        continue
                    g2 = b_child[gb, j]
                    k2 = key_of[g2]
                    s2 = key_size[k2]
                    q = slice_offset[k2 * num_keys + rk] + s2 * rs + (g2 - key_offset[k2]) * rs + ir
                    if reach[q] == 0:
                        reach[q] = 1
                        if kind == 0:
                            if top >= stack.shape[0]:
                                stack = np.concatenate((stack, np.empty(stack.shape[0], np.int64)))
                            stack[top] = q - base
                            top += 1
            else:
                for j in range(r_kind.shape[1]):
                    kind = r_kind[gr, j]
                    if kind < 0:
                        break
                    d = r_dest[gr, j]
                    if d >= 0 and (mb >> d) & 1:
                        continue
                    g2 = r_child[gr, j]
                    k2 = key_of[g2]
                    s2 = key_size[k2]
                    q = slice_offset[bk * num_keys + k2] + ib * s2 + (g2 - key_offset[k2])
                    if reach[q] == 0:
                        reach[q] = 1
                        if kind == 0:
                            if top >= stack.shape[0]:
                                stack = np.concatenate((stack, np.empty(stack.shape[0], np.int64)))
                            stack[top] = q - base
                            top += 1
    return 0


@nb.njit(cache=True)
def _histograms(codes, reach, maxcode):  # type: ignore[no-untyped-def]
    """Count of every code over all entries and over reachable entries."""
    all_counts = np.zeros(maxcode + 1, np.int64)
    reach_counts = np.zeros(maxcode + 1, np.int64)
    for i in range(codes.shape[0]):
        c = codes[i]
        all_counts[c] += 1
        if reach[i]:
            reach_counts[c] += 1
    return all_counts, reach_counts


def reachable_mask(rules: DodgemRules, scheme: IndexScheme) -> npt.NDArray[np.uint8]:
    """1 for every index reachable from the start (the game stops at finished positions)."""
    k = scheme.num_keys
    slices = [(scheme.level(bk, rk), bk * k + rk) for bk in range(k) for rk in range(k)]
    order = np.array([s for _, s in sorted(slices)], dtype=np.int64)
    reach = np.zeros(scheme.total, dtype=np.uint8)
    b, r = scheme.blue_moves, scheme.red_moves
    _reach(
        reach,
        order,
        scheme.index(rules.start()),
        k,
        scheme.key_size,
        scheme.key_offset,
        scheme.slice_offset,
        scheme.key_of,
        scheme.blue_mask,
        scheme.red_mask,
        b.dest,
        b.child,
        b.kind,
        r.dest,
        r.child,
        r.kind,
    )
    return reach


@dataclass
class TableStats:
    """Counts of wins, losses and draws (side to move) and remoteness histograms."""

    all: dict[str, int]
    reachable: dict[str, int]
    start: dict[str, Any]
    max_remoteness: int
    histogram: dict[str, list[int]] = field(default_factory=dict)  # remoteness -> count
    reachable_histogram: dict[str, list[int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """Plain data for --json."""
        return {
            "all": self.all,
            "reachable": self.reachable,
            "start": self.start,
            "max_remoteness": self.max_remoteness,
            "histogram": self.histogram,
            "reachable_histogram": self.reachable_histogram,
        }


def _split(counts: npt.NDArray[np.int64]) -> tuple[dict[str, int], dict[str, list[int]]]:
    wins = [int(x) for x in counts[2::2]]
    losses = [int(x) for x in counts[3::2]]
    losses += [0] * (len(wins) - len(losses))
    totals = {"win": sum(wins), "loss": sum(losses), "draw": int(counts[1])}
    return totals, {"win": wins, "loss": losses}


def table_stats(rules: DodgemRules, table: Tablebase) -> TableStats:
    """Statistics of a whole table (decompresses it: about 0.5 GB for 5×5)."""
    scheme = scheme_for(geometry_rules(rules))
    codes = table.file.codes(0, table.file.entries, native=True)
    reach = reachable_mask(rules, scheme)
    maxcode = int(codes.max())
    all_counts, reach_counts = _histograms(codes, reach, maxcode)
    totals, hist = _split(all_counts)
    rtotals, rhist = _split(reach_counts)
    rtotals["positions"] = int(reach_counts[1:].sum())
    totals["positions"] = int(all_counts[1:].sum())
    value, rem = table.probe(rules.start())
    maxrem = max(
        [i for i, c in enumerate(hist["win"]) if c] + [i for i, c in enumerate(hist["loss"]) if c]
    )
    return TableStats(
        all=totals,
        reachable=rtotals,
        start={"position": str(rules.start()), "value": value.value, "remoteness": rem},
        max_remoteness=maxrem,
        histogram=hist,
        reachable_histogram=rhist,
    )


__all__ = ["TableStats", "Value", "reachable_mask", "table_stats"]
