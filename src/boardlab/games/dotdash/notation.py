"""Dot Dash points, moves and positions, and their canonical text.

Points are numbered on a padded grid: `rank * (n + 1) + file`, so every row ends in one
always-empty guard column. That keeps line shifts of the bit masks from wrapping round the
board edge (see `lines.py`). Text follows shared/rules/dot-dash.md: points `G7`, moves
`F7-I10` and `F7xI10`, positions like `13/13/.../6R6/... r` (rows top to bottom, then the side
to move) and setups `setup R:G7 B:G8,H7 r`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardlab.core.boardtext import BoardWords, format_rows, parse_rows
from boardlab.core.errors import NotationError

COLUMNS = "ABCDEFGHIJKLMNOPQRS"  # the letter I is used
LETTERS = "RB"  # red is player 0, blue player 1
MIN_SIZE, MAX_SIZE = 7, 19
_WORDS = BoardWords("Dot Dash", "row", "points", "stones")

_POINT = r"([a-sA-S])([0-9]{1,2})"  # ASCII digits only


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A board point by 0-based file (A = 0) and rank (1 = 0)."""

    file: int
    rank: int

    def __str__(self) -> str:
        return f"{COLUMNS[self.file]}{self.rank + 1}"

    def __repr__(self) -> str:
        return f"Point.parse({str(self)!r})"

    def index(self, size: int) -> int:
        """Bit number of this point on the padded grid of a board of `size`."""
        return self.rank * (size + 1) + self.file

    @classmethod
    def from_index(cls, index: int, size: int) -> Point:
        """The point with padded bit number `index` on a board of `size`."""
        return cls(index % (size + 1), index // (size + 1))

    def on_board(self, size: int) -> bool:
        """True if the point lies on an n×n board."""
        return 0 <= self.file < size and 0 <= self.rank < size

    @classmethod
    def parse(cls, text: str) -> Point:
        """Read `A1`…`S19` in any case."""
        m = re.fullmatch(_POINT, text.strip())
        if m is None or not 1 <= int(m.group(2)) <= MAX_SIZE:
            raise NotationError(f"{text.strip()!r} is not a point (expected e.g. G7)")
        return cls(COLUMNS.index(m.group(1).upper()), int(m.group(2)) - 1)


@dataclass(frozen=True, slots=True)
class DotDashMove:
    """A slide from `src` to `dst`; `capture` marks the sacrificial capture (`F7xI10`)."""

    src: Point
    dst: Point
    capture: bool = False

    def __str__(self) -> str:
        return f"{self.src}{'x' if self.capture else '-'}{self.dst}"

    def __repr__(self) -> str:
        return f"DotDashMove.parse({str(self)!r})"

    def step(self) -> tuple[int, int, int]:
        """(dfile, drank, distance) of the slide; raises NotationError if it is not straight."""
        df, dr = self.dst.file - self.src.file, self.dst.rank - self.src.rank
        dist = max(abs(df), abs(dr))
        if dist == 0 or (df != 0 and dr != 0 and abs(df) != abs(dr)):
            raise NotationError(f"{self} is not a straight or diagonal slide")
        return (df > 0) - (df < 0), (dr > 0) - (dr < 0), dist

    def drops(self) -> tuple[Point, Point]:
        """The two points behind the destination where stones are dropped."""
        df, dr, _ = self.step()
        d = self.dst
        return Point(d.file - df, d.rank - dr), Point(d.file - 2 * df, d.rank - 2 * dr)

    @classmethod
    def parse(cls, text: str) -> DotDashMove:
        """Read `F7-I10` or `F7xI10` (any case, spaces allowed)."""
        t = re.sub(r"\s+", "", text)
        m = re.fullmatch(rf"{_POINT}([-xX]){_POINT}", t)
        if m is None:
            raise NotationError(
                f"{text.strip()!r} is not a Dot Dash move (expected e.g. F7-I10 or F7xI10)"
            )
        src = Point.parse(m.group(1) + m.group(2))
        dst = Point.parse(m.group(4) + m.group(5))
        return cls(src, dst, m.group(3) in "xX")


@dataclass(frozen=True, slots=True)
class DotDashPosition:
    """Stones of both colours as padded bit masks and the side to move (0 red, 1 blue).

    The reserves are not stored: each is the reserve limit minus the colour's stones on the
    board.
    """

    size: int
    red: int
    blue: int
    to_move: int

    def stones(self, player: int) -> int:
        """Bit mask of a player's stones."""
        return self.red if player == 0 else self.blue

    def points(self, player: int) -> list[Point]:
        """A player's stones as points, in bit order."""
        mask, n = self.stones(player), self.size
        out = []
        while mask:
            low = mask & -mask
            out.append(Point.from_index(low.bit_length() - 1, n))
            mask ^= low
        return out

    def count(self, player: int) -> int:
        """Number of a player's stones on the board."""
        return self.stones(player).bit_count()

    def at(self, point: Point) -> int | None:
        """The player whose stone stands on `point`, or None."""
        i = point.index(self.size)
        if self.red >> i & 1:
            return 0
        if self.blue >> i & 1:
            return 1
        return None

    def __str__(self) -> str:
        n, red, blue = self.size, self.red, self.blue

        def owner(file: int, rank: int) -> int | None:
            i = rank * (n + 1) + file
            return 0 if red >> i & 1 else 1 if blue >> i & 1 else None

        board = format_rows(n, owner, LETTERS)
        return f"{board} {LETTERS[self.to_move].lower()}"

    def __repr__(self) -> str:
        return f"<DotDashPosition {self}>"

    def setup_text(self) -> str:
        """The position as setup text, e.g. `setup R:G7 B:G8,H7 r` (points in reading order)."""
        parts = ["setup"]
        for player in (0, 1):
            pts = sorted(self.points(player), key=lambda p: (-p.rank, p.file))
            if pts:
                parts.append(f"{LETTERS[player]}:" + ",".join(str(p) for p in pts))
        parts.append(LETTERS[self.to_move].lower())
        return " ".join(parts)


def _side(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in LETTERS:
        raise NotationError(f"side to move must be r or b, not {text.strip()!r}")
    return LETTERS.index(t)


def parse_board(text: str) -> DotDashPosition:
    """Read position text `rows/... side`; the board size is the number of rows."""
    t = text.strip()
    parts = t.split()
    if len(parts) != 2:
        raise NotationError(
            f"{t!r} is not a Dot Dash position "
            "(expected rows and the side to move, e.g. '7/7/... r')"
        )
    n, pieces = parse_rows(parts[0], LETTERS, (MIN_SIZE, MAX_SIZE), _WORDS, t)
    red = blue = 0
    for file, rank, player in pieces:
        bit = 1 << (rank * (n + 1) + file)
        if player == 0:
            red |= bit
        else:
            blue |= bit
    return DotDashPosition(n, red, blue, _side(parts[1]))


def parse_setup(text: str, size: int) -> DotDashPosition:
    """Read `setup R:G7 B:G8,H7 r` for a board of `size`.

    The side to move may be left out when one colour has a single stone and the other two (the
    pie setup): the holder of the single stone moves first.
    """
    t = text.strip()
    tokens = t.split()
    if not tokens or tokens[0].lower() != "setup":
        raise NotationError(f"{t!r} is not a setup (expected e.g. 'setup R:G7 B:G8,H7 r')")
    masks = [0, 0]
    seen_colour = [False, False]
    side: int | None = None
    for tok in tokens[1:]:
        if ":" not in tok:
            if side is not None:
                raise NotationError(f"unexpected {tok!r} in setup {t!r}")
            side = _side(tok)
            continue
        colour, _, pts = tok.partition(":")
        c = colour.strip().upper()
        if c not in LETTERS or len(c) != 1:
            raise NotationError(f"unknown colour {colour!r} in setup (use R or B)")
        player = LETTERS.index(c)
        if seen_colour[player]:
            raise NotationError(f"colour {c} is listed twice in setup {t!r}")
        seen_colour[player] = True
        for name in filter(None, pts.split(",")):
            p = Point.parse(name)
            if not p.on_board(size):
                raise NotationError(f"{p} is not on a {size}×{size} board")
            bit = 1 << p.index(size)
            if (masks[0] | masks[1]) & bit:
                raise NotationError(f"{p} is listed twice in setup {t!r}")
            masks[player] |= bit
    if side is None:
        counts = (masks[0].bit_count(), masks[1].bit_count())
        if sorted(counts) != [1, 2]:
            raise NotationError("give the side to move (r or b) at the end of the setup")
        side = counts.index(1)
    return DotDashPosition(size, masks[0], masks[1], side)
