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

__all__ = [
    "MoveEval",
    "Tablebase",
    "analyse",
    "default_tables_dir",
    "ensure_table",
    "open_table",
    "solvable",
]
