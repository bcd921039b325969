"""The shared-games store's foundation: its errors and limits, the database's sessions
(one writer at a time on SQLite, snapshot reads), reading a game and rendering it for a
seat, and the games kept in memory. `moves.StoreMoves` adds playing, `store.FriendStore`
the rest."""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, joinedload, selectinload, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from boardlab.core.errors import BoardLabError
from boardlab.core.records import GameRecord
from boardlab.core.registry import AnyRules, make_rules
from boardlab.core.session import GameSession
from boardlab.web.friends import db as dbmod
from boardlab.web.friends import schemas as fs
from boardlab.web.friends import views
from boardlab.web.friends.batch import Batcher
from boardlab.web.friends.groupcommit import GroupCommitter, MoveWrite
from boardlab.web.friends.live import GameView, LiveGame, LiveGames, SeatView
from boardlab.web.friends.models import Game, Result, Seat

T = TypeVar("T")
log = logging.getLogger("boardlab.web.friends")


@dataclass
class _Prepared:
    """A move checked and played in memory, its rows not yet written."""

    write: MoveWrite
    seat: SeatView


@dataclass
class Played:
    """A stored move: the state every viewer sees (what the sockets are sent), the mover's
    seat and the write that stored it (None when it went the slow way, in a transaction of
    its own). `state`, the mover's model of it, is made when first asked for (the sockets
    never ask)."""

    shared: views.Public
    seat: SeatView | None
    write: MoveWrite | None

    @classmethod
    def of(cls, state: fs.FriendStateOut, write: MoveWrite | None = None) -> Played:
        """A move whose state was rendered as the model already."""
        played = cls(state.model_dump(mode="json", exclude=set(views.SEAT_FIELDS)), None, write)
        played.__dict__["state"] = state
        return played

    @functools.cached_property
    def state(self) -> fs.FriendStateOut:
        return views.for_seat(self.shared, self.seat)


_RELOAD = object()  # the game in memory is stale: read it again
_SLOW = object()  # the move needs the full transaction (a clock ran out)

OPEN = ("waiting", "playing")


class FriendError(BoardLabError):
    """Base of the shared-games errors (each maps to one HTTP status)."""


class NoSuchGameError(FriendError):
    """No shared game has this id (404)."""


class SeatError(FriendError):
    """A missing, forged or other seat's token (403)."""


class StaleMoveError(FriendError):
    """The move was made for a position that is no longer the game's (409)."""


class TooManyGamesError(FriendError):
    """A bound on open games was reached (429): `scope` is the client address whose own
    bound it was, or "" for the server's; `retry_after_s` when a place is due to free up
    (filled in by the web layer)."""

    def __init__(self, message: str, scope: str = "", retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.scope = scope
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class FriendLimits:
    """Bounds and settings of the shared games: open games per client address and in all,
    idle expiry, invitation expiry, retention of finished games, the WebSocket's message
    size and rate (per connection), how long a new socket may wait before its hello, the
    HTTP request rate per client address, and whether SQLite syncs every commit to disk
    (`full_sync`, see `db.make_engine`)."""

    open_per_client: int = 20
    open_total: int = 2000
    idle_expiry_s: float = 7 * 24 * 3600.0
    invite_expiry_s: float = 6 * 3600.0  # a game whose invitation nobody opened (retention)
    retain_s: float = 30 * 24 * 3600.0  # finished and expired games are then deleted
    message_bytes: int = 4096
    messages_per_s: float = 10.0
    message_burst: int = 30
    connections_per_game: int = 64
    hello_s: float = 10.0  # a new socket silent this long without its hello is closed
    requests_per_s: float = 20.0  # HTTP calls of /api/friends per client address
    request_burst: int = 60
    full_sync: bool = True


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _new_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


def _new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


@dataclass
class _Replay:
    rules: AnyRules
    session: GameSession[Any, Any]


def _changes(method: Callable[..., T]) -> Callable[..., T]:
    """A change other than a move, in a write transaction of its own: the game's copy in
    memory is dropped after, and a change that lost a race with another (the version moved on
    under it) is tried again from the start."""

    @functools.wraps(method)
    def changing(self: StoreCore, game_id: str, *args: Any, **kwargs: Any) -> T:
        for _ in range(3):
            self._made.live = None
            self._made.others = []
            try:
                out = method(self, game_id, *args, **kwargs)
            except StaleDataError:
                continue
            except BaseException:
                self.live.drop(game_id)
                raise
            # committed: the game as `_out` rendered it is the database's now
            made: LiveGame | None = self._made.live
            if made is not None and made.view.id == game_id:
                self.live.put(made)
            else:
                self.live.drop(game_id)
            for other in self._made.others:  # other games the change made (a rematch's)
                self.live.put(other)
            return out
        self.live.drop(game_id)
        raise StaleMoveError("the game changed meanwhile: try again")

    return changing


class StoreCore:
    """The database, its sessions and the games in memory; reading and rendering."""

    def __init__(
        self,
        url: str,
        limits: FriendLimits | None = None,
        now: Callable[[], float] = time.time,
        migrate: bool = True,
    ) -> None:
        self.url = url
        self.limits = limits or FriendLimits()
        self.now = now
        # SQLite's log is checkpointed by a thread of its own, not inside the commit that
        # fills it (the moves of that commit would wait for the database file's sync)
        self.engine: Engine = dbmod.make_engine(
            url, full_sync=self.limits.full_sync, autocheckpoint=False
        )
        if migrate:
            dbmod.upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self._checkpointer = dbmod.Checkpointer(self.engine) if self.sqlite else None
        self._write_lock = threading.Lock()
        # reads take no write lock (SQLite in WAL mode lets them run beside the writer)
        self.read_engine: Engine = (
            dbmod.make_engine(url, immediate=False, full_sync=self.limits.full_sync)
            if self.sqlite
            else self.engine
        )
        # a read sees one snapshot (PostgreSQL's default gives each statement its own: the
        # game's row and its moves, read by two statements, could disagree)
        reads = (
            self.read_engine
            if self.sqlite
            else self.read_engine.execution_options(isolation_level="REPEATABLE READ")
        )
        self._reads = sessionmaker(reads, expire_on_commit=False)
        self.live = LiveGames()
        self._made = threading.local()  # the game `_out` last rendered in this thread
        self.committer = GroupCommitter(
            self.engine, self._write_lock if self.sqlite else None, on_batch=self._batched
        )
        self.on_move: Callable[[int], None] | None = None  # told each batch's size (metrics)
        # new games of many clients, one commit a batch (batch.py)
        self.batcher = Batcher(self._tx, name="create-batch")

    def _batched(self, size: int) -> None:
        if self.on_move is not None:
            self.on_move(size)

    def close(self) -> None:
        """Write the moves waiting, then release the database's connections."""
        self.committer.close()
        self.batcher.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self.engine.dispose()
        self.read_engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        # One writer at a time in this process: a queue on a lock wakes the next writer at
        # once, where SQLite's busy handler would sleep and retry (it still guards against
        # other processes on the same file).
        # PostgreSQL's row locks and version checks need no such queue.
        with self._write_lock if self.sqlite else nullcontext(), self._sessions.begin() as db:
            yield db

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self._reads.begin() as db:
            yield db

    # -- reading ---------------------------------------------------------------------------
    def _load(self, db: Session, game_id: str, moves: bool = True) -> Game:
        """The game's row with its seats and result, and its moves unless `moves` is False
        (a change that needs no replay: the moves are then read only if asked for)."""
        if not isinstance(game_id, str) or not 10 <= len(game_id) <= 32:
            raise NoSuchGameError("no such shared game")
        options = [joinedload(Game.seats), joinedload(Game.result)]
        if moves:
            options.append(selectinload(Game.moves))
        game = (
            db.execute(select(Game).where(Game.id == game_id).options(*options))
            .unique()
            .scalar_one_or_none()
        )
        if game is None:
            raise NoSuchGameError("no such shared game")
        return game

    @staticmethod
    def _replay(game: Game) -> _Replay:
        rules = make_rules(game.game, game.variant, game.size)
        start = rules.parse_position(game.start) if game.start else None
        session: GameSession[Any, Any] = GameSession(rules, start)
        for row in game.moves:
            session.play(row.move)
        return _Replay(rules, session)

    @staticmethod
    def _seat_of(game: Game, token: str | None) -> Seat:
        return _seat_holding(game.seats, token)

    @staticmethod
    def _seat_view(view: GameView, token: str | None) -> SeatView:
        return _seat_holding(view.seats, token)

    def _to_move(self, game: Game) -> int:
        return self._replay(game).session.to_move

    def _score(self, db: Session, match_id: str) -> tuple[int, tuple[float, float]]:
        count = db.scalar(select(func.count()).select_from(Game).where(Game.match_id == match_id))
        # one row per finished game: the winner's person (None for a draw) and the reason
        rows = db.execute(
            select(Result.winner, Result.reason, Seat.person)
            .join(Game, Game.id == Result.game_id)
            .outerjoin(Seat, (Seat.game_id == Result.game_id) & (Seat.colour == Result.winner))
            .where(Game.match_id == match_id)
        ).all()
        points = [0.0, 0.0]
        for winner, reason, person in rows:
            if winner is None:
                if reason != "aborted":
                    points[0] += 0.5
                    points[1] += 0.5
            elif person is not None:
                points[person] += 1.0
        return int(count or 0), (points[0], points[1])

    def _out(
        self,
        db: Session,
        game: Game,
        seat: Seat | None = None,
        score: tuple[int, tuple[float, float]] | None = None,
    ) -> fs.FriendStateOut:
        """The state of an ORM game inside a transaction (the changes other than moves);
        `score`: the match's, when the caller knows it (a new match: one game, no points)."""
        db.flush()
        r = self._replay(game)
        view = GameView.of(game)
        if score is None:
            score = self._score(db, game.match_id)
        live = LiveGame(view, r.rules, r.session, score)
        self._made.live = live
        return views.render(live, self.now(), None if seat is None else view.seats[seat.colour])

    def _live_game(self, game_id: str, check: bool = True) -> LiveGame:
        """The game in memory, read from the database when absent or, with `check`, when
        the database's version has moved on (another process or store changed it)."""
        live = self.live.get(game_id)
        if live is None:  # an ended game's copy serves its last state (it may be stale)
            live, check = self.live.ended(game_id), True
        if live is not None and check and self._version(game_id) != live.view.version:
            self.live.drop(game_id, live)
            live = None
        if live is None:
            with self._read() as db:
                game = self._load(db, game_id)
                r = self._replay(game)
                live = LiveGame(
                    GameView.of(game), r.rules, r.session, self._score(db, game.match_id)
                )
            live = self.live.put(live)
        return live

    def _version(self, game_id: str) -> int | None:
        """The game's version in the database (None: no such game). One statement on the
        driver's own connection: every socket's hello and every read of a kept game asks,
        and a session of the ORM would cost twenty times the query."""
        dialect = self.read_engine.dialect
        sql = f"SELECT version FROM games WHERE id = {dbmod.param_mark(dialect)}"
        conn = self.read_engine.raw_connection()
        try:
            cursor = conn.cursor()
            try:
                cursor.execute(sql, (game_id,))
                row = cursor.fetchone()
            finally:
                cursor.close()
        except dialect.loaded_dbapi.Error as exc:  # as SQLAlchemy raises it (503 upstream)
            raise DBAPIError.instance(sql, (game_id,), exc, dialect.loaded_dbapi.Error) from exc
        finally:
            conn.close()  # back to the pool (which ends the driver's transaction, if any)
        return None if row is None else int(row[0])

    def seat_colour(self, game_id: str, token: str) -> int:
        """The colour a token plays in a game (SeatError when it holds no seat)."""
        with self._tx() as db:
            return self._seat_of(self._load(db, game_id), token).colour

    def record(self, game_id: str) -> str:
        """The game as record text (tags, numbered moves, result)."""
        with self._read() as db:
            game = self._load(db, game_id)
            r = self._replay(game)
            names = r.rules.player_names
            people = {seat.colour: seat.person for seat in game.seats}
            players = {names[c]: "creator" if people[c] == 0 else "friend" for c in (0, 1)}
            rec = GameRecord.from_session(r.session, players=players)
            if game.result is not None:
                rec.result = game.result.tag
                rec.termination = game.result.reason
            return rec.to_text()


class _Holdable(Protocol):
    @property
    def token_hash(self) -> str: ...


_S = TypeVar("_S", bound=_Holdable)


def _seat_holding(seats: Iterable[_S], token: str | None) -> _S:
    """The seat (a stored one or a live view's) whose token this is."""
    if not token:
        raise SeatError("this needs a seat's token: spectators can only watch")
    digest = hash_token(token)
    for seat in seats:
        if hmac.compare_digest(seat.token_hash, digest):
            return seat
    raise SeatError("this token holds no seat of this game")
