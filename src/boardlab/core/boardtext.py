"""The board part of position text, shared by the games: rows from top to bottom separated by
`/`, one letter per piece, and decimal numbers (ASCII digits) for runs of empty cells
(`B3/B3/B3/1RRR`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from boardlab.core.errors import NotationError


@dataclass(frozen=True, slots=True)
class BoardWords:
    """How a game names its board in messages: 'Dodgem', 'rank', 'squares', 'cars'."""

    game: str
    row: str
    cells: str
    pieces: str


def format_rows(size: int, owner: Callable[[int, int], int | None], letters: str) -> str:
    """The rows of an n×n board; `owner(file, rank)` gives the player on a cell or None."""
    rows = []
    for rank in range(size - 1, -1, -1):
        row, empty = [], 0
        for file in range(size):
            who = owner(file, rank)
            if who is None:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(letters[who])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def parse_rows(
    board: str, letters: str, sizes: tuple[int, int], words: BoardWords, whole: str
) -> tuple[int, list[tuple[int, int, int]]]:
    """Read the rows (any case): the board size and (file, rank, player) of every piece.

    `whole` is the full text, quoted in messages; raises NotationError.
    """
    rows = board.upper().split("/")
    n = len(rows)
    lo, hi = sizes
    if not lo <= n <= hi:
        raise NotationError(f"a {words.game} board has {lo} to {hi} {words.row}s, not {n}")
    pieces: list[tuple[int, int, int]] = []
    for row_no, row in enumerate(rows):
        rank = n - 1 - row_no
        file = 0
        # ASCII digits only: other scripts' digits (e.g. Arabic-Indic) are not run lengths
        for token in re.findall(r"[0-9]+|.", row):
            if token[0] in "0123456789":
                if len(token) > 2:
                    raise NotationError(
                        f"{words.row} {rank + 1} of {whole[:80]!r}: run of {token[:6]}"
                        f"{'…' if len(token) > 6 else ''} empty {words.cells} is too long"
                    )
                file += int(token)
                continue
            if token not in letters:
                raise NotationError(
                    f"unexpected {token!r} in {words.row} {rank + 1}: "
                    f"{words.pieces} are {letters[0]} and {letters[1]}"
                )
            if file < n:
                pieces.append((file, rank, letters.index(token)))
            file += 1
        if file != n:
            raise NotationError(
                f"{words.row} {rank + 1} of {whole!r} has {file} {words.cells}, not {n}"
            )
    return n, pieces
