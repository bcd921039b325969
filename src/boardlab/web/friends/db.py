"""The shared-games database: the engine for a URL, and its migration to the newest schema.

SQLite (the default, a file under the user data folder) is opened in WAL mode with full
syncs, and every transaction starts `BEGIN IMMEDIATE`, so writers queue for the lock instead
of failing half-way; a committed move survives the process being killed. PostgreSQL
(`postgresql://user@host/db`, through psycopg 3: `pip install 'boardlab[postgresql]'`) is the
database for hosting, with several server processes. Both run the same Alembic migrations; a
migration holds a lock (SQLite's write lock, PostgreSQL's advisory lock), so of two servers
started at once one migrates and the other waits, then finds the schema current.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from boardlab.core.errors import UsageError

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger("boardlab.web.friends")


def default_database_url() -> str:
    """$BOARDLAB_DATABASE if set, else sqlite:///<user data folder>/boardlab/friends.sqlite3
    (the folder is made)."""
    import os

    import platformdirs

    if os.environ.get("BOARDLAB_DATABASE"):
        return os.environ["BOARDLAB_DATABASE"]
    folder = Path(platformdirs.user_data_dir("boardlab"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'friends.sqlite3'}"


def sqlite_url(path: Path | str) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{Path(path)}"


# PostgreSQL's advisory lock key of the migrations (any fixed 64-bit number: "BoardLab")
MIGRATION_LOCK = 0x426F6172644C6162


def normalise_url(url: str) -> str:
    """`url` with PostgreSQL's plain schemes (`postgresql://`, `postgres://`) naming psycopg 3,
    the driver BoardLab uses; other URLs unchanged."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


# how long an SQLite connection waits for another's lock before it answers "database is locked"
SQLITE_WAIT_S = 30.0


def is_sqlite(url: str) -> bool:
    """True for an SQLite URL."""
    return url.startswith("sqlite")


def make_engine(
    url: str, immediate: bool = True, full_sync: bool = True, autocheckpoint: bool = True
) -> Engine:
    """An engine for `url`; a URL SQLAlchemy cannot read (or whose driver is missing) is a
    UsageError with one line. With SQLite, `immediate` transactions take the write lock at
    their start (for writers); without it they start deferred (for readers). `full_sync`
    (the default) syncs the log to disk at every commit, so an acknowledged change survives
    even a power cut; without it (synchronous=NORMAL) it survives a killed process, not
    necessarily a power cut, and commits are much cheaper. Without `autocheckpoint`, an
    SQLite commit never copies the log back into the database file (SQLite's default does it
    inside the commit that fills 1000 pages of log, which then waits for it): the caller
    runs `checkpoint` itself, off the commits' path."""
    url = normalise_url(url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UsageError(f"not a database URL: {url!r} (e.g. sqlite:///games.sqlite3)") from None
    sqlite = parsed.get_backend_name() == "sqlite"
    kwargs: dict[str, Any] = {}
    if sqlite:
        if parsed.database and parsed.database != ":memory:":
            folder = Path(parsed.database).expanduser().resolve().parent
            if not folder.is_dir():
                raise UsageError(f"database folder {folder.name!r} does not exist")
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_WAIT_S}
    elif parsed.get_backend_name() == "postgresql":
        # a dropped connection (a restarted database) is noticed before use, not mid-request;
        # a connection waits at most 5 s for the server, so an unreachable one answers 503 soon
        kwargs.update(pool_pre_ping=True, pool_size=10, max_overflow=20, pool_timeout=10)
        kwargs["connect_args"] = {"connect_timeout": 5}
    try:
        engine = create_engine(url, **kwargs)
    except ModuleNotFoundError as exc:
        if parsed.get_backend_name() == "postgresql":
            raise UsageError(
                "PostgreSQL needs the psycopg driver: pip install 'boardlab[postgresql]'"
            ) from None
        raise UsageError(f"cannot open database {parsed.render_as_string()}: {exc}") from None
    except (NoSuchModuleError, ImportError) as exc:
        raise UsageError(f"cannot open database {parsed.render_as_string()}: {exc}") from None
    if sqlite:
        _sqlite_setup(engine, immediate, full_sync, autocheckpoint)
    return engine


def param_mark(dialect: Any) -> str:
    """The placeholder of a parameter in the driver's own SQL: `?` (sqlite3), else `%s`
    (psycopg)."""
    return "?" if dialect.paramstyle == "qmark" else "%s"


def checkpoint(engine: Engine) -> tuple[int, int]:
    """Copy what SQLite's log holds back into the database file, as far as no reader still
    needs it (a passive checkpoint: writers and readers go on meanwhile); the pages in the
    log, and how many of them are in the database file now."""
    conn = engine.raw_connection()
    try:
        cursor = conn.cursor()
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        row: Any = cursor.fetchone()
        _, logged, copied = row
        cursor.close()
    finally:
        conn.close()
    return int(logged), int(copied)


class Checkpointer:
    """A thread that checkpoints an SQLite database every `every_s` seconds (see
    `checkpoint`), for engines made without `autocheckpoint`; `close` stops it after a last
    checkpoint. A failed checkpoint is logged and tried again next time."""

    def __init__(self, engine: Engine, every_s: float = 1.0) -> None:
        self.engine = engine
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self._once()
        self._once()

    def _once(self) -> None:
        try:
            checkpoint(self.engine)
        except Exception:  # a busy or vanished file: the next round tries again
            log.warning("shared games: checkpoint failed", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(30)


def _sqlite_setup(engine: Engine, immediate: bool, full_sync: bool, autocheckpoint: bool) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" below starts them
        cursor = dbapi_connection.cursor()
        _switch_to_wal(cursor)
        cursor.execute(f"PRAGMA synchronous={'FULL' if full_sync else 'NORMAL'}")
        cursor.execute("PRAGMA foreign_keys=ON")
        if not autocheckpoint:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _switch_to_wal(cursor: Any, wait_s: float = SQLITE_WAIT_S) -> None:
    """Put the database in WAL mode (a no-op once it is). Two connections switching a new
    file at once can each hold the read lock the other's switch must wait for; SQLite then
    answers "database is locked" at once instead of waiting, so the switch is tried again
    until `wait_s` has passed."""
    deadline = time.monotonic() + wait_s
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def alembic_config() -> Config:
    """Alembic's configuration for the migrations shipped in the package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    """The newest schema revision."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The schema revision of the database (None: empty)."""
    with engine.connect() as conn:
        rev: str | None = MigrationContext.configure(conn).get_current_revision()
        return rev


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (default the newest), from empty or any older one.
    Under a lock: a second server migrating at the same moment waits, then finds nothing to
    do (SQLite: the transaction's write lock; PostgreSQL: an advisory lock for the
    transaction)."""
    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
