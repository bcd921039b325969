"""A game in progress: the mutable history over immutable positions, with undo and redo."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from boardlab.core.errors import GameOverError, IllegalMoveError
from boardlab.core.outcome import Outcome, Reason
from boardlab.core.rules import M, P, Rules


@dataclass(frozen=True, slots=True)
class Ply(Generic[P, M]):
    """One move played, with the position it was played from."""

    before: P
    move: M
    after: P


class GameSession(Generic[P, M]):
    """History, undo/redo, repetition counting and the result of one game."""

    def __init__(self, rules: Rules[P, M], start: P | None = None) -> None:
        self.rules = rules
        self.start: P = rules.start() if start is None else start
        self._plies: list[Ply[P, M]] = []
        self._redo: list[M] = []
        self._seen: Counter[P] = Counter([self.start])
        self._resigned: int | None = None
        # the result and the state it was computed for (the last ply, their count and the
        # resignation): asked several times a move, it is worked out once per position
        self._result: tuple[object, int, int | None, Outcome | None] | None = None

    # -- state -----------------------------------------------------------------------------
    @property
    def position(self) -> P:
        """The current position."""
        return self._plies[-1].after if self._plies else self.start

    @property
    def plies(self) -> Sequence[Ply[P, M]]:
        """Every move played so far, oldest first."""
        return tuple(self._plies)

    @property
    def moves(self) -> list[M]:
        """The moves played so far."""
        return [p.move for p in self._plies]

    @property
    def positions(self) -> list[P]:
        """Every position of the game, the start first and the current one last."""
        return [self.start, *(p.after for p in self._plies)]

    @property
    def to_move(self) -> int:
        """Index of the player to move."""
        return self.rules.to_move(self.position)

    def occurrences(self, position: P | None = None) -> int:
        """How often a position (default: the current one) has occurred in this game."""
        return self._seen[self.position if position is None else position]

    @property
    def result(self) -> Outcome | None:
        """The outcome, or None while the game goes on."""
        last = self._plies[-1] if self._plies else None
        kept = self._result
        if (
            kept is not None
            and kept[0] is last
            and kept[1] == len(self._plies)
            and kept[2] == self._resigned
        ):
            return kept[3]
        outcome = self._outcome()
        self._result = (last, len(self._plies), self._resigned, outcome)
        return outcome

    def _outcome(self) -> Outcome | None:
        if self._resigned is not None:
            return Outcome(1 - self._resigned, Reason.RESIGNATION)
        pos = self.position
        end = self.rules.outcome(pos)
        if end is not None:
            return end
        rep = self.rules.repetition
        if rep is not None and self._seen[pos] >= rep:
            return Outcome(None, Reason.REPETITION)
        limit = self.rules.max_plies
        if limit is not None and len(self._plies) >= limit:
            return Outcome(None, Reason.MOVE_LIMIT)
        return None

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    def legal_moves(self) -> Sequence[M]:
        """Legal moves now; empty when the game is over."""
        if self.is_over:
            return ()
        return self.rules.legal_moves(self.position)

    # -- changes ---------------------------------------------------------------------------
    def play(self, move: M | str) -> P:
        """Play a move (or its notation); clears the redo list. Raises on illegal moves."""
        m = self.rules.parse_move(move) if isinstance(move, str) else move
        if self.is_over:
            raise GameOverError("the game is over")
        after = self.rules.play(self.position, m)
        self._push(m, after)
        self._redo.clear()
        return after

    def _push(self, move: M, after: P) -> None:
        self._plies.append(Ply(self.position, move, after))
        self._seen[after] += 1

    def undo(self) -> M | None:
        """Take back the last move (it can be redone), or a resignation (returns None)."""
        if self._resigned is not None:
            self._resigned = None
            return None
        if not self._plies:
            raise IllegalMoveError("nothing to undo")
        ply = self._plies.pop()
        self._seen[ply.after] -= 1
        if self._seen[ply.after] == 0:
            del self._seen[ply.after]
        self._redo.append(ply.move)
        return ply.move

    def redo(self) -> M:
        """Replay the last move taken back."""
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        move = self._redo.pop()
        self._push(move, self.rules.play(self.position, move))
        return move

    @property
    def can_undo(self) -> bool:
        """True if there is a move to take back."""
        return bool(self._plies)

    @property
    def can_redo(self) -> bool:
        """True if a move taken back can be replayed."""
        return bool(self._redo)

    def resign(self, player: int | None = None) -> Outcome:
        """The given player (default: the side to move) resigns."""
        if self.is_over:
            raise GameOverError("the game is over")
        self._resigned = self.to_move if player is None else player
        result = self.result
        assert result is not None
        return result

    def copy(self) -> GameSession[P, M]:
        """An independent session with the same history, redo list and result; positions and
        rules are shared (they are immutable), so a copy costs one pass over the history."""
        other: GameSession[P, M] = GameSession.__new__(GameSession)
        other.rules = self.rules
        other.start = self.start
        other._plies = list(self._plies)
        other._redo = list(self._redo)
        other._seen = Counter(self._seen)
        other._resigned = self._resigned
        other._result = self._result
        return other

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the session, for equality checks and serialisation."""
        return {
            "start": self.start,
            "moves": tuple(self.moves),
            "redo": tuple(self._redo),
            "seen": dict(self._seen),
            "resigned": self._resigned,
        }
