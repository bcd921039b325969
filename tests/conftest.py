"""Test-wide fixtures: tables live in temporary folders, never the user's data folder, and the
small complete tables are built once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore
from tests.pgcluster import NO_SERVER, Cluster, server_bin

SMALL_TABLES = (("classic", 3), ("misere", 3), ("blocked-loses", 3), ("classic", 4))


@pytest.fixture(autouse=True, scope="session")
def private_tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Make the default tables folder a fresh one for the whole run (one per xdist worker),
    so that commands run without --tables never touch the user's folder."""
    old = os.environ.get("BOARDLAB_TABLES")
    os.environ["BOARDLAB_TABLES"] = str(tmp_path_factory.mktemp("default-tables"))
    # the shared-games database too: a fresh file, never the user's
    old_db = os.environ.get("BOARDLAB_DATABASE")
    db = tmp_path_factory.mktemp("default-database") / "friends.sqlite3"
    os.environ["BOARDLAB_DATABASE"] = f"sqlite:///{db}"
    yield
    if old_db is None:
        os.environ.pop("BOARDLAB_DATABASE", None)
    else:
        os.environ["BOARDLAB_DATABASE"] = old_db
    if old is None:
        os.environ.pop("BOARDLAB_TABLES", None)
    else:
        os.environ["BOARDLAB_TABLES"] = old


@pytest.fixture(autouse=True)
def no_shipped_tables(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stores made in this process see no shipped tables (the package's 3×3 and 4×4 classic
    ones), so that a fresh folder is empty as the tests of building and missing tables
    expect; tests of the shipped tables are marked `shipped_tables` and see them."""
    if request.node.get_closest_marker("shipped_tables") is None:
        monkeypatch.setattr("boardlab.solver.store.BUNDLED_TABLES", None)


@pytest.fixture(scope="session")
def small_tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the complete 3×3 tables (classic, misère, blocked-loses) and the classic
    4×4 one, built once
    per session (per xdist worker); tests only read it."""
    folder = tmp_path_factory.mktemp("small-tables")
    store = TableStore(folder)
    for variant, size in SMALL_TABLES:
        store.build(rules_for(variant, size))
    store.forget()
    return folder


@pytest.fixture
def small_tables(small_tables_folder: Path) -> TableStore:
    """A fresh store over the session's small tables."""
    return TableStore(small_tables_folder)


@pytest.fixture
def empty_tables(tmp_path: Path) -> TableStore:
    """A store over an empty folder, without the package's shipped tables: no table can be
    opened (small ones could be built)."""
    return TableStore(tmp_path / "tables", bundled=None)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throw-away PostgreSQL cluster for the whole run (one per xdist worker), removed after;
    skips (fails under $BOARDLAB_REQUIRE_POSTGRES) when no server binaries are installed."""
    bindir = server_bin()
    if bindir is None:
        if os.environ.get("BOARDLAB_REQUIRE_POSTGRES"):
            pytest.fail(NO_SERVER)
        pytest.skip(NO_SERVER)
    cluster = Cluster(bindir)
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty shared-games database: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'friends.sqlite3'}"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.database()
