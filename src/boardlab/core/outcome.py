"""Players, game results and the value of a position."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Reason(enum.StrEnum):
    """Why a game ended."""

    CLEARED = "cleared"  # a side took all of its pieces off the board
    BLOCKED = "blocked"  # the side to move had no legal move
    REPETITION = "repetition"  # a position occurred for the n-th time
    RESIGNATION = "resignation"
    FIVES = "fives"  # Dot Dash: more five-in-a-rows at the start of a turn
    MOVE_LIMIT = "move-limit"  # a game that may cycle reached its ply limit


# Why a game ended, in the words the web page uses for players.
REASON_WORDS = {
    Reason.CLEARED: "all cars left the board",
    Reason.BLOCKED: "the side to move had no legal move",
    Reason.REPETITION: "the same position occurred three times",
    Reason.RESIGNATION: "resignation",
    Reason.FIVES: "more five-in-a-rows",
    Reason.MOVE_LIMIT: "move limit reached",
}


class Value(enum.StrEnum):
    """Game-theoretic value of a position or move for the side concerned."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    def flipped(self) -> Value:
        """The same result seen by the other player."""
        if self is Value.WIN:
            return Value.LOSS
        if self is Value.LOSS:
            return Value.WIN
        return Value.DRAW


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning player index (0 first, 1 second) or None for a draw."""

    winner: int | None
    reason: Reason

    def value_for(self, player: int) -> Value:
        """The result from the point of view of `player`."""
        if self.winner is None:
            return Value.DRAW
        return Value.WIN if self.winner == player else Value.LOSS

    def describe(self, names: tuple[str, str]) -> str:
        """One line in the web page's words, such as 'Blue wins — all cars left the board'
        or 'Draw — the same position occurred three times'."""
        words = REASON_WORDS[self.reason]
        if self.winner is None:
            return f"Draw — {words}"
        return f"{names[self.winner].capitalize()} wins — {words}"

    def result_tag(self) -> str:
        """The record result tag: '1-0', '0-1' or '1/2-1/2'."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"
