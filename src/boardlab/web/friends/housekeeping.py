"""Shared games' housekeeping, for the server's watchers: a running clock that is out ends
its game on time, untouched games expire, and open games are counted."""

from __future__ import annotations

from sqlalchemy import func, select

from boardlab.web.friends import clock
from boardlab.web.friends.models import Game
from boardlab.web.friends.moves import StoreMoves
from boardlab.web.friends.storecore import OPEN, NoSuchGameError, _changes


class StoreHousekeeping(StoreMoves):
    """The store's part that its watchers call (see `boardlab.web.friends.store`)."""

    def maybe_due(self, game_id: str) -> bool:
        """False when the game in memory certainly needs no flag now (no clock, not playing,
        time left, or a move of it under way); True when `flag_if_due` should look. Never
        waits (the clock watcher asks it of every watched game, in the event loop)."""
        live = self.live.get(game_id)
        if live is None:
            return not self.live.is_over(game_id)
        if not live.lock.acquire(blocking=False):
            return False  # a change is being written: the next tick looks again
        try:
            game = live.view
            if game.clock_ms is None or game.status != "playing":
                return False
            mover = live.session.to_move
            left = clock.left(game, self.now(), mover)
            return left is None or left[mover] <= 0
        finally:
            live.lock.release()

    def flag_if_due(self, game_id: str) -> bool:
        """End the game on time if its running clock is out; True if this call ended it.
        A game in memory answers from there when its clock is not out (most games have no
        clock): the watcher asks this of every watched game twice a second."""
        live = self.live.get(game_id)
        if live is not None:
            with live.lock:
                game = live.view
                if game.clock_ms is None or game.status != "playing":
                    return False
                mover = live.session.to_move
                left = clock.left(game, self.now(), mover)
                if left is not None and left[mover] > 0:
                    return False
        elif self.live.is_over(game_id):
            return False
        try:
            with self._read() as db:
                row = db.execute(
                    select(Game.clock_ms, Game.status).where(Game.id == game_id)
                ).one_or_none()
                if row is None or row.clock_ms is None or row.status != "playing":
                    return False
            return self._flag(game_id)
        except NoSuchGameError:
            return False

    @_changes
    def _flag(self, game_id: str) -> bool:
        with self._tx() as db:
            game = self._load(db, game_id)
            if game.clock_ms is None or game.status != "playing":
                return False
            clock.settle(game, self.now(), lambda: self._to_move(game))
            return bool(game.status == "over")

    def running_clocks(self) -> list[str]:
        """Ids of the games whose clock is running (for the server's flag watcher)."""
        with self._tx() as db:
            rows = db.execute(
                select(Game.id).where(Game.status == "playing", Game.clock_ms.is_not(None))
            )
            return [row[0] for row in rows]

    def expire_idle(self) -> list[str]:
        """Mark unfinished games untouched for `idle_expiry_s` as expired; their ids."""
        cutoff = self.now() - self.limits.idle_expiry_s
        idle = (Game.status.in_(OPEN), Game.updated_at < cutoff)
        with self._read() as db:  # most calls find none: no write lock taken for them
            if db.scalar(select(Game.id).where(*idle).limit(1)) is None:
                return []
        with self._tx() as db:
            stale = db.execute(select(Game).where(*idle)).scalars()
            ids = []
            for game in stale:
                game.status = "expired"
                game.turn_started_at = None
                ids.append(game.id)
        for game_id in ids:
            self.live.retire(game_id)
        return ids

    def open_games(self, client: str | None = None) -> int:
        """How many games are open (waiting or playing), in all or created from `client`."""
        with self._tx() as db:
            q = select(func.count()).select_from(Game).where(Game.status.in_(OPEN))
            if client is not None:
                q = q.where(Game.creator_addr == client)
            return int(db.scalar(q) or 0)
