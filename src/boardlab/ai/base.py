"""The one interface every computer player implements, and the random player."""

from __future__ import annotations

import importlib
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from boardlab.core.errors import IllegalMoveError, UnknownGameError
from boardlab.core.rules import Rules


@dataclass(frozen=True, slots=True)
class Limits:
    """What a player may spend on one move: seconds of thinking and search depth in plies."""

    time: float | None = None
    depth: int | None = None


class Player(Protocol):
    """Chooses a move; all randomness comes from the generator it is given."""

    @property
    def name(self) -> str:
        """Short label, e.g. 'random' or 'level 3'."""
        ...

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """A legal move in `position`; `history` holds the game's earlier positions, oldest
        first (the current one excluded), for players that take repetition into account."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """A random legal move."""
        moves = rules.legal_moves(position)
        if not moves:
            raise IllegalMoveError("no legal move: the game is over")
        return moves[rng.randrange(len(moves))]


def make_player(spec: str, rules: Rules[Any, Any]) -> Player:
    """A computer player from its name: 'random', or a level '1' to '4' where levels exist."""
    key = spec.strip().lower().removeprefix("level").strip()
    if key == "random":
        return RandomPlayer()
    if key in {"1", "2", "3", "4"}:
        try:
            levels = importlib.import_module("boardlab.ai.levels")
        except ModuleNotFoundError:
            raise UnknownGameError("computer levels are not available") from None
        player: Player = levels.player_for_level(int(key), rules)
        return player
    if key.startswith("openspiel:"):  # an outside agent, e.g. openspiel:mcts:1000
        try:
            bridge = importlib.import_module("boardlab.integrations.openspiel")
        except ModuleNotFoundError:
            raise UnknownGameError(
                "OpenSpiel players need the openspiel extra: pip install 'boardlab[openspiel]'"
            ) from None
        outside: Player = bridge.openspiel_player(key)
        return outside
    raise UnknownGameError(f"unknown player {spec!r} (expected human, random or a level 1-4)")
