"""What a shared game looks like from outside: its state as a seat or a spectator sees it,
rendered from the game in memory, and a stored move's columns carried into that copy."""

from __future__ import annotations

from boardlab.web import schemas as s
from boardlab.web.friends import clock
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.live import GameView, LiveGame, MoveWrite, ResultView, Score, SeatView
from boardlab.web.service import result_out


def render(live: LiveGame, now: float, seat: SeatView | None = None) -> fs.FriendStateOut:
    """The state of a game in memory at `now`, as `seat` (None: a spectator) sees it."""
    game, rules, session = live.view, live.rules, live.session
    moves, positions = live.notation()
    left = clock.left(game, now, session.to_move)
    clock_out = None
    staging = game.setup_stage is not None
    if left is not None and game.clock_ms is not None:
        running = session.to_move if game.status == "playing" and not staging else None
        clock_out = fs.ClockOut(
            initial_ms=game.clock_ms,
            increment_ms=game.increment_ms,
            remaining_ms=(max(0, left[0]), max(0, left[1])),
            running=running,
            now=now,
        )
    result = None
    outcome = session.result
    if game.result is not None:
        result = s.ResultOut(
            winner=game.result.winner, reason=game.result.reason, tag=game.result.tag
        )
    elif outcome is not None:  # a game finished under the first schema
        result = result_out(outcome)
    count, score = live.score
    facts = live.board_facts()
    playing = game.status == "playing" and not staging
    setup = None
    if staging and game.placer is not None:
        setup = fs.SetupOut.model_validate({"stage": game.setup_stage, "placer": game.placer})
    return fs.FriendStateOut(
        id=game.id,
        number=game.number,
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        players=rules.player_names,
        status=game.status,  # type: ignore[arg-type]
        start=positions[0],
        moves=moves,
        positions=positions,
        position=positions[-1],
        ply=game.ply,
        to_move=session.to_move,
        legal_moves=(
            [rules.format_move(m) for m in rules.legal_moves(session.position)]
            if playing and outcome is None
            else []
        ),
        result=result,
        draw_offer=game.draw_offer,
        clock=clock_out,
        seats=[
            fs.SeatOut(colour=t.colour, person=t.person, joined=t.joined_at is not None)
            for t in game.seats
        ],
        match=fs.MatchOut(id=game.match_id, games=count, score=score),
        next_game=game.next_game_id,
        facts=None if facts is None else s.BoardFactsOut.model_validate(facts),
        setup=setup,
        updated_at=game.updated_at,
        you=None if seat is None else seat.colour,
        person=None if seat is None else seat.person,
    )


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
