"""Shared games cannot be squatted and do not pile up: unopened invitations expire after
hours, limits count an IPv6 client per /64, the cap's 429 says when to retry, finished and
expired matches are deleted after the retention period and the file compacted; database
trouble is one line at start and a 503 with Retry-After while serving."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select
from tests.web.friends.helpers import ManualClock, started

from boardlab.cli.common import UsageError
from boardlab.cli.serve import migrate_database
from boardlab.web import create_app
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.models import Game, Match, MoveRow, Seat
from boardlab.web.friends.retention import Housekeeper, compact, expire_invitations, prune
from boardlab.web.friends.store import FriendLimits, FriendStore

HOUR = 3600.0
DAY = 24 * HOUR


def _new(store: FriendStore, client: str = "10.0.0.9") -> fs.CreatedOut:
    return store.create(fs.CreateRequest.model_validate({"size": 3}), client=client)


def _count(store: FriendStore, model: Any) -> int:
    with store._read() as db:
        return int(db.scalar(select(func.count()).select_from(model)) or 0)


def test_an_unopened_invitation_expires_after_hours(store: FriendStore, clock: ManualClock) -> None:
    waiting = _new(store)
    playing = started(store)
    clock.advance(store.limits.invite_expiry_s - 60)
    assert expire_invitations(store) == []
    clock.advance(120)
    assert expire_invitations(store) == [waiting.id]
    assert store.state(waiting.id).status == "expired"
    assert store.state(playing.id).status == "playing"  # opened: only idle expiry applies
    assert store.open_games() == 1


def test_finished_and_expired_matches_are_pruned_after_retention(
    store: FriendStore, clock: ManualClock
) -> None:
    over = started(store)
    store.resign(over.id, over.token)
    stale = _new(store)
    open_one = started(store)
    clock.advance(store.limits.invite_expiry_s + 1)
    expire_invitations(store)
    clock.advance(store.limits.retain_s - store.limits.invite_expiry_s - HOUR)
    assert prune(store) == 0  # within the retention period (from the last change): kept
    clock.advance(8 * HOUR)
    store.move(open_one.id, open_one.token, store.state(open_one.id).legal_moves[0], 0)
    assert prune(store, batch=1) == 2  # the resigned and the expired game, in two batches
    for gone in (over.id, stale.id):
        with pytest.raises(Exception, match="no such shared game"):
            store.state(gone)
    assert store.state(open_one.id).ply == 1
    assert _count(store, Game) == 1 and _count(store, Match) == 1
    assert _count(store, Seat) == 2 and _count(store, MoveRow) == 1
    # SQLite: VACUUM ran outside a transaction; PostgreSQL: ANALYZE
    assert compact(store) is (store.engine.url.get_backend_name() == "sqlite")


def test_a_match_with_a_live_rematch_keeps_its_old_games(
    store: FriendStore, clock: ManualClock
) -> None:
    first = started(store)
    store.resign(first.id, first.token)
    nxt = store.rematch(first.id, first.token)
    clock.advance(store.limits.retain_s + DAY)
    assert prune(store) == 0  # the rematch is still open: the score keeps both games
    assert store.state(nxt.id).match.games == 2


def test_the_housekeeper_expires_and_prunes_in_one_round(
    store: FriendStore, clock: ManualClock
) -> None:
    waiting = _new(store)
    clock.advance(store.limits.invite_expiry_s + 1)
    expired, deleted = Housekeeper().run_once(store)
    assert expired == [waiting.id] and deleted == 0
    clock.advance(store.limits.retain_s + 1)
    assert Housekeeper().run_once(store) == ([], 1)


@pytest.fixture
def api6(tmp_path: Path) -> Iterator[TestClient]:
    """The API seen from an IPv6 address, at most 2 open games per client."""
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(
        f"sqlite:///{tmp_path / 'friends.sqlite3'}", FriendLimits(open_per_client=2)
    )
    with TestClient(app, base_url="http://localhost", client=("2001:db8:1:2::1", 5000)) as c:
        yield c


def test_ipv6_clients_are_counted_per_64_and_told_when_to_retry(api6: TestClient) -> None:
    app: Any = api6.app
    for _ in range(2):
        assert api6.post("/api/friends", json={"size": 3}).status_code == 200
    # another address of the same /64 shares the quota
    with TestClient(app, base_url="http://localhost", client=("2001:db8:1:2::ffff", 1)) as other:
        refused = other.post("/api/friends", json={"size": 3})
    assert refused.status_code == 429 and refused.json()["kind"] == "TooManyGamesError"
    retry = int(refused.headers["retry-after"])
    limits = app.state.friends.limits
    assert 0 < retry <= limits.invite_expiry_s + 1  # when the oldest invitation expires
    assert "try again in" in refused.json()["error"]
    # another /64 does not
    with TestClient(app, base_url="http://localhost", client=("2001:db8:1:3::1", 1)) as third:
        assert third.post("/api/friends", json={"size": 3}).status_code == 200


def test_a_full_disk_while_serving_is_a_503_and_writes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app: Any = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(
        f"sqlite:///{tmp_path / 'friends.sqlite3'}", FriendLimits(open_per_client=1000)
    )
    with TestClient(app, base_url="http://localhost") as api:
        _fill_the_disk(app, api, caplog)


def _fill_the_disk(app: Any, api: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    assert api.post("/api/friends", json={"size": 3}).status_code == 200
    store: FriendStore = app.state.friends.open()
    with store._read() as db:
        games = db.scalar(select(func.count()).select_from(Game))
    for engine in (store.engine, store.read_engine):
        engine.dispose()

        @event.listens_for(engine, "connect")
        def full(dbapi_connection: Any, record: Any) -> None:
            cur = dbapi_connection.cursor()
            pages = cur.execute("PRAGMA page_count").fetchone()[0]
            cur.execute(f"PRAGMA max_page_count={pages}")  # no room to grow: 'disk is full'
            cur.close()

    with caplog.at_level(logging.ERROR):
        for _ in range(50):  # new games need new pages sooner or later
            answer = api.post("/api/friends", json={"size": 3, "clock": {"minutes": 5}})
            if answer.status_code != 200:
                break
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] and answer.json()["kind"] == "DatabaseUnavailable"
    assert "disk is full" in answer.json()["error"]
    assert not [r for r in caplog.records if r.exc_info]
    with store._read() as db:  # every answered game is there, nothing half-written
        rows = db.execute(select(Game.id)).all()
        seats = db.scalar(select(func.count()).select_from(Seat))
    assert len(rows) >= int(games or 0) and seats == 2 * len(rows)


def _sqlite_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    st = FriendStore(f"sqlite:///{path}", FriendLimits())
    for i in range(40):
        _new(st, client=f"10.0.0.{i}")
    st.close()
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    return path


def _start_says(path: Path | str) -> str:
    url = path if isinstance(path, str) else f"sqlite:///{path}"
    with pytest.raises(UsageError) as info:
        migrate_database(url)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_a_database_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"hello, this is not a database at all" * 200)
    assert "not an SQLite database" in _start_says(path)


def test_a_truncated_database(tmp_path: Path) -> None:
    path = _sqlite_file(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert "truncated" in _start_says(path)


def test_a_corrupt_database(tmp_path: Path) -> None:
    path = _sqlite_file(tmp_path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for at in range(page + 8, len(data), 7):  # every page after the first, scribbled over
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))
    message = _start_says(path)
    assert "damaged" in message or "not an SQLite database" in message


def test_a_read_only_database(tmp_path: Path) -> None:
    from boardlab.web.friends.trouble import database_trouble

    path = _sqlite_file(tmp_path)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # as a read-only file
    with pytest.raises(sqlite3.Error) as info:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("DELETE FROM games")
    conn.close()
    message = database_trouble(info.value, path)
    assert message is not None and "read-only" in message


def test_a_database_from_a_newer_version(tmp_path: Path) -> None:
    path = _sqlite_file(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfacecafe'")
    assert "newer version of BoardLab" in _start_says(path)


def test_a_sound_database_opens(tmp_path: Path) -> None:
    path = _sqlite_file(tmp_path)
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(path, copy)
    url = f"sqlite:///{copy}"
    assert migrate_database(url) == url
    store = FriendStore(url, FriendLimits())
    assert store.open_games() == 40
    store.close()
