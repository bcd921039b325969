"""What a shared game looks like from outside: its state as a seat or a spectator sees it,
rendered from the game in memory, and a stored move's columns carried into that copy."""

from __future__ import annotations

from typing import Any

from boardlab.web.friends import clock
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.groupcommit import MoveWrite
from boardlab.web.friends.live import GameView, LiveGame, ResultView, Score, SeatView
from boardlab.web.service import result_out

Public = dict[str, Any]  # a state as JSON values, without the seat's `you` and `person`
SEAT_FIELDS = ("you", "person")


def public(live: LiveGame, now: float) -> Public:
    """The state of a game in memory at `now` as every viewer sees it: `FriendStateOut`'s
    fields but `you` and `person`, as JSON values (what the sockets are sent; a busy server
    makes one a move, so no model is built and validated for it: a test checks that it is
    exactly what the model dumps)."""
    game, rules, session = live.view, live.rules, live.session
    moves, positions = live.notation()
    mover = session.to_move
    left = clock.left(game, now, mover)
    clock_out = None
    staging = game.setup_stage is not None
    if left is not None and game.clock_ms is not None:
        clock_out = {
            "initial_ms": game.clock_ms,
            "increment_ms": game.increment_ms,
            "remaining_ms": [max(0, left[0]), max(0, left[1])],
            "running": mover if game.status == "playing" and not staging else None,
            "now": now,
        }
    result: dict[str, Any] | None = None
    outcome = session.result
    if game.result is not None:
        r = game.result
        result = {"winner": r.winner, "reason": r.reason, "tag": r.tag}
    elif outcome is not None:  # a game finished under the first schema
        done = result_out(outcome)
        result = None if done is None else done.model_dump(mode="json")
    count, score = live.score
    playing = game.status == "playing" and not staging
    setup = None
    if staging and game.placer is not None:
        setup = {"stage": game.setup_stage, "placer": game.placer}
    return {
        "id": game.id,
        "number": game.number,
        "game": rules.game,
        "variant": rules.variant,
        "size": rules.size,
        "players": list(rules.player_names),
        "status": game.status,
        "start": positions[0],
        "moves": moves,
        "positions": positions,
        "position": positions[-1],
        "ply": game.ply,
        "to_move": mover,
        "legal_moves": list(live.legal()) if playing and outcome is None else [],
        "result": result,
        "draw_offer": game.draw_offer,
        "clock": clock_out,
        "seats": [
            {"colour": t.colour, "person": t.person, "joined": t.joined_at is not None}
            for t in game.seats
        ],
        "match": {"id": game.match_id, "games": count, "score": [score[0], score[1]]},
        "next_game": game.next_game_id,
        "facts": live.facts(),
        "setup": setup,
        "updated_at": game.updated_at,
    }


def for_seat(shared: Public, seat: SeatView | None) -> fs.FriendStateOut:
    """The state `shared` as `seat` (None: a spectator) sees it, as the API's model."""
    return fs.FriendStateOut.model_validate(
        {
            **shared,
            "you": None if seat is None else seat.colour,
            "person": None if seat is None else seat.person,
        }
    )


def render(live: LiveGame, now: float, seat: SeatView | None = None) -> fs.FriendStateOut:
    """The state of a game in memory at `now`, as `seat` (None: a spectator) sees it."""
    return for_seat(public(live, now), seat)


def apply(live: LiveGame, write: MoveWrite) -> None:
    """A stored move's columns on the game in memory, whose session has played it."""
    game = live.view
    game.ply, game.version = write.ply + 1, write.version + 1
    for key, value in write.game_values.items():
        setattr(game, key, value)
    if write.seat_colour is not None:
        game.seats[write.seat_colour].remaining_ms = write.seat_remaining_ms
    if write.result is not None:
        game.result = write.result
        live.score = scored(live.score, game, write.result)


def scored(score: Score, game: GameView, result: ResultView) -> Score:
    """The match's score once `game` ends with `result` (as `FriendStore._score` counts)."""
    count, (a, b) = score
    points = [a, b]
    if result.winner is None:
        if result.reason != "aborted":
            points = [a + 0.5, b + 0.5]
    else:
        points[game.seats[result.winner].person] += 1.0
    return count, (points[0], points[1])
