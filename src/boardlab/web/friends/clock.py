"""The clocks of shared games: the time each side has left, a move's time taken off its
mover's clock (the increment added), and a game ended, on time or otherwise."""

from __future__ import annotations

from collections.abc import Callable

from boardlab.web.friends.live import GameView
from boardlab.web.friends.models import Game, Result, Seat


def left(game: Game | GameView, now: float, mover: int) -> list[int] | None:
    """Milliseconds left on each side's clock at `now` (None: no clock), the running one's
    turn taken off."""
    if game.clock_ms is None:
        return None
    ms = [seat.remaining_ms if seat.remaining_ms is not None else 0 for seat in game.seats]
    if game.status == "playing" and game.turn_started_at is not None:
        ms[mover] -= round((now - game.turn_started_at) * 1000)
    return ms


def run(game: Game, seat: Seat, now: float) -> None:
    """Take the move's time off `seat`'s clock and add the increment; a clock out ends the
    game on time."""
    if game.clock_ms is None or game.turn_started_at is None or seat.remaining_ms is None:
        return
    ms = seat.remaining_ms - round((now - game.turn_started_at) * 1000)
    if ms <= 0:
        seat.remaining_ms = 0
        finish(game, 1 - seat.colour, "time", now)
        return
    seat.remaining_ms = ms + game.increment_ms
    game.turn_started_at = now


def settle(game: Game, now: float, to_move: Callable[[], int]) -> None:
    """End the game on time if the side to move (`to_move()`, asked only when a clock runs)
    has run out (before any other change)."""
    if game.clock_ms is None or game.status != "playing":
        return
    mover = to_move()
    left_ms = left(game, now, mover)
    if left_ms is not None and left_ms[mover] <= 0:
        game.seats[mover].remaining_ms = 0
        finish(game, 1 - mover, "time", now)


def finish(game: Game, winner: int | None, reason: str, now: float) -> None:
    """End the game: its result (`winner` None: a draw or an abort), no clock running."""
    tag = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
    game.status = "over"
    game.result = Result(winner=winner, reason=reason, tag=tag, finished_at=now)
    game.turn_started_at = None
    game.draw_offer = None
    game.updated_at = now
