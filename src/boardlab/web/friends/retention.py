"""Housekeeping of the shared games: unopened invitations expire after hours, finished and
expired matches are deleted after the retention period, and the database is then compacted.

An invitation nobody opened (`status` "waiting") expires `invite_expiry_s` after it was made,
so open games cannot be squatted for long. A match is deleted once every game in it is over or
expired and none has changed for `retain_s`: whole matches go, so a score never loses games.
Deletion runs in small batches, each its own transaction, so moves keep flowing meanwhile. On
SQLite the file is then compacted with VACUUM (at most every `VACUUM_EVERY_S`); other
databases compact themselves (their own autovacuum), and are only told to ANALYZE.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from sqlalchemy import Table, delete, or_, select, update

from boardlab.web.friends.models import Game, Match, MoveRow, Result, Seat
from boardlab.web.friends.store import OPEN, FriendStore

T = TypeVar("T")

log = logging.getLogger("boardlab.web.friends")
GAMES: Table = Game.__table__  # type: ignore[assignment]  # core statements: no version check

BATCH = 200  # matches deleted per transaction
VACUUM_EVERY_S = 6 * 3600.0
PERIOD_S = 600.0  # how often the server's housekeeping runs


class Carrier(Protocol):
    """What the job needs of the shared-games service (`web.friends.api.Friends`): run work
    on the store, and tell a game's sockets its state changed."""

    async def run(self, fn: Callable[[FriendStore], T]) -> T: ...

    async def publish(self, game_id: str) -> None: ...


def expire_invitations(store: FriendStore) -> list[str]:
    """Mark games whose invitation was not opened within `invite_expiry_s` as expired;
    their ids."""
    cutoff = store.now() - store.limits.invite_expiry_s
    due = select(Game.id).where(Game.status == "waiting", Game.created_at < cutoff)
    with store._read() as db:  # most calls find none: no write lock taken for them
        if db.scalar(due.limit(1)) is None:
            return []
    with store._tx() as db:
        ids = list(db.scalars(due))
        if ids:
            db.execute(
                update(GAMES)
                .where(GAMES.c.id.in_(ids), GAMES.c.status == "waiting")
                .values(status="expired", turn_started_at=None, updated_at=store.now())
            )
        return ids


def prune(store: FriendStore, batch: int = BATCH) -> int:
    """Delete the matches whose games are all over or expired and untouched for
    `retain_s`; how many games were deleted."""
    cutoff = store.now() - store.limits.retain_s
    deleted = 0
    while True:
        with store._tx() as db:
            live = select(Game.match_id).where(
                or_(Game.status.in_(OPEN), Game.updated_at >= cutoff)
            )
            matches = list(db.scalars(select(Match.id).where(Match.id.not_in(live)).limit(batch)))
            if not matches:
                return deleted
            games = list(db.scalars(select(Game.id).where(Game.match_id.in_(matches))))
            for table in (MoveRow, Seat, Result):
                db.execute(delete(table).where(table.game_id.in_(games)))
            db.execute(delete(GAMES).where(GAMES.c.id.in_(games)))
            db.execute(delete(Match).where(Match.id.in_(matches)))
            deleted += len(games)


def compact(store: FriendStore) -> bool:
    """Give the space of deleted rows back: VACUUM on SQLite (under the store's write lock),
    ANALYZE elsewhere; True if the file was compacted."""
    sqlite = store.engine.url.get_backend_name() == "sqlite"
    with store._write_lock:
        raw = store.engine.raw_connection()
        try:
            cursor = raw.cursor()
            # SQLite runs VACUUM only outside a transaction: this connection autocommits
            cursor.execute("VACUUM" if sqlite else "ANALYZE")
            cursor.close()
            if not sqlite:
                raw.commit()
        finally:
            raw.close()
    return sqlite


@dataclass
class Housekeeper:
    """The periodic job: expiry, pruning and compaction (one per server process)."""

    period_s: float = PERIOD_S
    last_vacuum: float = field(default=0.0)
    _task: asyncio.Task[None] | None = None

    def run_once(self, store: FriendStore) -> tuple[list[str], int]:
        """One round (in a worker thread): ids of games that expired, games deleted."""
        expired = store.expire_idle() + expire_invitations(store)
        deleted = prune(store)
        now = time.monotonic()
        if deleted and now - self.last_vacuum >= VACUUM_EVERY_S:
            self.last_vacuum = now
            compact(store)
        if deleted:
            log.info("shared games: %d finished or expired games deleted", deleted)
        return expired, deleted

    def ensure_started(self, friends: Carrier) -> None:
        """Start the periodic job on the running loop unless it runs already."""
        loop = asyncio.get_running_loop()
        task = self._task
        if task is None or task.done() or task.get_loop() is not loop:
            self._task = loop.create_task(self._loop(friends))

    async def _loop(self, friends: Carrier) -> None:
        while True:
            try:
                expired, _ = await friends.run(self.run_once)
                for game_id in expired:
                    await friends.publish(game_id)
            except Exception as exc:  # a database hiccup must not stop the job for good
                log.warning("shared games: housekeeping failed (%s); retrying later", exc)
            await asyncio.sleep(self.period_s)
