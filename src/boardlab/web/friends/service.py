"""The shared games of one app: the store (opened on first use), the hub of this process's
sockets, the events between processes, per-client rates and the clock watcher."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread
from sqlalchemy import func, select

from boardlab.web.friends import schemas as fs
from boardlab.web.friends.db import default_database_url
from boardlab.web.friends.events import Bus, Event, PostgresBus, make_bus
from boardlab.web.friends.groupcommit import MoveWrite
from boardlab.web.friends.hub import Hub
from boardlab.web.friends.models import Game
from boardlab.web.friends.retention import Housekeeper, expire_invitations
from boardlab.web.friends.store import (
    FriendError,
    FriendLimits,
    FriendStore,
    NoSuchGameError,
    Played,
    SeatError,
    StaleMoveError,
    TooManyGamesError,
)
from boardlab.web.friends.views import Public

log = logging.getLogger("boardlab.web.friends")
T = TypeVar("T")


class RateLimitedError(FriendError):
    """Too many requests from one client address (429)."""


STATUS: dict[type[FriendError], int] = {
    RateLimitedError: 429,
    NoSuchGameError: 404,
    SeatError: 403,
    StaleMoveError: 409,
    TooManyGamesError: 429,
}
TICK_S = 0.5  # how often running clocks of watched games are checked
EXPIRE_EVERY_S = 60.0
# how long a refusal at a bound on open games is answered from memory: long enough that a
# client retrying at once costs no database work, short enough that a place freed by a
# resignation (in this process or another) is found soon
REFUSAL_MEMORY_S = 1.0


def status_of(exc: BaseException) -> int:
    """The HTTP status of an error (400 for bad input)."""
    for cls, code in STATUS.items():
        if isinstance(exc, cls):
            return code
    return 400


class Friends:
    """The shared games of one app: the store (opened on first use, or by `open`), the
    hub of sockets, the limits and the clock watcher."""

    def __init__(self, database: str | None, limits: FriendLimits | None = None) -> None:
        self.database = database
        self.limits = limits or FriendLimits()
        self.migrate = True
        self.events: str | None = None  # --events: a redis:// URL
        self.shared = False  # True: other processes serve the same games (events between them)
        self.bus: Bus | None = None
        self.on_move: Callable[[int], None] | None = None  # told each group commit's size
        self.on_event: Callable[[str], None] | None = None  # told how each event was taken
        self._heard: dict[str, float] = {}  # game id -> when its last event came
        self._listener: asyncio.Task[None] | None = None
        self._reading: set[asyncio.Task[None]] = set()  # games read again for an event
        self.hub = Hub()
        # Threads for the store's calls: a move's thread mostly waits for the group commit,
        # so many may wait at once and their moves share one commit.
        self.limiter = anyio.CapacityLimiter(64)
        self._store: FriendStore | None = None
        self._lock = threading.Lock()
        self._ticker: asyncio.Task[None] | None = None
        self._buckets: dict[str, Bucket] = {}
        # client address key ("" for the server's bound) -> (until when, the refusal's
        # message, when a place is due to free up: time.time())
        self._refused: dict[str, tuple[float, str, float]] = {}
        self._last_expiry = 0.0
        self.housekeeper = Housekeeper()

    def configure(
        self, database: str | None = None, limits: FriendLimits | None = None, migrate: bool = True
    ) -> Friends:
        """Set the database URL (None: the default SQLite file) and the limits; before the
        store is first opened. `migrate=False`: the schema is brought up to date elsewhere
        (by `boardlab serve`, once, before its worker processes start)."""
        with self._lock:
            if self._store is not None:
                raise RuntimeError("the shared games' database is already open")
            self.database = database
            self.limits = limits or FriendLimits()
            self.migrate = migrate
            return self

    def open(self) -> FriendStore:
        """The store, opened (and migrated) on first call."""
        store = self._store
        if store is not None:  # every move asks: no lock once it is open
            return store
        with self._lock:
            if self._store is None:
                url = self.database or default_database_url()
                self._store = FriendStore(url, self.limits, migrate=self.migrate)
                self._store.on_move = self.on_move
                if isinstance(self.bus, PostgresBus):
                    self._store.committer.announce = self.bus.announce
            return self._store

    def close(self) -> None:
        """Close the store's connections."""
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    async def run(self, fn: Callable[[FriendStore], T]) -> T:
        """`fn(store)` in a worker thread (the store is synchronous)."""
        return await anyio.to_thread.run_sync(lambda: fn(self.open()), limiter=self.limiter)

    async def move(self, game_id: str, token: str | None, move: str, ply: int) -> Played:
        """A move: in the event loop when its game is in memory (no thread waits for the
        commit), else in a worker thread."""
        out = await self.open().move_async(game_id, token, move, ply)
        if out is None:
            out = await self.run(lambda st: st.play(game_id, token, move, ply))
        return out

    async def publish(
        self,
        game_id: str,
        state: fs.FriendStateOut | Public | None = None,
        write: MoveWrite | None = None,
    ) -> None:
        """Push the game's public state (the one just committed, or read again) to its
        sockets, and tell the other processes (when there are any) that it changed (with
        the move's `write`, when it was a move, so that they apply it to their copies)."""
        if self.shared:
            bus = self._bus()
            if bus is not None:
                try:
                    if write is None:
                        await bus.send(game_id)
                    elif not write.announced:  # else it went out with its commit
                        await bus.send(game_id, write.version + 1, write.note())
                except Exception:  # the sockets of this process still get it
                    log.warning("shared games: could not send an event", exc_info=True)
        await self._push(game_id, state)

    async def _push(self, game_id: str, state: fs.FriendStateOut | Public | None = None) -> None:
        if not self.hub.count(game_id):
            return
        if state is None or (state["id"] if isinstance(state, dict) else state.id) != game_id:
            state = await self.run(lambda st: st.state(game_id))
        self.hub.publish(game_id, state)

    def _bus(self) -> Bus | None:
        if self.bus is None and self.shared:
            store = self.open()
            self.bus = make_bus(self.events, store.url)
            if isinstance(self.bus, PostgresBus):  # moves' events go out with their commit
                store.committer.announce = self.bus.announce
        return self.bus

    async def _on_event(self, event: Event) -> None:
        """Another process changed a game: a move is applied to this process's copy (when
        it is one version behind) and pushed from there; otherwise the game is read again,
        if any socket here watches it, by a task of its own (the events behind this one
        wait for no read of the database)."""
        try:
            store = self.open()
            self._heard[event.game] = time.monotonic()
            kept = store.live.get(event.game) is not None
            live = store.catch_up(event.game, event.version, event.move)
            if self.on_event is not None:
                self.on_event("applied" if live else "read again" if kept else "not kept")
            if not self.hub.count(event.game):
                return
            state = None if live is None else store.render(live)
            if state is not None:
                self.hub.publish(event.game, state)
                return
            task = asyncio.get_running_loop().create_task(self._read_and_push(event.game))
            self._reading.add(task)
            task.add_done_callback(self._reading.discard)
        except Exception:  # one game's trouble must not stop the listener
            log.warning("shared games: could not push an event's game", exc_info=True)

    async def _read_and_push(self, game_id: str) -> None:
        try:
            await self._push(game_id)
        except Exception:
            log.warning("shared games: could not push an event's game", exc_info=True)

    def heard_since(self, game_id: str, since: float) -> bool:
        """Whether an event of another process about `game_id` came at or after `since`
        (time.monotonic)."""
        heard = self._heard.get(game_id)
        if len(self._heard) > 10_000:  # forget what no socket can still be waiting on
            cutoff = time.monotonic() - 60.0
            self._heard = {k: t for k, t in self._heard.items() if t > cutoff}
        return heard is not None and heard >= since

    def ensure_listener(self) -> None:
        """Listen to the other processes' events (while this process serves sockets)."""
        bus = self._bus()
        if bus is not None and (self._listener is None or self._listener.done()):
            self._listener = asyncio.get_running_loop().create_task(bus.run(self._on_event))

    def admit(self, client: str) -> None:
        """Count one HTTP request of `client`; RateLimitedError beyond its rate."""
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > 10_000:  # forget the quiet ones rather than grow
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full()}
            bucket = self._buckets[client] = Bucket(
                self.limits.requests_per_s, self.limits.request_burst
            )
        if not bucket.take():
            raise RateLimitedError("too many requests: slow down and try again in a moment")

    async def create(self, req: fs.CreateRequest, client: str) -> fs.CreatedOut:
        """A new game for `client` (an address key), or TooManyGamesError with when to retry.

        A client refused at a bound is remembered for `REFUSAL_MEMORY_S` and refused again
        without asking the database, so addresses squatting their quota cost the server next
        to nothing; every game made is still counted against the bounds in the transaction
        that writes it. At a bound, games due to expire are expired first and the creation
        tried once more."""
        now = time.monotonic()
        for scope in (client, ""):
            known = self._refused.get(scope)
            if known is not None and known[0] > now:
                wait = max(1, round(known[2] - time.time()))
                raise TooManyGamesError(known[1], scope=scope, retry_after_s=wait)
        store = self.open()
        try:
            return await store.create_async(req, client)
        except TooManyGamesError as exc:
            refused = exc
        if await self.run(lambda st: st.expire_idle() + expire_invitations(st)):
            try:
                return await store.create_async(req, client)
            except TooManyGamesError as exc:
                refused = exc
        raise await self._remembered(refused, client)

    async def _remembered(self, exc: TooManyGamesError, client: str) -> TooManyGamesError:
        """`exc`, with when to retry, remembered for `REFUSAL_MEMORY_S`."""
        wait = await self.run(lambda st: retry_after(st, client))
        if len(self._refused) > 10_000:  # forget the lapsed ones rather than grow
            now = time.monotonic()
            self._refused = {k: v for k, v in self._refused.items() if v[0] > now}
        until = time.monotonic() + REFUSAL_MEMORY_S
        self._refused[exc.scope] = (until, str(exc), time.time() + wait)
        exc.retry_after_s = wait
        return exc

    def ensure_ticker(self) -> None:
        """Start the clock watcher (while sockets are open) if it is not running."""
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def _flag(self, game_id: str) -> bool:
        return await self.run(lambda st: st.flag_if_due(game_id))

    async def _tick(self) -> None:
        while self.hub.game_ids():
            await asyncio.sleep(TICK_S)
            try:
                store = self.open()
                for game_id in self.hub.game_ids():
                    if store.maybe_due(game_id) and await self._flag(game_id):
                        await self.publish(game_id)
                if time.monotonic() - self._last_expiry > EXPIRE_EVERY_S:
                    self._last_expiry = time.monotonic()
                    for game_id in await self.run(lambda st: st.expire_idle()):
                        await self.publish(game_id)
            except Exception:  # a database hiccup must not stop the watcher for good
                log.warning("shared games: clock watcher", exc_info=True)
                continue


def retry_after(store: FriendStore, client: str) -> int:
    """Seconds until an open game of `client` (or, when the client has none, any open
    game) is due to expire: when a place under the caps frees up at the latest."""
    lim, now = store.limits, store.now()
    with store._read() as db:
        for mine in (True, False):
            q = select(func.min(Game.created_at)).where(Game.status == "waiting")
            r = select(func.min(Game.updated_at)).where(Game.status == "playing")
            if mine:
                q, r = q.where(Game.creator_addr == client), r.where(Game.creator_addr == client)
            due = [
                t + span
                for t, span in (
                    (db.scalar(q), lim.invite_expiry_s),
                    (db.scalar(r), lim.idle_expiry_s),
                )
                if t is not None
            ]
            if due:
                return max(1, min(int(min(due) - now) + 1, int(lim.idle_expiry_s)))
    return 60


class Bucket:
    """A token bucket: `rate` messages a second, bursts of `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.level, self.at = float(burst), time.monotonic()

    def full(self) -> bool:
        """True once the bucket has refilled (the client has been quiet)."""
        return self.level + (time.monotonic() - self.at) * self.rate >= self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
