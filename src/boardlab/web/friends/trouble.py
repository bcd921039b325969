"""Database trouble in one line: what went wrong with the shared games' database and what to
do about it, at start (`database_trouble`) and while serving (`serving_trouble`)."""

from __future__ import annotations

import os
import sqlite3
import struct
from pathlib import Path

from alembic.util.exc import CommandError
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

SQLITE_MAGIC = b"SQLite format 3\x00"


def _text(exc: BaseException) -> str:
    """The driver's message of `exc` and of the errors it was raised while handling (undoing
    a savepoint after SQLite rolled back a full disk's transaction fails with "no such
    savepoint", which says nothing of the disk)."""
    parts: list[str] = []
    seen: BaseException | None = exc
    while seen is not None and len(parts) < 5:
        orig = getattr(seen, "orig", None)
        parts.append(" ".join(str(orig if orig is not None else seen).split()).lower())
        seen = seen.__context__
    return " ".join(parts)


def sqlite_file_state(path: Path) -> str | None:
    """'truncated' when the file is shorter than its header says, 'not sqlite' when it does
    not start as an SQLite file, None when it looks whole (or cannot be read)."""
    try:
        with path.open("rb") as f:
            head = f.read(100)
        size = path.stat().st_size
    except OSError:
        return None
    if not head:
        return None  # empty: SQLite makes a new database in it
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return "truncated" if SQLITE_MAGIC.startswith(head[:16]) else "not sqlite"
    (page,) = struct.unpack(">H", head[16:18])
    page_size = 65536 if page == 1 else page
    (pages,) = struct.unpack(">I", head[28:32])
    return "truncated" if pages and size < pages * page_size else None


def database_trouble(exc: BaseException, path: Path | None = None) -> str | None:
    """One line for an error met while opening (and migrating) the database, naming what is
    wrong and what to do; None when it is not a database problem this knows."""
    name = path.name if path is not None else "the shared-games database"
    if isinstance(exc, CommandError) and "can't locate revision" in _text(exc):
        return (
            f"{name} was written by a newer version of BoardLab (its schema revision is "
            "unknown here): upgrade BoardLab, or start with another --database"
        )
    if not isinstance(exc, (SQLAlchemyError, sqlite3.Error, OSError)):
        return None
    text = _text(exc)
    state = sqlite_file_state(path) if path is not None else None
    if state == "truncated":
        return (
            f"{name} is truncated (shorter than its header says): restore it from a backup, "
            "or move it away to start with an empty one"
        )
    if state == "not sqlite" or "file is not a database" in text:
        return (
            f"{name} is not an SQLite database (overwritten or damaged): restore it from a "
            "backup, or move it away to start with an empty one"
        )
    if "malformed" in text or "corrupt" in text:
        return (
            f"{name} is damaged (corrupt): restore it from a backup, or move it away to start "
            "with an empty one"
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return (
            f"{name} cannot be written (read-only file or folder): give the server write "
            "access to the file and its folder, or start with another --database"
        )
    if "disk is full" in text or "no space" in text:
        return f"the disk holding {name} is full: free some space and start again"
    if "locked" in text:
        return f"{name} is locked by another program: stop it, or start with another --database"
    if path is not None and not quick_check(path):
        return (
            f"{name} is damaged (its integrity check fails): restore it from a backup, or move "
            "it away to start with an empty one"
        )
    if isinstance(exc, DBAPIError):
        return f"cannot open {name}: {text[:200]}"
    return None


def quick_check(path: Path) -> bool:
    """True when SQLite's quick integrity check passes on the file (read-only; run only
    after opening it failed, as it reads the whole file)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error:
        return False
    return rows == [("ok",)]


def serving_trouble(exc: BaseException) -> str:
    """One line for a database error while serving (answered 503 with Retry-After; the
    transaction was rolled back, so nothing was half-written)."""
    text = _text(exc)
    if "disk is full" in text or "no space" in text:
        return "the server's disk is full: nothing was changed; try again later"
    if "locked" in text or "busy" in text:
        return "the database is busy: nothing was changed; try again in a moment"
    if "readonly" in text or "read-only" in text:
        return "the database has become read-only: nothing was changed; try again later"
    return "the database is unavailable: nothing was changed; try again later"


def database_path(url: str) -> Path | None:
    """The file of an SQLite URL (None for other databases or memory)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(os.path.expanduser(parsed.database))
