"""Access to complete Dodgem tables for the players: open once, probe, build small ones.

Tables come from `boardlab.solver` (imported lazily). Opened tables are kept per ruleset so
that a player or the forced-result API probes without reopening files; a missing table is
looked for again on the next call, so a table built meanwhile is picked up.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

from boardlab.core.errors import BoardLabError, MissingTableError
from boardlab.core.outcome import Value
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules

AUTO_BUILD_MAX_SIZE = 4  # tables up to this size are built on demand (seconds)

_open: dict[DodgemRules, Any] = {}
_lock = threading.Lock()


def open_table(rules: DodgemRules, build: bool = False) -> Any | None:
    """The open table for `rules`, or None if there is none (building it first when `build`
    is set and the board is small enough). Never raises for a missing or unusable table."""
    table = _open.get(rules)
    if table is not None:
        return table
    try:
        solver = importlib.import_module("boardlab.solver")
        solvable = solver.solvable
        solver_open = solver.open_table
        ensure_table = solver.ensure_table
    except (ImportError, AttributeError):
        return None
    with _lock:
        table = _open.get(rules)
        if table is not None:
            return table
        try:
            if not solvable(rules):
                return None
            try:
                table = solver_open(rules)
            except MissingTableError:
                if not build or rules.size > AUTO_BUILD_MAX_SIZE:
                    return None
                ensure_table(rules, progress=False)
                table = solver_open(rules)
        except (BoardLabError, OSError):
            return None
        _open[rules] = table
        return table


def probe_table(rules: DodgemRules, pos: DodgemPosition) -> tuple[Value, int | None] | None:
    """(value, remoteness) of `pos` for the side to move from an open table, or None."""
    table = open_table(rules)
    if table is None:
        return None
    value, remoteness = table.probe(pos)
    return Value(value), remoteness
