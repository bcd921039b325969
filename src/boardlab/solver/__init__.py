"""Strong solutions by retrograde analysis: a game-agnostic tier solver, out of core, on Dask.

A game declares its tiers (`boardlab.core.tiers`); the solver imports no game."""

from boardlab.solver.api import (
    MoveEval,
    Tablebase,
    analyse,
    default_tables_dir,
    ensure_table,
    open_table,
    solvable,
)
from boardlab.solver.store import AUTO_BUILD_MAX_SIZE, BuildProgress, TableStore

__all__ = [
    "AUTO_BUILD_MAX_SIZE",
    "BuildProgress",
    "MoveEval",
    "TableStore",
    "Tablebase",
    "analyse",
    "default_tables_dir",
    "ensure_table",
    "open_table",
    "solvable",
]
