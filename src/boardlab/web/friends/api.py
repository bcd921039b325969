"""The shared-games API: HTTP under /api/friends and one WebSocket per game.

    POST /api/friends                    create (answers the two seat tokens once)
    GET  /api/friends/{id}               the game (with `Authorization: Bearer TOKEN`: as that seat)
    POST /api/friends/{id}/join          take one's seat (the invitation)
    POST /api/friends/{id}/setup         {action: place, setup} | {action: choose, colour}
    POST /api/friends/{id}/move          {move, ply}
    POST /api/friends/{id}/resign
    POST /api/friends/{id}/draw          {action: offer | accept | decline}
    POST /api/friends/{id}/rematch       the next game of the match, colours swapped
    GET  /api/friends/{id}/record        the game as record text
    WS   /api/friends/{id}/ws            {"type": "hello", "token": ...} first (no token: watch)

A seat's token travels in a header or a WebSocket message, never in a URL the server sees
(links carry it after '#'). A missing, forged or other seat's token is 403 and changes
nothing. Every change is committed before it is answered and then pushed to every socket
of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path as FilePath
from typing import Annotated, TypeVar

import anyio
import anyio.to_thread
from fastapi import (
    APIRouter,
    Depends,
    FastAPI,
    Header,
    Path,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection

from boardlab.core.errors import BoardLabError
from boardlab.web.connections import RefusalLog, address_key
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.db import default_database_url
from boardlab.web.friends.events import Bus, Event, PostgresBus, make_bus
from boardlab.web.friends.hub import Hub, Listener
from boardlab.web.friends.live import MoveWrite
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
from boardlab.web.friends.trouble import serving_trouble
from boardlab.web.schemas import ErrorOut
from boardlab.web.security import BadFrame, frame_text

log = logging.getLogger("boardlab.web.friends")
T = TypeVar("T")
STATIC = FilePath(__file__).resolve().parents[1] / "static"
GameId = Annotated[str, Path(min_length=10, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


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
        self.hub = Hub()
        # Threads for the store's calls: a move's thread mostly waits for the group commit,
        # so many may wait at once and their moves share one commit.
        self.limiter = anyio.CapacityLimiter(64)
        self._store: FriendStore | None = None
        self._lock = threading.Lock()
        self._ticker: asyncio.Task[None] | None = None
        self._buckets: dict[str, _Bucket] = {}
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
        state: fs.FriendStateOut | None = None,
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

    async def _push(self, game_id: str, state: fs.FriendStateOut | None = None) -> None:
        if not self.hub.count(game_id):
            return
        if state is None or state.id != game_id:
            state = await self.run(lambda st: st.state(game_id))
        self.hub.publish(game_id, state.model_dump(mode="json"))

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
        if any socket here watches it."""
        try:
            store = self.open()
            self._heard[event.game] = time.monotonic()
            kept = store.live.get(event.game) is not None
            live = store.catch_up(event.game, event.version, event.move)
            if self.on_event is not None:
                self.on_event("applied" if live else "read again" if kept else "not kept")
            if not self.hub.count(event.game):
                return
            await self._push(event.game, None if live is None else store.render(live))
        except Exception:  # one game's trouble must not stop the listener
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
            bucket = self._buckets[client] = _Bucket(
                self.limits.requests_per_s, self.limits.request_burst
            )
        if not bucket.take():
            raise RateLimitedError("too many requests: slow down and try again in a moment")

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


def _friends(request: Request) -> Friends:
    friends: Friends = request.app.state.friends
    return friends


async def _admit(conn: HTTPConnection) -> None:
    """Every HTTP call of the router counts against its client's rate (a socket has its own
    limits)."""
    friends: Friends = conn.app.state.friends
    friends.housekeeper.ensure_started(friends)  # expiry and pruning, every few minutes
    if conn.scope["type"] == "http":
        friends.admit(address_key(conn.client.host if conn.client else "unknown"))


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


Auth = Annotated[str | None, Header(max_length=200)]


def _documented(description: str) -> dict[str, object]:
    return {"model": ErrorOut, "description": description}


ERRORS: dict[int | str, dict[str, object]] = {
    400: _documented("an illegal move, a bad request or a game that does not allow it now"),
    403: _documented("a missing, forged or other seat's token"),
    404: _documented("no shared game has this id"),
    409: _documented("another move for this position was accepted first"),
    413: _documented("request body too large"),
    422: _documented("the request does not fit the schema"),
    429: _documented("too many requests or open games from this client, or in all"),
}
router = APIRouter(
    prefix="/api/friends", tags=["friends"], dependencies=[Depends(_admit)], responses=ERRORS
)


@router.post("")
async def create(req: fs.CreateRequest, request: Request) -> fs.CreatedOut:
    """A new shared game; the creator's seat token and the invitation's token, once."""
    friends = _friends(request)
    client = address_key(request.client.host if request.client else "unknown")  # IPv6: /64
    await friends.run(lambda st: (st.expire_idle(), expire_invitations(st)))
    return await friends.run(lambda st: st.create(req, client))


@router.get("/{game_id}")
async def get_state(
    game_id: GameId, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """The game; with a seat's token, also which colour that seat plays."""
    return await _friends(request).run(lambda st: st.state(game_id, _token(authorization)))


@router.post("/{game_id}/join")
async def join(game_id: GameId, request: Request, authorization: Auth = None) -> fs.FriendStateOut:
    """Take one's seat: the game starts once both players have."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.join(game_id, _token(authorization)))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/setup")
async def setup(
    game_id: GameId, body: fs.SetupRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """The setup stage (Dot Dash's pie): the placer places the setup text, then the other
    player chooses a colour, which seats both."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.setup(game_id, _token(authorization), body))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/move")
async def move(
    game_id: GameId, body: fs.MoveRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Play a move for one's seat in the position after `ply` plies."""
    friends = _friends(request)
    played = await friends.move(game_id, _token(authorization), body.move, body.ply)
    await friends.publish(game_id, played.state, played.write)
    return played.state


@router.post("/{game_id}/resign")
async def resign(
    game_id: GameId, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Resign one's seat."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.resign(game_id, _token(authorization)))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/draw")
async def draw(
    game_id: GameId, body: fs.DrawRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Offer a draw, accept the other side's offer, or decline it."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.draw(game_id, _token(authorization), body.action))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/rematch")
async def rematch(game_id: GameId, request: Request, authorization: Auth = None) -> fs.RematchOut:
    """The match's next game, colours swapped (the same tokens play it)."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.rematch(game_id, _token(authorization)))
    await friends.publish(game_id)
    return out


@router.get("/{game_id}/record")
async def record(game_id: GameId, request: Request) -> PlainTextResponse:
    """The game as record text."""
    text = await _friends(request).run(lambda st: st.record(game_id))
    return PlainTextResponse(text)


def retry_after(store: FriendStore, client: str) -> int:
    """Seconds until an open game of `client` (or, when the client has none, any open
    game) is due to expire: when a place under the caps frees up at the latest."""
    from sqlalchemy import func, select

    from boardlab.web.friends.models import Game

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


def _duration(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


class _Bucket:
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


def _same_origin(ws: WebSocket) -> bool:
    """A browser's socket must come from a page of this server (no other site's page may
    drive it); clients without an Origin header (the terminal) are not browsers."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


async def _error(ws: WebSocket, exc: BaseException) -> None:
    message = " ".join(str(exc).split()) or exc.__class__.__name__
    await ws.send_json(
        {
            "type": "error",
            "error": message,
            "kind": exc.__class__.__name__,
            "status": status_of(exc),
        }
    )


@router.websocket("/{game_id}/ws")
async def socket(ws: WebSocket, game_id: str) -> None:
    """Live updates of one game; a seat's holder may also act through it:
    {"type": "move", "move", "ply"}, {"type": "setup", "action", "setup" | "colour"},
    {"type": "resign"}, {"type": "draw", "action"},
    {"type": "rematch"}, {"type": "ping"}."""
    friends: Friends = ws.app.state.friends
    lim = friends.limits
    if not _same_origin(ws):
        await ws.close(code=1008, reason="other origin")
        return
    if friends.hub.count(game_id) >= lim.connections_per_game:
        await ws.close(code=1013, reason="too many connections to this game")
        return
    await ws.accept()
    try:
        hello = json.loads(await asyncio.wait_for(_receive(ws, lim.message_bytes), timeout=10))
        token = hello.get("token") if isinstance(hello, dict) else None
        token = token if isinstance(token, str) and 0 < len(token) <= 200 else None
        reading = time.monotonic()
        # a seat's hello takes the seat (opening the invitation is joining)
        state = await friends.run(
            lambda st: st.join(game_id, token) if token else st.state(game_id)
        )
    except BadFrame as exc:
        await _refuse(ws, exc)
        return
    except (TimeoutError, ValueError, WebSocketDisconnect) as exc:
        with contextlib.suppress(Exception):
            await ws.close(code=1008, reason=f"expected a hello: {exc.__class__.__name__}")
        return
    except FriendError as exc:
        await _error(ws, exc)
        await ws.close(code=1008, reason="refused")
        return
    listener = Listener(person=state.person)
    friends.hub.add(game_id, listener)
    friends.ensure_ticker()
    friends.ensure_listener()
    sender: asyncio.Task[None] | None = None
    bucket = _Bucket(lim.messages_per_s, lim.message_burst)
    try:  # from here on, the client may leave at any await
        await ws.send_json({"type": "state", "state": state.model_dump(mode="json")})
        if token:  # the other side learns that this seat is here
            await friends.publish(game_id, state)
        if friends.heard_since(game_id, reading):  # another process's change came meanwhile
            await friends._push(game_id)
        sender = asyncio.create_task(_send_loop(ws, listener))
        while True:
            text = await _receive(ws, lim.message_bytes)
            if not bucket.take():
                await ws.close(code=1008, reason="too many messages: slow down")
                break
            await _handle(ws, friends, game_id, token, text)
    except BadFrame as exc:
        await _refuse(ws, exc)
    except (WebSocketDisconnect, OSError, RuntimeError):
        pass  # the client went away (a send on a closed socket raises one of these)
    finally:
        friends.hub.remove(game_id, listener)
        if sender is not None:
            sender.cancel()


_frames_log = RefusalLog("WebSocket message")


async def _receive(ws: WebSocket, limit: int) -> str:
    """The next message's text, checked by type, size and depth (`BadFrame`)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return frame_text(message, limit)


async def _refuse(ws: WebSocket, exc: BadFrame) -> None:
    """Close the socket for a bad message: one close code, one log line per address a
    minute."""
    _frames_log.refused(address_key(ws.client.host if ws.client else "unknown"), exc.reason)
    with contextlib.suppress(Exception):
        await ws.close(code=exc.code, reason=exc.reason)


async def _send_loop(ws: WebSocket, listener: Listener) -> None:
    with contextlib.suppress(Exception):
        while True:
            await ws.send_json(await listener.queue.get())


async def _handle(
    ws: WebSocket, friends: Friends, game_id: str, token: str | None, text: str
) -> None:
    try:
        msg = json.loads(text)
        if not isinstance(msg, dict):
            raise ValueError("a message is a JSON object")
        kind = msg.get("type")
        if kind == "ping":
            await ws.send_json({"type": "pong", "t": msg.get("t")})
            return
        state: fs.FriendStateOut | None = None
        write: MoveWrite | None = None
        if kind == "move":
            body = fs.MoveRequest.model_validate({"move": msg.get("move"), "ply": msg.get("ply")})
            played = await friends.move(game_id, token, body.move, body.ply)
            state, write = played.state, played.write
        elif kind == "setup":
            req = fs.SetupRequest.model_validate({k: v for k, v in msg.items() if k != "type"})
            state = await friends.run(lambda st: st.setup(game_id, token, req))
        elif kind == "resign":
            state = await friends.run(lambda st: st.resign(game_id, token))
        elif kind == "draw":
            action = fs.DrawRequest.model_validate({"action": msg.get("action")}).action
            state = await friends.run(lambda st: st.draw(game_id, token, action))
        elif kind == "rematch":
            out = await friends.run(lambda st: st.rematch(game_id, token))
            await ws.send_json({"type": "rematch", "id": out.id})
        else:
            raise ValueError(f"unknown message type {str(kind)[:20]!r}")
    except SQLAlchemyError as exc:
        await ws.send_json(
            {
                "type": "error",
                "error": serving_trouble(exc),
                "kind": "DatabaseUnavailable",
                "status": 503,
            }
        )
        return
    except (BoardLabError, ValueError, ValidationError) as exc:
        if isinstance(exc, ValidationError):
            exc = ValueError("bad message: " + "; ".join(e["msg"] for e in exc.errors()[:2]))
        await _error(ws, exc)
        return
    await friends.publish(game_id, state, write)


def install(app: FastAPI, database: str | None = None, limits: FriendLimits | None = None) -> None:
    """Add the shared games to an app: routes, error statuses and `app.state.friends`
    (`app.state.friends.configure(database, limits)` changes the settings before first use;
    the database is opened on first use, and `boardlab serve` opens it at start)."""
    app.state.friends = Friends(database, limits)
    app.include_router(router)

    async def friend_error(request: Request, exc: Exception) -> JSONResponse:
        message = " ".join(str(exc).split()) or exc.__class__.__name__
        status = status_of(exc)
        headers = None
        if status == 429:
            wait = 2
            if isinstance(exc, TooManyGamesError):  # when the first place frees up
                friends: Friends = request.app.state.friends
                client = address_key(request.client.host if request.client else "unknown")
                wait = await friends.run(lambda st: retry_after(st, client))
                message = f"{message} (try again in {_duration(wait)})"
            headers = {"Retry-After": str(wait)}
        return JSONResponse(
            {"error": message, "kind": exc.__class__.__name__}, status_code=status, headers=headers
        )

    app.add_exception_handler(FriendError, friend_error)

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            {"error": serving_trouble(exc), "kind": "DatabaseUnavailable"},
            status_code=503,
            headers={"Retry-After": "30"},
        )

    app.add_exception_handler(SQLAlchemyError, database_error)

    @app.get("/friend", include_in_schema=False)
    def friend_page() -> FileResponse:
        """The Play a friend page (its links carry the game and seat after '#')."""
        return FileResponse(STATIC / "friend.html", headers={"Cache-Control": "no-cache"})
