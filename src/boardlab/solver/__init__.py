"""Strong solution of Dodgem: retrograde analysis into complete tablebases (sizes 3 to 5)."""

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
