"""BoardLab's games as OpenSpiel games, BoardLab players as OpenSpiel bots, and OpenSpiel bots
as BoardLab players (install with ``pip install boardlab[openspiel]``).

Importing this module registers one Python game per BoardLab game that has action ids:
``boardlab_dodgem`` and ``boardlab_dotdash``. Parameters:

- ``variant``: a variant name of the game (default: the game's default variant);
- ``size``: the board size (default 0: the variant's default size);
- ``max_plies``: a game still going after this many plies is a draw (default 1000, the
  guard `boardlab league` uses; Dodgem games otherwise end only by threefold repetition).

The rules, the repetition draw and the history are BoardLab's own: each state wraps a
`GameSession`. Action ids are those of `boardlab.integrations.codec` and
``action_to_string`` gives BoardLab's notation. Observation tensors are the planes of
`boardlab.integrations.track`, shaped ``(planes, size, size)``. States serialise through
OpenSpiel's own ``serialize_game_and_state`` (the game's ruleset, the start position and the
moves in BoardLab notation).

>>> import pyspiel
>>> import boardlab.integrations.openspiel
>>> game = pyspiel.load_game("boardlab_dodgem(size=3,variant=misere)")
>>> state = game.new_initial_state()
>>> print(", ".join(state.action_to_string(a) for a in state.legal_actions()))
a2-b2, a2-a1, a3-b3
>>> state.apply_action(state.string_to_action("a2-b2"))
>>> str(state)
'B2/1B1/1RR r'
>>> game.observation_tensor_shape()
[6, 3, 3]
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from boardlab.ai.base import Limits, Player
from boardlab.core.errors import UnknownGameError, UsageError
from boardlab.core.registry import AnyRules, GameInfo, games
from boardlab.core.rules import Rules
from boardlab.integrations.codec import has_codec
from boardlab.integrations.track import (
    DEFAULT_MAX_PLIES,
    Track,
    cached_rules,
    num_planes,
    track_from_history,
)

PREFIX = "boardlab_"


def short_name(game: str) -> str:
    """The OpenSpiel name of a BoardLab game, e.g. 'boardlab_dodgem'."""
    return PREFIX + game


def _max_length(rules: AnyRules, max_plies: int) -> int:
    limit = max_plies if rules.max_plies is None else min(max_plies, rules.max_plies)
    return max(limit, 1)


class BoardLabGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over one BoardLab ruleset."""

    info: GameInfo  # set on the subclass made per game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        info = self.info
        self.variant = str(params.get("variant", info.default_variant))
        size = int(params.get("size", 0))
        self.size = size if size else info.variant(self.variant).default_size
        self.max_plies = int(params.get("max_plies", DEFAULT_MAX_PLIES))
        if self.max_plies < 1:
            raise UsageError("max_plies must be at least 1")
        self.rules = cached_rules(info.name, self.variant, self.size)
        track = Track(info.name, self.variant, self.size, self.max_plies)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=track.codec.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_length(self.rules, self.max_plies),
        )
        super().__init__(_game_type(info), game_info, params)

    def new_initial_state(self, state: Any = None) -> BoardLabState:
        """The start position of the ruleset."""
        return BoardLabState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """The board observer, or OpenSpiel's history observer for perfect-recall views."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class BoardLabState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; `track` holds the BoardLab session."""

    def __init__(self, game: BoardLabGame) -> None:
        super().__init__(game)
        self.track = Track(game.info.name, game.variant, game.size, game.max_plies)

    def current_player(self) -> int:
        """The player to move, or TERMINAL."""
        if self.track.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.track.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.track.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.track.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.track.notation(action, player)

    def is_terminal(self) -> bool:
        """True once BoardLab's session has a result (or the ply limit is reached)."""
        return self.track.is_over

    def returns(self) -> list[float]:
        """+1 win, −1 loss, 0 draw."""
        return self.track.returns()

    def __str__(self) -> str:
        return self.track.text()


class BoardObserver:
    """Observation tensor (the planes of `boardlab.integrations.track`) and string (the
    position in BoardLab notation with its occurrence count)."""

    def __init__(self, game: BoardLabGame, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        shape = (num_planes(game.rules), game.size, game.size)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: BoardLabState, player: int) -> None:
        """Fill the tensor from `state` (the same for both players: perfect information)."""
        self.dict["observation"][...] = state.track.planes()

    def string_from(self, state: BoardLabState, player: int) -> str:
        """The position and how often it has occurred."""
        track = state.track
        return f"{track.text()} (seen {track.session.occurrences()}×, ply {track.plies})"


def _game_type(info: GameInfo) -> Any:
    return pyspiel.GameType(
        short_name=short_name(info.name),
        long_name=f"BoardLab {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "variant": info.default_variant,
            "size": 0,  # the variant's default size
            "max_plies": DEFAULT_MAX_PLIES,
        },
    )


def register_games() -> list[str]:
    """Register every BoardLab game that has action ids (again is harmless); returns the
    OpenSpiel names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in games().values():
        if not has_codec(info.name):
            continue
        name = short_name(info.name)
        names.append(name)
        if name in registered:
            continue
        cls = type(f"BoardLab{info.name.title()}Game", (BoardLabGame,), {"info": info})
        pyspiel.register_game(_game_type(info), cls)
    return names


GAMES = register_games()


def load_game(rules: Rules[Any, Any], max_plies: int = DEFAULT_MAX_PLIES) -> Any:
    """The OpenSpiel game of a BoardLab ruleset (a named variant)."""
    if rules.variant == "custom":
        raise UnknownGameError(f"only named {rules.game} variants are OpenSpiel games")
    return pyspiel.load_game(
        short_name(rules.game),
        {"variant": rules.variant, "size": rules.size, "max_plies": max_plies},
    )


def state_from_history(
    game: Any, position: Hashable, history: Sequence[Hashable] = ()
) -> BoardLabState:
    """An OpenSpiel state at `position` reached through `history` (earlier positions, oldest
    first), with OpenSpiel's own action history filled in."""
    rules = game.rules
    track = track_from_history(rules, position, history, game.max_plies)
    state: BoardLabState = game.new_initial_state()
    if track.session.start != rules.start():
        # OpenSpiel's history begins at the start position; from another start the state
        # carries BoardLab's history only.
        state.track = track
        return state
    for move in track.session.moves:
        state.apply_action(state.track.action_of(move))
    return state


# -- BoardLab players inside OpenSpiel --------------------------------------------------------


class BoardLabBot(pyspiel.Bot):  # type: ignore[misc]
    """A BoardLab player (any level) as an OpenSpiel bot for a `boardlab_*` game."""

    def __init__(self, player: Player, seed: int = 0) -> None:
        super().__init__()
        self.player = player
        self.rng = random.Random(seed)

    def step(self, state: BoardLabState) -> int:
        """The action the BoardLab player chooses in `state`."""
        track = state.track
        positions = track.session.positions
        move = self.player.choose(track.rules, positions[-1], positions[:-1], self.rng)
        return track.action_of(move)

    def restart_at(self, state: BoardLabState) -> None:
        """Nothing to forget: the player reads the whole history at each step."""

    def inform_action(self, state: BoardLabState, player_id: int, action: int) -> None:
        """Nothing to track between moves."""


def boardlab_bot(
    level: str, rules: Rules[Any, Any], seed: int = 0, tables: Any = None
) -> BoardLabBot:
    """The BoardLab player named `level` ('random' or a level of the game) as an OpenSpiel
    bot; `tables` is the `TableStore` players that read complete tables use."""
    from boardlab.ai.base import make_player

    return BoardLabBot(make_player(level, rules, tables), seed)


# -- OpenSpiel bots inside BoardLab ------------------------------------------------------------

OPENSPIEL_PREFIX = "openspiel:"


class OpenSpielPlayer:
    """An OpenSpiel MCTS bot (random rollouts) seated as a BoardLab player.

    The bot is rebuilt for every move with a seed drawn from the game's generator, so league
    games replay exactly from their seed.
    """

    def __init__(self, simulations: int, uct_c: float = 2.0, rollouts: int = 1) -> None:
        if simulations < 1:
            raise UsageError("MCTS needs at least one simulation")
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.name = f"openspiel:mcts:{simulations}"

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """The move OpenSpiel's MCTS picks after `simulations` simulations."""
        from open_spiel.python.algorithms import mcts

        game = load_game(rules)
        state = state_from_history(game, position, history)
        seed = rng.getrandbits(32)
        np_rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=np_rng)
        bot = mcts.MCTSBot(
            game,
            self.uct_c,
            self.simulations,
            evaluator,
            random_state=np_rng,
            solve=True,
        )
        action = bot.step(state)
        return state.track.move_of(action)


def openspiel_player(spec: str) -> OpenSpielPlayer:
    """A player from text such as 'openspiel:mcts:1000' (MCTS with 1000 simulations)."""
    parts = spec.strip().lower().split(":")
    if len(parts) != 3 or parts[0] != "openspiel" or parts[1] != "mcts":
        raise UsageError(f"unknown OpenSpiel player {spec!r} (expected openspiel:mcts:SIMULATIONS)")
    try:
        simulations = int(parts[2])
    except ValueError:
        raise UsageError(f"{parts[2]!r} is not a number of simulations") from None
    return OpenSpielPlayer(simulations)
