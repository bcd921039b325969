"""Dodgem squares, moves and positions, and their canonical text.

Squares are numbered `rank * n + file` (0-based, a1 = 0); a side's cars are a bit mask over
those numbers. Text follows shared/rules/dodgem.md: `a2-b2`, `c3-off`, `pass`, and positions
like `B3/B3/B3/1RRR b` (ranks top to bottom, then the side to move).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardlab.core.boardtext import BoardWords, format_rows, parse_rows
from boardlab.core.errors import NotationError

FILES = "abcdefgh"
MIN_SIZE, MAX_SIZE = 3, 8
_WORDS = BoardWords("Dodgem", "rank", "squares", "cars")
_SQUARE = re.compile(r"([a-h])([1-8])")
_MOVE = re.compile(r"([a-h][1-8])-([a-h][1-8]|off)")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A square by 0-based file (a = 0) and rank (1 = 0)."""

    file: int
    rank: int

    def __str__(self) -> str:
        return f"{FILES[self.file]}{self.rank + 1}"

    def __repr__(self) -> str:
        return f"Square.parse({str(self)!r})"

    def index(self, size: int) -> int:
        """Bit number of this square on a board of `size`."""
        return self.rank * size + self.file

    @classmethod
    def from_index(cls, index: int, size: int) -> Square:
        """The square with bit number `index` on a board of `size`."""
        return cls(index % size, index // size)

    @classmethod
    def parse(cls, text: str) -> Square:
        """Read `a1`…`h8` in any case."""
        t = text.strip().lower()
        m = _SQUARE.fullmatch(t)
        if m is None:
            raise NotationError(f"{text.strip()!r} is not a square (expected e.g. a1)")
        return cls(FILES.index(m.group(1)), int(m.group(2)) - 1)


@dataclass(frozen=True, slots=True)
class DodgemMove:
    """A move: a car from `src` to `dst` (None: off the board); both None is a pass."""

    src: Square | None
    dst: Square | None

    @property
    def is_pass(self) -> bool:
        """True for the Piecepack pass."""
        return self.src is None

    @property
    def is_exit(self) -> bool:
        """True when a car leaves the board."""
        return self.src is not None and self.dst is None

    def __str__(self) -> str:
        if self.src is None:
            return "pass"
        return f"{self.src}-{'off' if self.dst is None else self.dst}"

    def __repr__(self) -> str:
        return f"DodgemMove.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> DodgemMove:
        """Read `a2-b2`, `c3-off` or `pass` (any case, spaces allowed)."""
        t = _SPACE.sub("", text).lower()
        if t == "pass":
            return PASS
        m = _MOVE.fullmatch(t)
        if m is None:
            raise NotationError(
                f"{text.strip()!r} is not a Dodgem move (expected e.g. a2-b2, c3-off or pass)"
            )
        src = Square.parse(m.group(1))
        dst = None if m.group(2) == "off" else Square.parse(m.group(2))
        return cls(src, dst)


PASS = DodgemMove(None, None)


@dataclass(frozen=True, slots=True)
class DodgemPosition:
    """Cars of both sides as bit masks, and the side to move (0 first, 1 second).

    `letters` are the two colour letters (first player's first), so that the position
    prints itself: 'BR' for classic Dodgem, 'RG' for Piecepack.
    """

    size: int
    first: int
    second: int
    to_move: int
    letters: str = "BR"

    def cars(self, player: int) -> int:
        """Bit mask of a player's cars."""
        return self.first if player == 0 else self.second

    def squares(self, player: int) -> list[Square]:
        """A player's cars as squares, in bit order."""
        mask, n = self.cars(player), self.size
        return [Square.from_index(i, n) for i in range(n * n) if mask >> i & 1]

    def count(self, player: int) -> int:
        """Number of a player's cars on the board."""
        return self.cars(player).bit_count()

    def at(self, square: Square) -> int | None:
        """The player whose car stands on `square`, or None."""
        i = square.index(self.size)
        if self.first >> i & 1:
            return 0
        if self.second >> i & 1:
            return 1
        return None

    def __str__(self) -> str:
        n, first, second = self.size, self.first, self.second

        def owner(file: int, rank: int) -> int | None:
            i = rank * n + file
            return 0 if first >> i & 1 else 1 if second >> i & 1 else None

        board = format_rows(n, owner, self.letters)
        return f"{board} {self.letters[self.to_move].lower()}"

    def __repr__(self) -> str:
        return f"<DodgemPosition {self}>"


def parse_position(text: str, letters: str = "BR") -> DodgemPosition:
    """Read a position whose colours are `letters` (first player's first), any case."""
    t = text.strip()
    parts = t.split()
    if len(parts) != 2:
        raise NotationError(
            f"{t!r} is not a Dodgem position "
            "(expected ranks and the side to move, e.g. 'B2/B2/1RR b')"
        )
    board, side = parts[0].upper(), parts[1].upper()
    if side not in letters or len(side) != 1:
        raise NotationError(f"side to move must be {letters[0].lower()} or {letters[1].lower()}")
    n, pieces = parse_rows(board, letters, (MIN_SIZE, MAX_SIZE), _WORDS, t)
    first = second = 0
    for file, rank, player in pieces:
        if player == 0:
            first |= 1 << (rank * n + file)
        else:
            second |= 1 << (rank * n + file)
    for player, mask in ((0, first), (1, second)):
        if mask.bit_count() > n - 1:
            raise NotationError(
                f"{letters[player]} has {mask.bit_count()} cars; at most {n - 1} on a {n}×{n} board"
            )
    return DodgemPosition(n, first, second, letters.index(side), letters)
