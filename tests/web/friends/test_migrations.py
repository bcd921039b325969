"""Migrations: an empty database (SQLite and PostgreSQL) is brought to the newest schema, two
servers migrating one database at once both end on it (one migrates, the other waits), and a
database made by the first schema (revision 0001) opens after the upgrade with its games
playable. PostgreSQL URLs without a driver name go through psycopg 3."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import inspect

from boardlab.core.errors import UsageError
from boardlab.web.friends import db as dbmod
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.models import Base
from boardlab.web.friends.store import FriendStore, hash_token


def test_an_empty_database_gets_the_newest_schema(db_url: str) -> None:
    url = db_url
    st = FriendStore(url)
    try:
        assert dbmod.current_revision(st.engine) == dbmod.head_revision()
        tables = set(inspect(st.engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
        # each model column exists in the migrated table: the migrations build the models
        for name, table in Base.metadata.tables.items():
            cols = {c["name"] for c in inspect(st.engine).get_columns(name)}
            assert {c.name for c in table.columns} == cols, name
            # and each model index, by name and columns
            indexes = {i["name"]: i["column_names"] for i in inspect(st.engine).get_indexes(name)}
            for index in table.indexes:
                assert indexes.get(index.name) == [c.name for c in index.columns], index.name
    finally:
        st.close()
    # opening again is a no-op
    FriendStore(url).close()


def test_a_first_schema_database_opens_after_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = dbmod.make_engine(dbmod.sqlite_url(path))
    dbmod.upgrade(engine, "0001")
    engine.dispose()
    # a game as version 1 wrote it: 3×3 Dodgem, two moves played, both seats joined
    con = sqlite3.connect(path)
    con.execute("insert into matches values ('m' || hex(randomblob(8)), 1.0)")
    match_id = con.execute("select id from matches").fetchone()[0]
    game_id = "g" * 22
    con.execute(
        "insert into games values (?, ?, 1, 'dodgem', 'classic', 3, null, 'playing', 2, "
        "1.0, 2.0, '127.0.0.1')",
        (game_id, match_id),
    )
    con.execute("insert into seats values (?, 0, 0, ?, 1.0)", (game_id, hash_token("blue-tok")))
    con.execute("insert into seats values (?, 1, 1, ?, 1.0)", (game_id, hash_token("red-tok")))
    con.execute(
        "insert into moves (game_id, ply, move, played_at) values (?, 0, 'a2-b2', 1.5)", (game_id,)
    )
    con.execute(
        "insert into moves (game_id, ply, move, played_at) values (?, 1, 'b1-a1', 2.0)", (game_id,)
    )
    con.commit()
    con.close()
    assert dbmod.current_revision(dbmod.make_engine(dbmod.sqlite_url(path))) == "0001"

    st = FriendStore(dbmod.sqlite_url(path))
    try:
        assert dbmod.current_revision(st.engine) == dbmod.head_revision() != "0001"
        state = st.state(game_id, "blue-tok")
        assert state.moves == ["a2-b2", "b1-a1"] and state.you == 0
        assert state.clock is None and state.draw_offer is None and state.result is None
        after = st.move(game_id, "blue-tok", state.legal_moves[0], 2)
        assert after.ply == 3
        over = st.resign(game_id, "red-tok")
        assert over.result is not None and over.result.winner == 0
        assert over.match.score == (1.0, 0.0)
    finally:
        st.close()


def test_two_servers_migrating_at_once_both_end_on_the_newest_schema(db_url: str) -> None:
    engines = [dbmod.make_engine(db_url) for _ in range(3)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(engines))

    def migrate(engine: object) -> None:
        try:
            barrier.wait()
            dbmod.upgrade(engine)  # type: ignore[arg-type]
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=migrate, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert dbmod.current_revision(engines[0]) == dbmod.head_revision()
    for e in engines:
        e.dispose()
    st = FriendStore(db_url)  # and the schema works
    try:
        assert st.create(fs.CreateRequest(size=3)).state.status == "waiting"
    finally:
        st.close()


def test_postgresql_urls_name_psycopg_and_bad_urls_are_one_line() -> None:
    assert dbmod.normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert dbmod.normalise_url("postgres://u@h:5433/db") == "postgresql+psycopg://u@h:5433/db"
    assert dbmod.normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    assert dbmod.make_engine("postgresql://u@127.0.0.1/db").dialect.driver == "psycopg"
    with pytest.raises(UsageError, match="not a database URL"):
        dbmod.make_engine("no-such-scheme")


def test_a_clients_open_games_are_counted_without_reading_its_finished_ones(
    tmp_path: Path,
) -> None:
    """The bound on a client's open games counts them by address and status through one
    index (SQLite's plan): by address alone, every finished game of the address is read."""
    st = FriendStore(dbmod.sqlite_url(tmp_path / "plan.sqlite3"))
    try:
        with st.engine.connect() as conn:
            plan = conn.exec_driver_sql(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM games "
                "WHERE status IN ('waiting', 'playing') AND creator_addr = 'a'"
            ).all()
        detail = " ".join(str(row[-1]) for row in plan)
        assert "ix_games_creator_status (creator_addr=? AND status=?)" in detail, detail
    finally:
        st.close()


class _LockedCursor:
    """A cursor whose first `locked` executes fail as SQLite's deadlock answer does."""

    def __init__(self, locked: int, message: str = "database is locked") -> None:
        self.locked = locked
        self.message = message
        self.calls = 0

    def execute(self, sql: str) -> None:
        self.calls += 1
        if self.calls <= self.locked:
            raise sqlite3.OperationalError(self.message)


def test_the_switch_to_wal_is_tried_again_while_another_connection_holds_the_file() -> None:
    # two connections switching a new file at once: SQLite answers "locked" without waiting
    cursor = _LockedCursor(locked=3)
    dbmod._switch_to_wal(cursor, wait_s=10)
    assert cursor.calls == 4
    # it gives up after its wait, and any other error is not retried
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        dbmod._switch_to_wal(_LockedCursor(locked=10**9), wait_s=0.05)
    other = _LockedCursor(locked=1, message="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        dbmod._switch_to_wal(other, wait_s=10)
    assert other.calls == 1
