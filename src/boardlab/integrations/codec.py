"""Stable action ids and board planes for every game, shared by the OpenSpiel and PettingZoo
doors so that an id means the same move in both.

Action ids depend only on the board size (and, in some games, on the player moving), never
on the position, so a policy network's output layer keeps its meaning from move to move.

Each game declares its codec (`GameInfo.codec`) beside its rules, in a `codec` module of its
own that describes its ids.

Board planes are float32 arrays ``[colour, rank, file]``: plane 0 holds the first player's
pieces, plane 1 the second player's; a game may add planes of its own (`extra_planes`).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import UnknownGameError
from boardlab.core.registry import get_game
from boardlab.core.rules import Rules

Planes = npt.NDArray[np.float32]


class ActionCodec(Protocol):
    """Maps a game's moves to stable integer ids and positions to piece planes."""

    @property
    def num_actions(self) -> int:
        """Number of distinct action ids (ids are 0 to num_actions − 1)."""
        ...

    @property
    def num_extra_planes(self) -> int:
        """How many planes of its own the game adds to an observation."""
        ...

    def encode(self, move: Any, player: int) -> int:
        """The id of a move made by `player`."""
        ...

    def decode(self, action: int, player: int) -> Any:
        """The move with id `action` made by `player`; IllegalMoveError if no move has it."""
        ...

    def planes(self, position: Any) -> Planes:
        """The pieces of each colour as a (2, n, n) array indexed [colour, rank, file]."""
        ...

    def extra_planes(self, rules: Any, position: Any) -> Planes:
        """The game's own planes, (num_extra_planes, n, n)."""
        ...


def codec_for(rules: Rules[Any, Any]) -> ActionCodec:
    """The action codec of a ruleset's game; UnknownGameError for a game without one."""
    make = get_game(rules.game).codec
    if make is None:
        raise UnknownGameError(f"no action ids are defined for the game {rules.game!r}")
    codec: ActionCodec = make(rules)
    return codec


def has_codec(game: str) -> bool:
    """True if action ids are defined for `game`."""
    return get_game(game).codec is not None
