"""The one interface every computer player implements, the random player, and players by
name for any registered game (its declared levels factory makes levels 1 to N)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from boardlab.ai.levels import board_settings, split_spec
from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.registry import GameInfo, get_game
from boardlab.core.rules import Rules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore


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


def level_names(info: GameInfo) -> list[str]:
    """The computer levels a game offers, as players are named: '1' to its level count."""
    if info.levels is None:
        return []
    return [str(n) for n in range(1, info.level_count + 1)]


def player_choices(info: GameInfo, human: bool = True) -> str:
    """The players a side may be, for messages: e.g. 'human, random or a level 1-4'."""
    names = ["human"] if human else []
    names.append("random")
    levels = level_names(info)
    if levels:
        span = levels[0] if len(levels) == 1 else f"{levels[0]}-{levels[-1]}"
        return ", ".join(names) + f" or a level {span}"
    return " or ".join(names)


def default_level(info: GameInfo) -> str:
    """The computer a side gets unless told otherwise: level 3, or the game's strongest
    level below that, or the random player for a game without levels."""
    levels = level_names(info)
    return levels[min(3, len(levels)) - 1] if levels else "random"


def normalise(spec: str) -> str:
    """A player name as players are keyed: 'Level 3' -> '3', ' Random ' -> 'random'."""
    return spec.strip().lower().removeprefix("level").strip()


PLAYER_GROUP = "boardlab.players"
_REGISTERED: dict[str, Callable[[str], Player]] = {}


def register_player(prefix: str, factory: Callable[[str], Player]) -> None:
    """Make players named 'PREFIX:...' known at run time (what a `boardlab.players` entry
    point does for an installed package: the factory gets the whole name)."""
    _REGISTERED[prefix] = factory


def outside_players() -> dict[str, Any]:
    """Outside players by name prefix: the `boardlab.players` entry points (not yet loaded)
    and those registered at run time. A package declares its own as games are declared:

        [project.entry-points."boardlab.players"]
        openspiel = "boardlab.integrations.openspiel:openspiel_player"
    """
    found: dict[str, Any] = {ep.name: ep for ep in entry_points(group=PLAYER_GROUP)}
    found.update(_REGISTERED)
    return found


def outside_player(prefix: str) -> Callable[[str], Player]:
    """The factory of outside players named 'PREFIX:...'; UsageError when it is unknown or
    needs a package that is not installed."""
    found = outside_players().get(prefix)
    if found is None:
        raise UsageError(f"no outside players are named {prefix}:...")
    if prefix in _REGISTERED:
        return _REGISTERED[prefix]
    try:
        factory: Callable[[str], Player] = found.load()
    except ModuleNotFoundError as exc:
        raise UsageError(
            f"{prefix} players need {exc.name}, which is not installed "
            f"(for BoardLab's own: pip install 'boardlab[{prefix}]')"
        ) from None
    return factory


def make_player(spec: str, rules: Rules[Any, Any], tables: TableStore | None = None) -> Player:
    """A computer player by name: 'random', or a level the game declares ('1' to its level
    count). `tables` is where players that read complete tables find them."""
    key = normalise(spec)
    if key == "random":
        return RandomPlayer()
    info = get_game(rules.game)
    level, changes = split_spec(key)
    if level in level_names(info):
        assert info.levels is not None
        if changes:  # a level with changed settings, e.g. '3:nodes=2000'
            if info.level_player is None:
                raise UsageError(f"{info.title} levels take no changed settings ({spec!r})")
            settings = board_settings(info, rules.variant, rules.size, int(level), changes)
            changed: Player = info.level_player(int(level), settings, rules, tables)
            return changed
        player: Player = info.levels(int(level), rules, tables)
        return player
    prefix = key.partition(":")[0]
    if ":" in key and prefix in outside_players():  # an outside agent, e.g. openspiel:mcts:1000
        outside: Player = outside_player(prefix)(key)
        return outside
    raise UsageError(f"unknown player {spec!r} for {info.title} (expected {player_choices(info)})")
