"""Migrations: an empty file is brought to the newest schema, and a database made by the
first schema (revision 0001) opens after the upgrade with its games playable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import inspect

from boardlab.web.friends import db as dbmod
from boardlab.web.friends.models import Base
from boardlab.web.friends.store import FriendStore, hash_token


def test_an_empty_database_gets_the_newest_schema(tmp_path: Path) -> None:
    url = dbmod.sqlite_url(tmp_path / "new.sqlite3")
    st = FriendStore(url)
    try:
        assert dbmod.current_revision(st.engine) == dbmod.head_revision()
        tables = set(inspect(st.engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
        # each model column exists in the migrated table: the migrations build the models
        for name, table in Base.metadata.tables.items():
            cols = {c["name"] for c in inspect(st.engine).get_columns(name)}
            assert {c.name for c in table.columns} == cols, name
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
