"""Dot Dash levels 1 to 4 behind the common `Player` interface (see
docs/ai-levels-dotdash.md); the game's `GameInfo.levels` names `player_for_level`.

The settings of every level on every board live in `levels.toml` beside this module
(`boardlab.ai.levels`): a level is the alpha-beta search with the race solver
(`DotDashSearchPlayer`) `depth` plies deep with evaluation `style`, the race solver `qdepth`
plies below it and a random tie-break of up to `noise`; `time` turns on iterative deepening
for that many seconds a move; with chance `blunder` it plays a random legal move instead.
"""

from __future__ import annotations

from typing import Any

from boardlab.ai.base import Player
from boardlab.ai.dotdash.players import DotDashSearchPlayer
from boardlab.ai.levels import LevelSettings, board_settings
from boardlab.core.errors import UsageError
from boardlab.core.registry import get_game
from boardlab.core.rules import Rules

LEVEL_COUNT = 4
# Without rules (an engine asked for a level before a board is named) the levels of this board
DEFAULT_BOARD = ("standard", 13)


def level_player(
    level: int, settings: LevelSettings, rules: Rules[Any, Any] | None = None, tables: Any = None
) -> Player:
    """The Dot Dash player of `level` with `settings` (Dot Dash has no tables)."""
    from boardlab.ai.beginner import BlunderingPlayer

    name = f"level {level}"
    player = DotDashSearchPlayer(
        name,
        depth=settings.depth,
        style=settings.style,
        time_limit=settings.time,
        noise=int(settings.noise),
        qdepth=settings.qdepth,
    )
    return BlunderingPlayer(name, player, settings.blunder) if settings.blunder else player


def player_for_level(
    level: int, rules: Rules[Any, Any] | None = None, tables: Any = None
) -> Player:
    """The Dot Dash player of a level from 1 (beginner) to 4 (strongest) on the rules'
    board (standard 13×13 without rules); Dot Dash has no tables, so `tables` is not used."""
    if not 1 <= level <= LEVEL_COUNT:
        raise UsageError(f"Dot Dash levels are 1 to {LEVEL_COUNT}, not {level}")
    variant, size = DEFAULT_BOARD if rules is None else (rules.variant, rules.size)
    settings = board_settings(get_game("dotdash"), variant, size, level)
    return level_player(level, settings, rules, tables)
