"""New shared games of many clients are written together (one transaction a batch) without
letting more through the bounds on open games, and a client refused at a bound is refused
again from memory for a moment, without asking the database."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session
from tests.web.friends.helpers import ManualClock, bearer

from boardlab.web import create_app
from boardlab.web.friends import schemas as fs
from boardlab.web.friends import service
from boardlab.web.friends.batch import Batch
from boardlab.web.friends.models import Game, Match
from boardlab.web.friends.store import FriendLimits, FriendStore, TooManyGamesError

REQ = fs.CreateRequest.model_validate({"size": 3})


def _submitted_while_locked(store: FriendStore, clients: list[str]) -> list[Future[Any]]:
    """Creations submitted while another writer holds the write lock: they pile up, then
    go in (at most) two batches, the first one taken before the lock was free."""
    batch = Batch[fs.CreatedOut](store.batcher)
    before = store.batcher.batches
    with store._write_lock:
        futures = [batch.submit(store._creation(REQ, c, lambda n: 0)) for c in clients]
    for fut in futures:
        fut.exception(timeout=30)
    assert store.batcher.batches - before <= 2  # not one transaction a game
    return futures


def _open(store: FriendStore) -> int:
    return store.open_games()


@pytest.mark.parametrize("per_client,total", [(5, 1000), (1000, 7)])
def test_a_batch_counts_its_own_games_against_the_bounds(
    tmp_path: Path, per_client: int, total: int
) -> None:
    store = FriendStore(
        f"sqlite:///{tmp_path / 'f.sqlite3'}",
        FriendLimits(open_per_client=per_client, open_total=total),
    )
    try:
        futures = _submitted_while_locked(store, ["10.0.0.1"] * 12 + ["10.0.0.2"] * 12)
        made = [f for f in futures if f.exception() is None]
        refused = [f.exception() for f in futures if f.exception() is not None]
        assert all(isinstance(e, TooManyGamesError) for e in refused)
        expected = 2 * per_client if per_client < 12 else total
        assert len(made) == expected == _open(store)
        ids = {f.result().id for f in made}
        assert len(ids) == expected
        for game_id in ids:  # each answered game is stored, seated and readable
            assert store.state(game_id).status == "waiting"
    finally:
        store.close()


def test_a_change_that_fails_undoes_only_itself(tmp_path: Path) -> None:
    store = FriendStore(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    try:
        batch = Batch[str](store.batcher)

        def add(match_id: str, fail: bool) -> Any:
            def change(db: Session) -> str:
                db.add(Match(id=match_id, created_at=1.0))
                db.flush()
                if fail:
                    raise ValueError("refused after writing")
                return match_id

            return change

        with store._write_lock:
            futures = [batch.submit(add(f"match-{i:04d}", fail=i % 2 == 1)) for i in range(6)]
        assert [f.exception(timeout=30) is None for f in futures] == [True, False] * 3
        with store._read() as db:
            kept = set(db.scalars(select(Match.id)))
        assert kept == {"match-0000", "match-0002", "match-0004"}
    finally:
        store.close()


@pytest.fixture
def api1(tmp_path: Path) -> Iterator[TestClient]:
    """The API with one open game per address, on a clock the test moves."""
    app: Any = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(
        f"sqlite:///{tmp_path / 'friends.sqlite3'}", FriendLimits(open_per_client=1)
    )
    with TestClient(app, base_url="http://localhost", client=("10.1.2.3", 5000)) as c:
        c.post("/api/friends", json={"size": 3})  # opens the store
        yield c


def _statements(store: FriendStore) -> list[str]:
    seen: list[str] = []
    for engine in (store.engine, store.read_engine):
        event.listen(engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    return seen


def test_a_refused_client_is_refused_again_from_memory(
    api1: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    app: Any = api1.app
    store: FriendStore = app.state.friends.open()
    first = api1.post("/api/friends", json={"size": 3})
    assert first.status_code == 429 and "per address" in first.json()["error"]
    seen = _statements(store)
    again = api1.post("/api/friends", json={"size": 3})
    assert again.status_code == 429 and again.json() == first.json()
    assert 0 < int(again.headers["retry-after"]) <= store.limits.invite_expiry_s + 1
    assert seen == []  # answered without the database
    # another address is not refused by this one's refusal
    with TestClient(app, base_url="http://localhost", client=("10.9.9.9", 1)) as other:
        mine = other.post("/api/friends", json={"size": 3})
        assert mine.status_code == 200
    assert seen  # that one was counted in the database
    # once the memory lapses, the database decides again: a resignation frees the place
    monkeypatch.setattr(service, "REFUSAL_MEMORY_S", 0.0)
    app.state.friends._refused.clear()
    with store._read() as db:
        gid = db.scalar(select(Game.id).where(Game.creator_addr == "10.1.2.3"))
    assert gid is not None
    token = _creator_token(api1, store, gid)
    assert api1.post(f"/api/friends/{gid}/resign", headers=bearer(token)).status_code == 200
    assert api1.post("/api/friends", json={"size": 3}).status_code == 200


def _creator_token(api: TestClient, store: FriendStore, gid: str) -> str:
    """The creator's token is answered once, at creation: give that seat a known one."""
    from boardlab.web.friends.storecore import hash_token

    with store._tx() as db:
        game = db.get(Game, gid)
        assert game is not None
        seat = next(s for s in game.seats if s.joined_at is not None)
        seat.token_hash = hash_token("known-token-for-the-test-0123456789")
    store.live.drop(gid)
    return "known-token-for-the-test-0123456789"


def test_at_a_bound_a_due_invitation_expires_and_the_game_is_made(
    api1: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    app: Any = api1.app
    store: FriendStore = app.state.friends.open()
    clock = ManualClock()
    monkeypatch.setattr(store, "now", clock)
    monkeypatch.setattr(service, "REFUSAL_MEMORY_S", 0.0)
    with store._tx() as db:  # the game the fixture made, dated by this clock
        game = db.scalars(select(Game)).one()
        game.created_at = game.updated_at = clock()
    assert api1.post("/api/friends", json={"size": 3}).status_code == 429
    clock.advance(store.limits.invite_expiry_s + 1)
    made = api1.post("/api/friends", json={"size": 3})
    assert made.status_code == 200, made.text
    with store._read() as db:
        statuses = sorted(db.scalars(select(Game.status)))
        assert statuses == ["expired", "waiting"]
        assert db.scalar(select(func.count()).select_from(Game)) == 2
