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
