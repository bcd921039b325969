"""Another process's move reaches this process's copy of the game as the move itself: applied
to a copy exactly one version behind without reading the database; a gap, a change that is not
a move, or a note that does not fit is read again from the database instead."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import event
from tests.web.friends.helpers import ManualClock, run_coroutine, started, token_to_move

from boardlab.web.friends import schemas as fs
from boardlab.web.friends.events import Event, PostgresBus
from boardlab.web.friends.groupcommit import MoveWrite
from boardlab.web.friends.live import LiveGame
from boardlab.web.friends.store import FriendStore, Played, SeatError


class Statements:
    """Counts the SQL statements a store sends."""

    def __init__(self, store: FriendStore) -> None:
        self.count = 0
        for engine in {store.engine, store.read_engine}:
            event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *args: Any) -> None:
        self.count += 1


def public(state: Any) -> dict[str, Any]:
    """A state (the model, or the public part the sockets get) as every viewer sees it."""
    if isinstance(state, dict):
        return state
    return {k: v for k, v in state.model_dump(mode="json").items() if k not in ("you", "person")}


def test_moves_of_another_process_are_applied_without_reading(
    two: tuple[FriendStore, FriendStore], clock: ManualClock
) -> None:
    a, b = two
    created = started(a, clock={"minutes": 5, "increment": 3})
    b.state(created.id)  # b's copy, as a process with a socket on the game keeps it
    copy = b.live.get(created.id)
    assert copy is not None
    sql = Statements(b)
    state = a.state(created.id)
    while state.status == "playing":
        clock.advance(1.5)
        played = a.play(created.id, token_to_move(created, state), state.legal_moves[0], state.ply)
        state = played.state
        assert played.write is not None
        live = b.catch_up(created.id, played.write.version + 1, played.write.note())
        assert live is copy  # the same copy, one move on
        if live.view.status == "playing":  # (a game that ended is no longer kept)
            # an event it has already seen (the same version, or older) changes nothing
            assert b.catch_up(created.id, live.view.version, None) is copy
        rendered = b.render(live)
        assert rendered is not None and public(rendered) == public(a.state(created.id))
    assert sql.count == 0  # not one statement: the moves came with the events
    assert state.result is not None and copy.view.result is not None
    assert copy.view.result.tag == state.result.tag
    # the game is over: b keeps no copy of it now; read again, it is the database's
    assert b.live.get(created.id) is None and b.live.is_over(created.id)
    assert public(b.state(created.id)) == public(state)


def test_a_gap_a_change_that_is_not_a_move_or_a_bad_note_reads_again(
    two: tuple[FriendStore, FriendStore], caplog: pytest.LogCaptureFixture
) -> None:
    a, b = two
    created = started(a)
    state = b.state(created.id)
    first = a.play(created.id, token_to_move(created, state), state.legal_moves[0], 0)
    second = a.play(created.id, token_to_move(created, first.state), first.state.legal_moves[0], 1)
    assert first.write is not None and second.write is not None
    # b missed the first move's event: the second does not fit, the copy is dropped
    assert b.catch_up(created.id, second.write.version + 1, second.write.note()) is None
    assert b.live.get(created.id) is None
    assert b.state(created.id).moves == second.state.moves  # read again, whole
    # a change that is not a move (here a draw offer) says only the version: read again
    copy = b.live.get(created.id)
    assert copy is not None
    offered = a.draw(created.id, token_to_move(created, second.state), "offer")
    assert b.catch_up(created.id, copy.view.version + 1, None) is None
    assert b.state(created.id).draw_offer == offered.draw_offer
    # a note that does not fit the copy (another move than the rules allow, a wrong ply)
    live = b.live.get(created.id)
    assert live is not None
    v = live.view.version
    bad_move = {**second.write.note(), "ply": live.view.ply, "move": "z9-z9"}
    bad_ply = {**second.write.note(), "ply": live.view.ply + 3}
    with caplog.at_level(logging.WARNING, logger="boardlab.web.friends"):
        for note in (bad_move, bad_ply, {"ply": "x"}):
            b.state(created.id)
            assert b.catch_up(created.id, v + 1, note) is None
            assert b.live.get(created.id) is None
    assert len([r for r in caplog.records if "read " in r.getMessage()]) == 3
    assert b.state(created.id).moves == second.state.moves  # nothing of the bad notes stayed


def test_postgres_sends_the_stored_moves_events_with_their_commit(postgres: Any) -> None:
    """The group commit's NOTIFY goes out with the transaction: a listener hears each stored
    move (version and note), and nothing of a write the database refused."""
    url = postgres.database()
    store = FriendStore(url)
    sender, listener = PostgresBus(url), PostgresBus(url)
    store.committer.announce = sender.announce
    try:
        created = started(store)
        state = store.state(created.id)

        async def main() -> tuple[list[Event], Played, MoveWrite]:
            heard: list[Event] = []

            async def on(event: Event) -> None:
                heard.append(event)

            task = asyncio.create_task(listener.run(on))
            await asyncio.sleep(0.5)  # listening
            tok = token_to_move(created, state)
            played = store.play(created.id, tok, state.legal_moves[0], 0)
            assert played.write is not None
            # a write for the version the move has just replaced: refused, not announced
            stale = replace(played.write, ply=1, move=played.state.legal_moves[0], announced=False)
            assert store.committer.submit(stale).result() is False
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # anything else would have come by now
            task.cancel()
            await listener.close()
            return heard, played, stale

        heard, played, stale = run_coroutine(main())
        write = played.write
        assert write is not None and write.announced and not stale.announced
        assert heard == [Event(created.id, write.version + 1, write.note())]
    finally:
        store.close()


def test_a_copy_behind_the_database_is_read_again_before_a_refusal(
    two: tuple[FriendStore, FriendStore],
) -> None:
    """b kept the game from before the friend joined (through a): a move through b is read
    against the database's game, not refused as "not started"."""
    a, b = two
    req = fs.CreateRequest.model_validate({"game": "dodgem", "size": 3})
    created = a.create(req, client="10.0.0.1")
    assert b.state(created.id).status == "waiting"
    joined = a.join(created.id, created.invite_token)
    assert joined.status == "playing"
    moved = b.move(created.id, token_to_move(created, joined), joined.legal_moves[0], 0)
    assert moved.ply == 1 and a.state(created.id).moves == moved.moves
    # a move the database's game refuses is still refused, after the second look
    with pytest.raises(SeatError):
        b.move(created.id, token_to_move(created, joined), moved.legal_moves[0], 1)


def test_an_older_copy_never_replaces_a_newer_one(store: FriendStore) -> None:
    created = started(store)
    state = store.state(created.id)
    kept = store.live.get(created.id)
    assert kept is not None
    before = replace(kept.view, seats=list(kept.view.seats))  # the game as read then
    store.move(created.id, token_to_move(created, state), state.legal_moves[0], 0)
    assert store.live.get(created.id) is kept and kept.view.version == before.version + 1
    # a reader that read before the move puts its copy in after it: the newer one stays
    late = LiveGame(before, kept.rules, kept.session, kept.score)
    assert store.live.put(late) is kept and store.live.get(created.id) is kept
    assert store.state(created.id).ply == 1


def test_an_older_copy_never_replaces_the_ended_one(store: FriendStore) -> None:
    """A reader that read a game before its last move puts its copy in after the move ended
    the game: the ended copy stays (the stale one would show the game still playing)."""
    created = started(store)
    state = store.state(created.id)
    while True:
        kept = store.live.get(created.id)
        assert kept is not None
        before = replace(kept.view, seats=list(kept.view.seats))  # the game as read now
        tok = token_to_move(created, state)
        state = store.move(created.id, tok, state.legal_moves[0], state.ply)
        if state.status != "playing":
            break
    ended = store.live.ended(created.id)
    assert ended is not None and ended.view.version == before.version + 1
    late = LiveGame(before, kept.rules, kept.session, kept.score)
    assert store.live.put(late) is ended
    assert store.live.get(created.id) is None and store.live.ended(created.id) is ended
    assert store.state(created.id).status == "over"


def test_the_notation_kept_between_renders_follows_moves_taken_back(store: FriendStore) -> None:
    created = started(store)
    state = store.state(created.id)
    live = store.live.get(created.id)
    assert live is not None
    rules, session = live.rules, live.session
    first, other = state.legal_moves[0], state.legal_moves[1]
    session.play(first)
    assert live.notation()[0] == [first]
    session.undo()  # as a write the database refused takes its move back
    session.play(other)
    moves, positions = live.notation()
    assert moves == [other]
    assert positions == [rules.format_position(p) for p in session.positions]


def test_a_finished_game_is_not_kept_in_memory(store: FriendStore) -> None:
    """Games that ended leave the copies in memory (a busy server ends thousands an hour);
    reading one still works, and the clock watcher needs no query to pass it by."""
    created = started(store, clock={"minutes": 5})
    state = store.state(created.id)
    assert store.live.get(created.id) is not None
    while state.status == "playing":
        tok = token_to_move(created, state)
        state = store.move(created.id, tok, state.legal_moves[0], state.ply)
    assert store.live.get(created.id) is None and store.live.is_over(created.id)
    assert store.state(created.id).moves == state.moves  # read from the database
    assert store.live.get(created.id) is None  # and not kept
    sql = Statements(store)
    assert store.maybe_due(created.id) is False and store.flag_if_due(created.id) is False
    assert sql.count == 0
    resigned = started(store)
    store.resign(resigned.id, resigned.token)
    assert store.live.get(resigned.id) is None and store.live.is_over(resigned.id)


def test_a_rematch_replays_nothing_and_a_stale_ended_copy_is_read_again(
    two: tuple[FriendStore, FriendStore],
) -> None:
    """The copy of a game that just ended serves the rematch: the next game is made in memory
    with it (both players open it at once), and the ended game's state links it, without
    reading a move from the database. An ended copy that another process changed (its own
    rematch) is read again."""
    a, b = two
    created = started(a)

    def finish(store: FriendStore, game_id: str, swapped: bool) -> fs.FriendStateOut:
        state = store.state(game_id)
        while state.status == "playing":
            mine = (state.to_move == created.colour) != swapped
            tok = created.token if mine else created.invite_token
            state = store.move(game_id, tok, state.legal_moves[0], state.ply)
        return state

    finish(a, created.id, swapped=False)
    assert a.live.ended(created.id) is not None
    second = b.rematch(created.id, created.invite_token).id  # b changes the ended game
    # a's copy is stale: its rematch finds the row changed and answers b's next game
    assert a.rematch(created.id, created.token).id == second
    assert a.state(created.id).next_game == second
    last = finish(a, second, swapped=True)
    moves_read: list[str] = []
    event.listen(
        a.read_engine,
        "before_cursor_execute",
        lambda *args: moves_read.append(args[2]) if "FROM moves" in args[2] else None,
    )
    third = a.rematch(second, created.token).id
    assert a.live.get(third) is not None  # made in memory with the rematch
    after = a.state(second)
    assert after.next_game == third and after.moves == last.moves
    first = a.join(third, created.invite_token)
    assert (first.ply, first.status, first.match.games) == (0, "playing", 3)
    assert moves_read == []
    # the same, read by a store that kept nothing, is the database's
    assert public(b.state(second)) == public(after)
    assert public(b.state(third)) == public(a.state(third))
