"""The protocol every game's rules implement, so sessions, players and front ends stay generic."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Protocol, TypeVar

from boardlab.core.outcome import Outcome

P = TypeVar("P", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class Rules(Protocol[P, M]):
    """Pure rules of one game under one set of options: positions in, positions out.

    Positions and moves are immutable and hashable; the canonical notation of both is the
    wire format everywhere (CLI, files, HTTP).
    """

    @property
    def game(self) -> str:
        """Registry name of the game, e.g. 'dodgem'."""
        ...

    @property
    def variant(self) -> str:
        """Name of the variant, e.g. 'classic' (or 'custom' for an unnamed combination)."""
        ...

    @property
    def size(self) -> int:
        """Board size (n for an n×n board)."""
        ...

    @property
    def player_names(self) -> tuple[str, str]:
        """Colour names of the first and second player, e.g. ('blue', 'red')."""
        ...

    @property
    def repetition(self) -> int | None:
        """Occurrences of one position that draw the game; None when positions cannot repeat."""
        ...

    @property
    def max_plies(self) -> int | None:
        """Ply count that draws the game, if the game has such a limit."""
        ...

    def options(self) -> Mapping[str, str | int]:
        """Every rules option with its value; together with `game` it identifies the ruleset."""
        ...

    def start(self) -> P:
        """The standard start position."""
        ...

    def to_move(self, position: P) -> int:
        """Index of the player to move: 0 first, 1 second."""
        ...

    def legal_moves(self, position: P) -> Sequence[M]:
        """Every legal move, in a fixed order; empty when the game is over."""
        ...

    def play(self, position: P, move: M) -> P:
        """The position after `move`; raises IllegalMoveError if it is not legal."""
        ...

    def outcome(self, position: P) -> Outcome | None:
        """The result if the position itself ends the game (repetition is the session's job)."""
        ...

    def parse_position(self, text: str) -> P:
        """Read a position in canonical notation; raises NotationError."""
        ...

    def format_position(self, position: P) -> str:
        """Canonical notation of a position."""
        ...

    def parse_move(self, text: str) -> M:
        """Read a move; raises NotationError for text that is not a move of this game."""
        ...

    def format_move(self, move: M) -> str:
        """Canonical notation of a move."""
        ...


def perft_by_rules(rules: Rules[P, M], position: P, depth: int) -> int:
    """Leaf count of the move tree at `depth` through the rules object alone: slow and
    obviously correct, the reference each game's compiled perft is tested against. A
    finished position has no moves, so it has no children."""
    if depth == 0:
        return 1
    moves = rules.legal_moves(position)
    if depth == 1:
        return len(moves)
    return sum(perft_by_rules(rules, rules.play(position, m), depth - 1) for m in moves)
