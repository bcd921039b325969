"""Dodgem levels 1-4, the way users pick computer opponents (see docs/ai-levels.md); the
game's `GameInfo.levels` names `player_for_level`.

The settings of every level on every board live in `levels.toml` beside this module
(`boardlab.ai.levels`); this module only turns a level's settings into a player:

1. to 3. a search: a node-budget iterative-deepening alpha-beta where `nodes` is set (with
   `time` as a cap only a slow machine reaches, `depth` as its deepest), else a full-width
   `depth`-ply search with Gaussian `noise` that plays a random move with chance `blunder`;
4. perfect from the complete table where one exists (tables up to 4×4 are built on first
   use), else the search its settings describe.

Node budgets rather than clocks decide moves, so games replay exactly from their seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.ai.base import Player
from boardlab.ai.levels import LevelSettings, board_settings
from boardlab.core.errors import UsageError
from boardlab.core.registry import get_game
from boardlab.core.rules import Rules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore

LEVEL_NAMES = {1: "beginner", 2: "casual", 3: "strong", 4: "perfect"}


def search_player(name: str, settings: LevelSettings) -> Player:
    """The searching player `settings` describe (see the module docstring)."""
    from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer

    if settings.nodes is not None:
        return SearchPlayer(
            name,
            nodes=settings.nodes,
            time_cap=settings.time if settings.time is not None else 5.0,
            max_depth=settings.depth,
            contempt=settings.contempt,
        )
    return NoisySearchPlayer(
        name,
        depth=settings.depth,
        noise=settings.noise,
        blunder=settings.blunder,
        contempt=settings.contempt,
    )


def level_player(
    level: int, settings: LevelSettings, rules: Rules[Any, Any], tables: TableStore | None = None
) -> Player:
    """The Dodgem player of `level` with `settings` (level 4 reads complete tables from
    `tables` and falls back on the search)."""
    if level not in LEVEL_NAMES:
        raise UsageError(f"unknown level {level} (levels are 1 to 4)")
    search = search_player(f"level {level}", settings)
    if level != get_game(rules.game).table_level:  # the level that plays from tables
        return search
    from boardlab.ai.dodgem.perfect import PerfectPlayer
    from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer

    assert isinstance(search, (SearchPlayer, NoisySearchPlayer))
    return PerfectPlayer(search, tables)


def player_for_level(
    level: int, rules: Rules[Any, Any], tables: TableStore | None = None
) -> Player:
    """The Dodgem player of `level` (1-4) for the board and variant of `rules`."""
    if level not in LEVEL_NAMES:
        raise UsageError(f"unknown level {level} (levels are 1 to 4)")
    settings = board_settings(get_game(rules.game), rules.variant, rules.size, level)
    return level_player(level, settings, rules, tables)
