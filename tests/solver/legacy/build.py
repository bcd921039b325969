"""The old whole-board driver: slices by level, colour-swap mirror, all in memory."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.games.dodgem.rules import DodgemRules
from tests.solver.legacy.index import geometry_rules, scheme_for
from tests.solver.legacy.kernel import mirror_slice, solve_slice


def solve_in_memory(rules: DodgemRules) -> npt.NDArray[Any]:
    """Codes of every position index (0 invalid, 1 draw, 2+2r win, 3+2r loss)."""
    sch = scheme_for(geometry_rules(rules))
    k = sch.num_keys
    by_level: dict[int, list[tuple[int, int]]] = {}
    for bk in range(k):
        for rk in range(bk, k):
            by_level.setdefault(sch.level(bk, rk), []).append((bk, rk))
    table = np.zeros(sch.total, dtype=np.uint16)
    b, r = sch.blue_moves, sch.red_moves
    args = (
        k, sch.key_size, sch.key_offset, sch.slice_offset, sch.key_of, sch.blue_mask,
        sch.red_mask, b.dest, b.child, b.kind, b.un_src, b.un_parent, r.dest, r.child,
        r.kind, r.un_src, r.un_parent,
    )  # fmt: skip
    for level in sorted(by_level, reverse=True):
        for bk, rk in by_level[level]:
            res = solve_slice(
                table, bk, rk, *args, rules.blocked == "wins", rules.goal == "misere", 65535
            )
            assert res >= 0, res
            if bk != rk:
                mirror_slice(table, bk, rk, k, sch.key_size, sch.slice_offset)
    return table
