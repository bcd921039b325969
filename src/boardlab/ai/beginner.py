"""A beginner: a player that now and then plays a random move instead of its own.

Level 1 of a game is its level-2 player made careless: most moves are the greedy, plausible
ones a newcomer finds (it takes an immediate win and parries an immediate threat when it plays
its own move), and one move in `blunder` is an obvious blunder, a uniformly random legal move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from boardlab.ai.base import Limits, Player
from boardlab.core.errors import IllegalMoveError
from boardlab.core.rules import Rules


class BlunderingPlayer:
    """`inner`'s move, except with probability `blunder` a random legal move."""

    def __init__(self, name: str, inner: Player, blunder: float) -> None:
        if not 0.0 <= blunder <= 1.0:
            raise ValueError("blunder is a probability")
        self.name = name
        self.inner = inner
        self.blunder = blunder

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """A random legal move with probability `blunder`, else the inner player's."""
        if rng.random() < self.blunder:
            moves = rules.legal_moves(position)
            if not moves:
                raise IllegalMoveError("no legal move: the game is over")
            return moves[rng.randrange(len(moves))]
        return self.inner.choose(rules, position, history, rng, limits)
