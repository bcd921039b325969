"""Dodgem levels 1-4, the way users pick computer opponents (see docs/ai-levels.md); the
game's `GameInfo.levels` names `player_for_level`.

Dodgem, every variant and size:
1. beginner: looks two plies ahead, misjudges positions (noise of about 0.6 steps) and one
   move in twenty is a random one; it beats a random mover in more than 90% of games;
2. casual: looks three plies ahead with smaller noise (about a quarter step), never random;
3. strong: iterative-deepening alpha-beta, 30,000 nodes a move (about 0.15 s on 5×5),
   and at most 3 plies deep on 3×3 and 4 on 4×4, where deeper search would leave level 2
   far behind and play almost perfectly (3×3 is a first-player win that an 8-ply search
   converts every time);
4. perfect from the complete table where one exists (tables up to 4×4 are built on first
   use), else the same search with 300,000 nodes a move (about 1.5 s).

Node budgets rather than clocks decide moves, so games replay exactly from their seed; each
search also stops at a time cap that only a slow machine reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.ai.base import Player
from boardlab.core.errors import UsageError
from boardlab.core.rules import Rules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore

LEVEL_NAMES = {1: "beginner", 2: "casual", 3: "strong", 4: "perfect"}

LEVEL3_NODES = 30_000
LEVEL3_TIME_CAP = 1.0
LEVEL3_DEPTH = {3: 3, 4: 4}  # by board size (even spacing); larger boards: nodes only
LEVEL4_NODES = 300_000
LEVEL4_TIME_CAP = 5.0


def dodgem_player(level: int, size: int = 5, tables: TableStore | None = None) -> Player:
    """A Dodgem player of the given level for boards of `size` (players keep their own
    search tables; level 4 reads complete tables from `tables`)."""
    from boardlab.ai.dodgem.perfect import PerfectPlayer
    from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer

    if level == 1:
        return NoisySearchPlayer("level 1", depth=2, noise=60.0, blunder=0.05)
    if level == 2:
        return NoisySearchPlayer("level 2", depth=3, noise=25.0)
    if level == 3:
        return SearchPlayer(
            "level 3",
            nodes=LEVEL3_NODES,
            time_cap=LEVEL3_TIME_CAP,
            max_depth=LEVEL3_DEPTH.get(size, 64),
        )
    if level == 4:
        search = SearchPlayer("level 4", nodes=LEVEL4_NODES, time_cap=LEVEL4_TIME_CAP)
        return PerfectPlayer(search, tables)
    raise UsageError(f"unknown level {level} (levels are 1 to 4)")


def player_for_level(
    level: int, rules: Rules[Any, Any], tables: TableStore | None = None
) -> Player:
    """The Dodgem player of `level` (1-4) for the board of `rules`."""
    if level not in LEVEL_NAMES:
        raise UsageError(f"unknown level {level} (levels are 1 to 4)")
    return dodgem_player(level, rules.size, tables)
