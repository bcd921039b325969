"""Dodgem rules with every variant as data: geometry, blocked rule, goal and repetition.

Which positions are over, and who won, is decided by the rules kernel
(`boardlab.games.dodgem.kernel.terminal_winner`, whose docstring states the rules); this
module asks it rather than writing the rules again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from boardlab.core.errors import IllegalMoveError, NotationError, UnknownGameError, UsageError
from boardlab.core.outcome import Outcome, Reason
from boardlab.games.dodgem.kernel import EXIT as EXIT  # re-exported: squares off the board
from boardlab.games.dodgem.kernel import blocked_code, terminal_winner_py
from boardlab.games.dodgem.notation import (
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    DodgemMove,
    DodgemPosition,
    Square,
    parse_position,
)

Blocked = Literal["wins", "loses", "passes"]
Goal = Literal["normal", "misere"]
Geometry = Literal["classic", "piecepack"]

# Per geometry and player: the forward step and the two sideways steps as (dfile, drank).
_STEPS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {
    "classic": (((1, 0), (0, 1), (0, -1)), ((0, 1), (-1, 0), (1, 0))),
    "piecepack": (((0, 1), (-1, 0), (1, 0)), ((0, -1), (-1, 0), (1, 0))),
}
_NAMES = {"classic": ("blue", "red"), "piecepack": ("red", "green")}
_LETTERS = {"classic": "BR", "piecepack": "RG"}

VARIANTS: dict[str, dict[str, str]] = {
    "classic": {"geometry": "classic", "blocked": "wins", "goal": "normal"},
    "blocked-loses": {"geometry": "classic", "blocked": "loses", "goal": "normal"},
    "misere": {"geometry": "classic", "blocked": "wins", "goal": "misere"},
    "piecepack": {"geometry": "piecepack", "blocked": "passes", "goal": "normal"},
}
DEFAULT_SIZE = {"classic": 4, "piecepack": 6}


@dataclass(frozen=True)
class DodgemRules:
    """Dodgem on an n×n board under one set of options."""

    size: int = 4
    blocked: Blocked = "wins"
    goal: Goal = "normal"
    geometry: Geometry = "classic"
    repetition: int | None = 3
    max_plies: int | None = None

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise UsageError(f"Dodgem board size must be 3 to 8, not {self.size}")
        if self.blocked not in ("wins", "loses", "passes"):
            raise UsageError(f"blocked must be wins, loses or passes, not {self.blocked!r}")
        if self.goal not in ("normal", "misere"):
            raise UsageError(f"goal must be normal or misere, not {self.goal!r}")
        if self.geometry not in _STEPS:
            raise UsageError(f"geometry must be classic or piecepack, not {self.geometry!r}")
        if self.repetition is not None and self.repetition < 1:
            raise UsageError("repetition must be at least 1")

    # -- identity --------------------------------------------------------------------------
    @property
    def game(self) -> str:
        """Registry name."""
        return "dodgem"

    @property
    def variant(self) -> str:
        """The named variant these options make, or 'custom'."""
        for name, opts in VARIANTS.items():
            if (self.geometry, self.blocked, self.goal) == (
                opts["geometry"],
                opts["blocked"],
                opts["goal"],
            ) and self.repetition == 3:
                return name
        return "custom"

    @property
    def player_names(self) -> tuple[str, str]:
        """('blue', 'red') or, for Piecepack, ('red', 'green')."""
        return _NAMES[self.geometry]

    @property
    def letters(self) -> str:
        """Colour letters, first player's first."""
        return _LETTERS[self.geometry]

    def options(self) -> Mapping[str, str | int]:
        """Every option that decides a game-theoretic value (the table key)."""
        return {
            "size": self.size,
            "geometry": self.geometry,
            "blocked": self.blocked,
            "goal": self.goal,
            "repetition": self.repetition or 0,
        }

    def ruleset_id(self) -> str:
        """A stable text key for the ruleset, e.g. 'dodgem-4-classic-wins-normal'."""
        return f"dodgem-{self.size}-{self.geometry}-{self.blocked}-{self.goal}"

    # -- geometry tables -------------------------------------------------------------------
    @cached_property
    def step_table(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """For each player and square: destination squares in move order, EXIT for leaving."""
        n = self.size
        tables = []
        for player in (0, 1):
            steps = _STEPS[self.geometry][player]
            per_square = []
            for i in range(n * n):
                f, r = i % n, i // n
                dests = []
                for k, (df, dr) in enumerate(steps):
                    nf, nr = f + df, r + dr
                    if 0 <= nf < n and 0 <= nr < n:
                        dests.append(nr * n + nf)
                    elif k == 0:
                        dests.append(EXIT)
                per_square.append(tuple(dests))
            tables.append(tuple(per_square))
        return tables[0], tables[1]

    @cached_property
    def _move_table(self) -> tuple[tuple[tuple[tuple[int, DodgemMove], ...], ...], ...]:
        n = self.size
        out = []
        for player in (0, 1):
            rows = []
            for i, dests in enumerate(self.step_table[player]):
                src = Square.from_index(i, n)
                rows.append(
                    tuple(
                        (d, DodgemMove(src, None if d == EXIT else Square.from_index(d, n)))
                        for d in dests
                    )
                )
            out.append(tuple(rows))
        return tuple(out)

    # -- positions -------------------------------------------------------------------------
    def start(self) -> DodgemPosition:
        """n−1 cars per side on their starting edge, first player to move."""
        n = self.size
        if self.geometry == "classic":
            first = sum(1 << (r * n) for r in range(1, n))  # left file but a1
            second = sum(1 << f for f in range(1, n))  # bottom rank but a1
        else:
            first = sum(1 << (r * n) for r in range(0, n - 1))  # a1..a(n-1)
            second = sum(1 << (r * n + n - 1) for r in range(1, n))  # last file, rank 2..n
        return DodgemPosition(n, first, second, 0, self.letters)

    def to_move(self, position: DodgemPosition) -> int:
        """Index of the side to move."""
        return position.to_move

    def car_moves(self, position: DodgemPosition) -> list[DodgemMove]:
        """Moves of cars only (no pass), ignoring whether the game is over."""
        player = position.to_move
        occupied = position.first | position.second
        mask = position.cars(player)
        table = self._move_table[player]
        moves = []
        while mask:
            low = mask & -mask
            for d, move in table[low.bit_length() - 1]:
                if d == EXIT or not occupied >> d & 1:
                    moves.append(move)
            mask ^= low
        return moves

    @cached_property
    def _kernel_options(self) -> tuple[int, bool]:
        return blocked_code(self.blocked), self.goal == "misere"

    def _winner(self, position: DodgemPosition, car_move_count: int) -> int:
        blocked, misere = self._kernel_options
        p = position
        return terminal_winner_py(p.first, p.second, p.to_move, car_move_count, blocked, misere)

    def legal_moves(self, position: DodgemPosition) -> list[DodgemMove]:
        """Legal moves in a fixed order (cars by square, forward first); [] when over."""
        if self._winner(position, 1) >= 0:
            return []
        moves = self.car_moves(position)
        if not moves:
            return [] if self._winner(position, 0) >= 0 else [PASS]
        return moves

    def outcome(self, position: DodgemPosition) -> Outcome | None:
        """Cleared or blocked results, as the rules kernel decides them."""
        winner = self._winner(position, 1)
        if winner >= 0:
            return Outcome(winner, Reason.CLEARED)
        if self.car_moves(position):
            return None
        winner = self._winner(position, 0)
        return None if winner < 0 else Outcome(winner, Reason.BLOCKED)

    def play(self, position: DodgemPosition, move: DodgemMove) -> DodgemPosition:
        """The position after a legal move; raises IllegalMoveError with the reason."""
        self._check_board(position)
        end = self.outcome(position)
        if end is not None:
            raise IllegalMoveError("the game is over: no move can be played")
        player = position.to_move
        names = self.player_names
        if move.src is None:
            if self.car_moves(position):
                raise IllegalMoveError("you may pass only when no car can move")
            if self.blocked != "passes":
                raise IllegalMoveError("passing is not allowed in this variant")
            return DodgemPosition(
                position.size, position.first, position.second, 1 - player, position.letters
            )
        self._check_square(move.src)
        owner = position.at(move.src)
        if owner is None:
            raise IllegalMoveError(f"there is no car on {move.src}")
        if owner != player:
            raise IllegalMoveError(
                f"the car on {move.src} is {names[owner]}'s; {names[player]} to move"
            )
        n = position.size
        s = move.src.index(n)
        if move.dst is None:
            if EXIT not in self.step_table[player][s]:
                raise IllegalMoveError(f"the car on {move.src} is not on its exit edge")
            d = EXIT
        else:
            self._check_square(move.dst)
            d = move.dst.index(n)
            if d not in self.step_table[player][s]:
                raise IllegalMoveError(
                    f"{names[player]} cars move one square {self._directions(player)}; "
                    f"{move.src} to {move.dst} is not such a step"
                )
            if (position.first | position.second) >> d & 1:
                raise IllegalMoveError(f"{move.dst} is occupied")
        mask = position.cars(player) & ~(1 << s)
        if d != EXIT:
            mask |= 1 << d
        first, second = (mask, position.second) if player == 0 else (position.first, mask)
        return DodgemPosition(n, first, second, 1 - player, position.letters)

    def _directions(self, player: int) -> str:
        words = {(1, 0): "east", (-1, 0): "west", (0, 1): "north", (0, -1): "south"}
        steps = _STEPS[self.geometry][player]
        return f"{words[steps[0]]} (forward), {words[steps[1]]} or {words[steps[2]]}"

    def _check_square(self, square: Square) -> None:
        if square.file >= self.size or square.rank >= self.size:
            raise IllegalMoveError(f"{square} is not on a {self.size}×{self.size} board")

    def _check_board(self, position: DodgemPosition) -> None:
        if position.size != self.size or position.letters != self.letters:
            raise IllegalMoveError(
                f"the position is for another board "
                f"(size {position.size}, colours {position.letters})"
            )

    # -- notation --------------------------------------------------------------------------
    def parse_position(self, text: str) -> DodgemPosition:
        """Read a position of this board size and colours; raises NotationError."""
        pos = parse_position(text, self.letters)
        if pos.size != self.size:
            raise NotationError(
                f"{text.strip()!r} is a {pos.size}×{pos.size} position; this game is "
                f"{self.size}×{self.size}"
            )
        return pos

    def format_position(self, position: DodgemPosition) -> str:
        """Canonical position text."""
        return str(position)

    def parse_move(self, text: str) -> DodgemMove:
        """Read a move; squares off this board are a NotationError."""
        move = DodgemMove.parse(text)
        for sq in (move.src, move.dst):
            if sq is not None and (sq.file >= self.size or sq.rank >= self.size):
                raise NotationError(f"{sq} is not on a {self.size}×{self.size} board")
        return move

    def format_move(self, move: DodgemMove) -> str:
        """Canonical move text."""
        return str(move)


def rules_for(variant: str = "classic", size: int | None = None) -> DodgemRules:
    """Rules of a named variant; Piecepack defaults to 6×6, the others to 4×4."""
    if variant not in VARIANTS:
        raise UnknownGameError(f"unknown Dodgem variant {variant!r} (known: {', '.join(VARIANTS)})")
    opts = VARIANTS[variant]
    geometry = opts["geometry"]
    n = DEFAULT_SIZE[geometry] if size is None else size
    return DodgemRules(
        size=n,
        blocked=opts["blocked"],  # type: ignore[arg-type]
        goal=opts["goal"],  # type: ignore[arg-type]
        geometry=geometry,  # type: ignore[arg-type]
    )
