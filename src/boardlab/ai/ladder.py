"""The measured ladder for front ends: each level's rating (Bradley–Terry, Elo scale, the
random mover at 0) and its 95% interval on one board, read from the game's level data
(`boardlab.ai.levels`).

Ratings are given only for the boards they were measured on (game, variant and size): the
levels are tuned per board, so a rating from another board would say little."""

from __future__ import annotations

from boardlab.ai.levels import BoardLevels, level_table
from boardlab.core.errors import BoardLabError
from boardlab.core.registry import get_game


def measured_board(game: str, variant: str, size: int) -> BoardLevels | None:
    """The board's levels if a league rated them, else None (also for an unknown game)."""
    try:
        info = get_game(game)
        if info.level_data is None:
            return None
        board = level_table(info).boards.get((variant, size))
    except BoardLabError:
        return None
    return board if board is not None and board.ratings is not None else None


def ladder_ratings(game: str, variant: str, size: int) -> dict[str, int] | None:
    """The ratings by player measured on exactly this board, or None if it was not measured."""
    board = measured_board(game, variant, size)
    return None if board is None else board.ratings_by_player()


def ladder_intervals(game: str, variant: str, size: int) -> dict[str, list[int]] | None:
    """The 95% intervals by level measured on this board ('1'..'n'; a level whose interval
    was never measured is left out), or None if the board was not measured."""
    board = measured_board(game, variant, size)
    if board is None or board.ratings is None:
        return None
    return {
        str(i): list(r.interval) for i, r in enumerate(board.ratings, 1) if r.interval is not None
    }
