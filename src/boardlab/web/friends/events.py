"""Events between server processes: "game G changed", so that every process with a socket on G
brings its copy up to date and pushes it to its sockets.

An event is a small JSON object, `{"game": id, "from": process}`; a move's event also carries
the game's new `version` and the move's columns (`"move"`, see `groupcommit.MoveWrite.note`), so a
process whose copy is at the version just before applies the move to it, without reading the
database. Any other change, or a copy that is not exactly one version behind, is read again
from the database, which stays the truth. Two carriers, both engines a host already runs:
PostgreSQL's LISTEN/NOTIFY (when the database is PostgreSQL) and Redis pub/sub (`--events
redis://...`). A malformed event is dropped with a log line; a lost connection is opened again
after a pause (a socket that missed an event still sees the next one, or the state when it
reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger("boardlab.web.friends")
CHANNEL = "boardlab_friends"
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{10,32}$")


@dataclass(frozen=True)
class Event:
    """One change announced by another process: the game, its version after the change
    (None: not said) and, for a move, the move's columns (checked where they are applied)."""

    game: str
    version: int | None = None
    move: dict[str, Any] | None = None


Handler = Callable[[Event], Awaitable[None]]


class Bus(Protocol):
    """Carries "game changed" events between processes."""

    origin: str

    async def send(self, game_id: str, version: int | None = None, move: Any = None) -> None:
        """Announce a change of `game_id` (a move: with the version it made and its note)."""

    async def run(self, handler: Handler) -> None: ...

    async def close(self) -> None: ...


def parse_event(raw: str | bytes, origin: str) -> Event | None:
    """The event of another process; None for one of this process's own. ValueError for a
    malformed one."""
    try:
        event = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ValueError("not JSON") from None
    if not isinstance(event, dict):
        raise ValueError("not a JSON object")
    game, sender = event.get("game"), event.get("from")
    if not isinstance(game, str) or not _GAME_ID.match(game) or not isinstance(sender, str):
        raise ValueError("needs a game id and a sender")
    version, move = event.get("version"), event.get("move")
    if version is not None and (type(version) is not int or version < 1):
        raise ValueError("a version is a positive integer")
    if move is not None and (not isinstance(move, dict) or version is None):
        raise ValueError("a move is an object, with the version it made")
    return None if sender == origin else Event(game, version, move)


def _event(game_id: str, origin: str, version: int | None = None, move: Any = None) -> str:
    event: dict[str, Any] = {"game": game_id, "from": origin}
    if version is not None:
        event["version"] = version
        if move is not None:
            event["move"] = move
    return json.dumps(event)


async def _deliver(raw: str | bytes, origin: str, handler: Handler) -> None:
    try:
        event = parse_event(raw, origin)
    except ValueError as exc:
        log.warning("shared games: dropped a malformed event (%s): %.100r", exc, raw)
        return
    if event is not None:
        await handler(event)


class PostgresBus:
    """LISTEN/NOTIFY on the shared-games database (psycopg 3, its own two connections)."""

    def __init__(self, url: str) -> None:
        # psycopg takes libpq's URL: the SQLAlchemy driver name goes
        self.url = re.sub(r"^postgresql\+psycopg://", "postgresql://", url)
        self.origin = secrets.token_hex(8)
        self._sender: Any = None
        self._lock = asyncio.Lock()

    async def send(self, game_id: str, version: int | None = None, move: Any = None) -> None:
        import psycopg

        text = _event(game_id, self.origin, version, move)
        async with self._lock:
            for attempt in (0, 1):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = await psycopg.AsyncConnection.connect(
                            self.url, autocommit=True, connect_timeout=5
                        )
                    await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))
                    return
                except psycopg.OperationalError:
                    self._sender = None
                    if attempt:
                        raise

    def announce(self, conn: Any, writes: list[Any]) -> None:
        """The moves' events, sent inside the transaction that stores them (`conn`, the
        group commit's): PostgreSQL delivers them when it commits, and only then."""
        texts = [_event(w.game_id, self.origin, w.version + 1, w.note()) for w in writes]
        conn.exec_driver_sql(
            "SELECT pg_notify(%s, e) FROM unnest(%s::text[]) AS e", (CHANNEL, texts)
        )

    async def run(self, handler: Handler) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=5
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        await _deliver(note.payload, self.origin, handler)
            except psycopg.OperationalError:
                log.warning("shared games: events connection lost; again in 1 s")
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender.close()


class RedisBus:
    """Redis pub/sub (redis-py's asyncio client)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self.client = aioredis.Redis.from_url(url)
        self.origin = secrets.token_hex(8)

    async def send(self, game_id: str, version: int | None = None, move: Any = None) -> None:
        await self.client.publish(CHANNEL, _event(game_id, self.origin, version, move))

    async def run(self, handler: Handler) -> None:
        import redis.exceptions

        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(CHANNEL)
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        await _deliver(message["data"], self.origin, handler)
            except (redis.exceptions.ConnectionError, OSError):
                log.warning("shared games: events connection lost; again in 1 s")
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()


def make_bus(events: str | None, database: str) -> Bus | None:
    """The bus for `--events` (a redis:// URL) or, without it, the database's own when it is
    PostgreSQL; None when neither (one process on SQLite needs none)."""
    if events:
        if not events.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"--events takes a redis:// URL, not {events[:40]!r}")
        return RedisBus(events)
    if database.startswith(("postgresql", "postgres://")):
        return PostgresBus(database)
    return None
