"""One game in progress as the outside frameworks see it: a BoardLab `GameSession` (so
repetition and history follow BoardLab's own rules) plus a ply limit, with action ids,
observation planes, cheap copies and a compact pickled form.

Observation planes, float32 ``[plane, rank, file]`` on an n×n board:

- planes 0 and 1: pieces of the first and of the second player;
- planes 2 and 3: side to move (plane 2 is all ones when the first player moves, plane 3
  when the second does);
- plane 4: occurrences of the current position so far divided by the repetition limit (all
  zeros where positions cannot repeat);
- plane 5: plies played divided by the ply limit;
- planes 6 and up: the game's own, from its codec (Dot Dash: stones left in each player's
  reserve divided by the reserve, ones when the reserve is unlimited).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardlab.core.outcome import Outcome, Reason
from boardlab.core.registry import AnyRules, make_rules
from boardlab.core.session import GameSession
from boardlab.integrations.codec import ActionCodec, Planes, codec_for

DEFAULT_MAX_PLIES = 1000  # the same guard as `boardlab league`: a longer game is a draw


@functools.lru_cache(maxsize=64)
def cached_rules(game: str, variant: str, size: int) -> AnyRules:
    """Rules by name, shared between states (their move tables are built once)."""
    return make_rules(game, variant, size)


@functools.lru_cache(maxsize=64)
def cached_codec(game: str, variant: str, size: int) -> ActionCodec:
    """The action codec of a ruleset, shared between states."""
    return codec_for(cached_rules(game, variant, size))


COMMON_PLANES = 6  # pieces (2), side to move (2), repetitions, plies


def num_planes(rules: AnyRules) -> int:
    """How many observation planes a ruleset's positions have (the game's codec may add
    planes of its own)."""
    return COMMON_PLANES + codec_for(rules).num_extra_planes


class Track:
    """A BoardLab session under a ply limit, addressed by action ids."""

    __slots__ = (
        "_known",
        "_legal",
        "_result",
        "codec",
        "game",
        "max_plies",
        "rules",
        "session",
        "size",
        "variant",
    )

    def __init__(
        self,
        game: str,
        variant: str,
        size: int,
        max_plies: int = DEFAULT_MAX_PLIES,
        session: GameSession[Any, Any] | None = None,
    ) -> None:
        self.game, self.variant, self.size, self.max_plies = game, variant, size, max_plies
        self.rules = cached_rules(game, variant, size)
        self.codec = cached_codec(game, variant, size)
        self.session: GameSession[Any, Any] = (
            GameSession(self.rules) if session is None else session
        )
        # Search algorithms ask for the result and the legal actions many times per position;
        # both are kept until `apply` changes the session (change it only through `apply`).
        self._known = False  # whether _result holds the current result
        self._result: Outcome | None = None
        self._legal: list[int] | None = None

    # -- copying and pickling ----------------------------------------------------------------
    def copy(self) -> Track:
        """An independent copy sharing the immutable rules and positions."""
        other = Track(self.game, self.variant, self.size, self.max_plies, self.session.copy())
        other._known, other._result, other._legal = self._known, self._result, self._legal
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Track:
        return self.copy()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        rules = self.rules
        start = rules.format_position(self.session.start)
        moves = tuple(rules.format_move(m) for m in self.session.moves)
        return (_rebuild, (self.game, self.variant, self.size, self.max_plies, start, moves))

    # -- state -------------------------------------------------------------------------------
    @property
    def position(self) -> Any:
        """The current position."""
        return self.session.position

    @property
    def plies(self) -> int:
        """Moves played so far."""
        return len(self.session.plies)

    @property
    def result(self) -> Outcome | None:
        """BoardLab's result, or a draw once the ply limit is reached; None while play goes on."""
        if not self._known:
            result = self.session.result
            if result is None and self.plies >= self.max_plies:
                result = Outcome(None, Reason.MOVE_LIMIT)
            self._result, self._known = result, True
        return self._result

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def to_move(self) -> int:
        """The player to move in the current position."""
        return self.session.to_move

    def returns(self) -> list[float]:
        """+1 for a win, −1 for a loss, 0 for a draw or an unfinished game, per player."""
        result = self.result
        if result is None or result.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if result.winner == 0 else [-1.0, 1.0]

    # -- moves -------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Ids of the legal moves, ascending; [] once the game is over."""
        if self._legal is None:
            if self.is_over:
                self._legal = []
            else:
                player = self.to_move
                self._legal = sorted(
                    self.codec.encode(m, player) for m in self.rules.legal_moves(self.position)
                )
        return list(self._legal)

    def move_of(self, action: int, player: int | None = None) -> Any:
        """The BoardLab move of an id (for `player`, default the side to move)."""
        return self.codec.decode(action, self.to_move if player is None else player)

    def action_of(self, move: Any) -> int:
        """The id of a move by the side to move."""
        return self.codec.encode(move, self.to_move)

    def apply(self, action: int) -> None:
        """Play the move with id `action`; IllegalMoveError if it is not legal here."""
        from boardlab.core.errors import GameOverError

        if self.is_over:
            raise GameOverError("the game is over")
        self.session.play(self.move_of(action))
        self._known, self._legal = False, None

    def notation(self, action: int, player: int | None = None) -> str:
        """BoardLab's notation of an action id."""
        return str(self.rules.format_move(self.move_of(action, player)))

    # -- observation -------------------------------------------------------------------------
    def planes(self) -> Planes:
        """The observation planes described in the module docstring."""
        rules, pos = self.rules, self.position
        n = self.size
        out = np.zeros((num_planes(rules), n, n), np.float32)
        out[0:2] = self.codec.planes(pos)
        out[2 + self.to_move] = 1.0
        if rules.repetition:
            out[4] = self.session.occurrences() / rules.repetition
        out[5] = min(self.plies / self.max_plies, 1.0)
        out[COMMON_PLANES:] = self.codec.extra_planes(rules, pos)
        return out

    def text(self) -> str:
        """The current position in BoardLab's notation."""
        return str(self.rules.format_position(self.position))


def _rebuild(
    game: str, variant: str, size: int, max_plies: int, start: str, moves: Sequence[str]
) -> Track:
    rules = cached_rules(game, variant, size)
    session: GameSession[Any, Any] = GameSession(rules, rules.parse_position(start))
    for text in moves:
        session.play(text)
    return Track(game, variant, size, max_plies, session)


def track_from_history(
    rules: AnyRules,
    position: Any,
    history: Sequence[Any],
    max_plies: int = DEFAULT_MAX_PLIES,
) -> Track:
    """A track whose session replays `history` (earlier positions, oldest first) up to
    `position`, as BoardLab players receive them; each step must be one legal move."""
    from boardlab.core.errors import IllegalMoveError

    if rules.variant == "custom":
        raise IllegalMoveError(f"only named {rules.game} variants have action ids")
    positions = [*history, position]
    session: GameSession[Any, Any] = GameSession(rules, positions[0])
    for before, after in itertools.pairwise(positions):
        for move in rules.legal_moves(before):
            if rules.play(before, move) == after:
                session.play(move)
                break
        else:
            raise IllegalMoveError(
                f"{rules.format_position(after)} does not follow from "
                f"{rules.format_position(before)} by one move"
            )
    return Track(rules.game, rules.variant, rules.size, max_plies, session)
