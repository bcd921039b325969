"""Moves of many games written together: a batch of moves stores each game's row, move, clock
and result as the game in memory has them (read again from the database by another store,
the games are the same), a game changed meanwhile by another store is refused alone, and the
state the sockets are sent is exactly what the API's model says."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import event, func, select, update
from sqlalchemy.orm import Session
from tests.web.friends.helpers import ManualClock, run_coroutine, started, token_to_move

from boardlab.web.friends import groupcommit, views
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.models import Game, MoveRow
from boardlab.web.friends.store import FriendLimits, FriendStore, Played

T = TypeVar("T")


def shared(state: fs.FriendStateOut) -> views.Public:
    return state.model_dump(mode="json", exclude=set(views.SEAT_FIELDS))


def move_all(
    store: FriendStore,
    games: list[fs.CreatedOut],
    rng: random.Random,
    states: list[fs.FriendStateOut] | None = None,
) -> list[Played | None]:
    """One move in each game playing (as `states` show them, else as read now), all
    submitted in one pass of an event loop (so they go to the writer as one batch)."""
    if states is None:
        states = [store.state(created.id) for created in games]

    async def main() -> list[Played | None]:
        moves = [
            store.move_async(
                created.id, token_to_move(created, state), rng.choice(state.legal_moves), state.ply
            )
            for created, state in zip(games, states, strict=True)
            if state.status == "playing"
        ]
        return list(await asyncio.gather(*moves))

    return run_coroutine(main())


def test_batches_store_what_the_games_in_memory_hold(
    two: tuple[FriendStore, FriendStore], clock: ManualClock
) -> None:
    """Six games with clocks played to their end in batches (one move of each a batch): the
    other store reads every game, its moves, clocks and result, as the first has them."""
    a, b = two
    rng = random.Random(5)
    games = [started(a, clock={"minutes": 5, "increment": 2}) for _ in range(6)]
    batches = 0
    while any(a.state(g.id).status == "playing" for g in games):
        clock.advance(1.25)
        played = move_all(a, games, rng)
        assert played and all(p is not None and p.write is not None for p in played)
        batches += 1
        for game in games:  # after every batch, the database is the memory's
            assert shared(b.state(game.id)) == shared(a.state(game.id))
    assert batches > 3
    for game in games:
        state = b.state(game.id)
        assert state.result is not None and state.clock is not None
        assert len(state.moves) == state.ply
        assert state.clock.remaining_ms != (300_000, 300_000)  # the clocks were stored


def test_without_sqlites_json_a_batch_is_written_row_by_row(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite older than 3.38 (no built-in JSON): the same batches, a statement a row."""
    monkeypatch.setattr(groupcommit, "_SQLITE_JSON", False)
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    a = FriendStore(url, FriendLimits(), now=clock)
    b = FriendStore(url, FriendLimits(), now=clock, migrate=False)
    try:
        games = [started(a, clock={"minutes": 5, "increment": 2}) for _ in range(3)]
        rng = random.Random(3)
        while any(a.state(g.id).status == "playing" for g in games):
            clock.advance(1.0)
            assert all(p is not None for p in move_all(a, games, rng))
        for game in games:
            assert shared(b.state(game.id)) == shared(a.state(game.id))
            assert b.state(game.id).result is not None
    finally:
        a.close()
        b.close()


def test_a_game_changed_by_another_store_is_refused_alone(
    two: tuple[FriendStore, FriendStore],
) -> None:
    """Three games' moves in one batch; one game was resigned through the other store after
    this one read it: its move is refused (the copy read again), the other two are stored."""
    a, b = two
    games = [started(a) for _ in range(3)]
    states = [a.state(game.id) for game in games]  # in a's memory
    b.resign(games[1].id, games[1].token)
    played = move_all(a, games, random.Random(1), states)
    assert played[0] is not None and played[2] is not None
    assert played[1] is None  # refused: a read the game again, it is over
    assert a.live.get(games[1].id) is None
    with b.engine.connect() as conn:
        plies = {row.id: row.ply for row in conn.execute(select(Game.id, Game.ply))}
        rows = conn.scalar(select(func.count()).select_from(MoveRow))
    assert plies == {games[0].id: 1, games[1].id: 0, games[2].id: 1}
    assert rows == 2
    assert a.state(games[1].id).status == "over"
    assert shared(a.state(games[0].id)) == shared(b.state(games[0].id))


def test_the_sockets_state_is_the_models(store: FriendStore, clock: ManualClock) -> None:
    """The state built for the sockets without a model (JSON values) is exactly the API
    model's: validated, it dumps to itself, through a game's setup, clocks and its end."""
    rng = random.Random(2)
    kinds: list[dict[str, object]] = [
        {"clock": {"minutes": 1, "increment": 1}},
        {"game": "dotdash", "size": 7, "pie": "place"},
    ]
    for kwargs in kinds:
        created = started(store, **kwargs)
        live = store.live.get(created.id)
        assert live is not None
        seen = 0
        state = store.state(created.id)
        while True:
            out = views.public(live, clock())
            model = fs.FriendStateOut.model_validate(out)
            assert model.model_dump(mode="json", exclude=set(views.SEAT_FIELDS)) == out
            assert shared(state) == out
            seen += 1
            if state.status != "playing" or state.setup is not None or seen > 40:
                break
            clock.advance(0.5)
            tok = token_to_move(created, state)
            state = store.move(created.id, tok, rng.choice(state.legal_moves), state.ply)
            live = store.live.get(created.id) or live
        assert seen > 1 or state.setup is not None


def test_changes_ride_in_the_moves_transaction_each_in_its_own_savepoint(
    store: FriendStore,
) -> None:
    """While the writer is busy, a move and three changes wait; they are then written in one
    batch: the move and the good changes are stored, the change that raised has its own
    write undone and its caller gets its error, and one transaction stored the changes (on
    PostgreSQL with the move; SQLite's moves go first, in a statement of their own)."""
    games = [started(store) for _ in range(4)]
    state = store.state(games[0].id)
    commits = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))
    busy, free = threading.Event(), threading.Event()

    def hold(db: Session) -> str:  # keeps the writer in its first batch
        busy.set()
        free.wait(10)
        return "held"

    def mark(game_id: str, fail: bool = False) -> Callable[[Session], str]:
        def change(db: Session) -> str:
            db.execute(update(Game).where(Game.id == game_id).values(creator_addr="changed"))
            if fail:
                raise ValueError("refused after its write")
            return game_id

        return change

    first = store.committer.submit_change(hold)
    assert busy.wait(10)
    before = len(commits)
    waiting = [
        store.committer.submit_change(mark(games[1].id)),
        store.committer.submit_change(mark(games[2].id, fail=True)),
        store.committer.submit_change(mark(games[3].id)),
    ]
    moved = store.move_async(
        games[0].id, token_to_move(games[0], state), state.legal_moves[0], state.ply
    )
    played = run_coroutine_beside(moved, free)
    assert first.result(10) == "held"
    assert waiting[0].result(10) == games[1].id and waiting[2].result(10) == games[3].id
    with pytest.raises(ValueError, match="refused after its write"):
        waiting[1].result(10)
    assert played is not None
    assert len(commits) - before == 2  # the held batch's commit, then the rest's one
    with store.engine.connect() as conn:
        addr = dict(conn.execute(select(Game.id, Game.creator_addr)).all())
        ply = conn.scalar(select(Game.ply).where(Game.id == games[0].id))
    assert addr[games[1].id] == addr[games[3].id] == "changed"
    assert addr[games[2].id] == "10.0.0.1"  # its savepoint was undone
    assert ply == 1


def run_coroutine_beside(coro: Coroutine[Any, Any, T], free: threading.Event) -> T:
    """Run `coro` in an event loop; once it has submitted what it will (its first pass),
    `free` lets the writer go on."""

    async def main() -> T:
        task = asyncio.ensure_future(coro)
        await asyncio.sleep(0)
        free.set()
        return await task

    return run_coroutine(main())


def test_sqlite_batch_waits_for_another_connections_write_lock(
    tmp_path: Path, clock: ManualClock
) -> None:
    """SQLite: while another connection (another process) holds the write lock, a batch of
    moves waits for it and is then stored whole, as the game in memory has it."""
    url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    a = FriendStore(url, FriendLimits(), now=clock)
    try:
        games = [started(a) for _ in range(3)]
        states = [a.state(g.id) for g in games]
        other = sqlite3.connect(
            tmp_path / "locked.sqlite3", isolation_level=None, check_same_thread=False
        )
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, other.rollback).start()
        played = move_all(a, games, random.Random(4), states)
        assert all(p is not None for p in played)
        other.close()
        b = FriendStore(url, FriendLimits(), now=clock, migrate=False)
        try:
            for game in games:
                assert b.state(game.id).ply == 1
                assert shared(b.state(game.id)) == shared(a.state(game.id))
        finally:
            b.close()
    finally:
        a.close()
