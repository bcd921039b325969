"""Game-agnostic core: players and outcomes, errors, the rules protocol, sessions, records."""

from boardlab.core.errors import (
    BoardLabError,
    CorruptTableError,
    GameOverError,
    IllegalMoveError,
    MissingTableError,
    NotationError,
    UnknownGameError,
    UsageError,
)
from boardlab.core.outcome import Outcome, Reason, Value
from boardlab.core.registry import (
    Colour,
    GameInfo,
    Ref,
    SetupStage,
    VariantInfo,
    games,
    get_game,
    make_rules,
    register,
)
from boardlab.core.rules import Rules
from boardlab.core.session import GameSession, Ply

__all__ = [
    "BoardLabError",
    "Colour",
    "CorruptTableError",
    "GameInfo",
    "GameOverError",
    "GameSession",
    "IllegalMoveError",
    "MissingTableError",
    "NotationError",
    "Outcome",
    "Ply",
    "Reason",
    "Ref",
    "Rules",
    "SetupStage",
    "UnknownGameError",
    "UsageError",
    "Value",
    "VariantInfo",
    "games",
    "get_game",
    "make_rules",
    "register",
]
