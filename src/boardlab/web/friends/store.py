"""Shared games in a database: create, join, the setup stage (Dot Dash's pie), move, resign,
draw, rematch, clocks, expiry.

Every move is checked by the registered rules (`GameInfo` via `boardlab.core.registry`): the
store keeps notation, never a second copy of the rules. A game being played stays in memory
(`live.LiveGame`: its row and the session replayed once), so a move is checked by appending it
to that session; `Game.version` tells whether the copy is still the database's. A move carries
the ply it was made for; of two moves sent for one position exactly one is stored and the
other is refused (`StaleMoveError`). Moves are written by one thread, many games' moves to a
commit (`live.GroupCommitter`), and every change is committed before it is answered, so an
acknowledged move survives a crash.

A game with a setup stage begins with it: one person places the stones (`setup_stage`
"place"), the other takes a colour ("choose"), and the seats follow that choice. No move, draw
offer or clock runs before it ends; resigning during it aborts the game.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload, selectinload, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from boardlab.core.errors import BoardLabError, IllegalMoveError, NotationError, UsageError
from boardlab.core.records import GameRecord
from boardlab.core.registry import AnyRules, get_game, make_rules
from boardlab.core.session import GameSession
from boardlab.web.friends import clock, views
from boardlab.web.friends import db as dbmod
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.live import (
    GameView,
    GroupCommitter,
    LiveGame,
    LiveGames,
    MoveWrite,
    ResultView,
    SeatView,
)
from boardlab.web.friends.models import Game, Match, MoveRow, Result, Seat

T = TypeVar("T")
log = logging.getLogger("boardlab.web.friends")


@dataclass
class _Prepared:
    """A move checked and played in memory, its rows not yet written."""

    write: MoveWrite
    seat: SeatView


@dataclass
class Played:
    """A stored move: the state its mover sees and the write that stored it (None when it
    went the slow way, in a transaction of its own)."""

    state: fs.FriendStateOut
    write: MoveWrite | None


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
    """A bound on open games was reached (429)."""


@dataclass(frozen=True)
class FriendLimits:
    """Bounds and settings of the shared games: open games per client address and in all,
    idle expiry, invitation expiry, retention of finished games, the WebSocket's message
    size and rate (per connection), the HTTP request rate per client address, and whether
    SQLite syncs every commit to disk (`full_sync`, see `db.make_engine`)."""

    open_per_client: int = 20
    open_total: int = 2000
    idle_expiry_s: float = 7 * 24 * 3600.0
    invite_expiry_s: float = 6 * 3600.0  # a game whose invitation nobody opened (retention)
    retain_s: float = 30 * 24 * 3600.0  # finished and expired games are then deleted
    message_bytes: int = 4096
    messages_per_s: float = 10.0
    message_burst: int = 30
    connections_per_game: int = 64
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
    def changing(self: FriendStore, game_id: str, *args: Any, **kwargs: Any) -> T:
        for _ in range(3):
            self._made.live = None
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
            return out
        self.live.drop(game_id)
        raise StaleMoveError("the game changed meanwhile: try again")

    return changing


class FriendStore:
    """The shared games of one database (thread-safe: each call is one transaction)."""

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
        self.engine: Engine = dbmod.make_engine(url, full_sync=self.limits.full_sync)
        if migrate:
            dbmod.upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.sqlite = self.engine.dialect.name == "sqlite"
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

    def _batched(self, size: int) -> None:
        if self.on_move is not None:
            self.on_move(size)

    def close(self) -> None:
        """Write the moves waiting, then release the database's connections."""
        self.committer.close()
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
    def _load(self, db: Session, game_id: str) -> Game:
        if not isinstance(game_id, str) or not 10 <= len(game_id) <= 32:
            raise NoSuchGameError("no such shared game")
        game = (
            db.execute(
                select(Game)
                .where(Game.id == game_id)
                .options(joinedload(Game.seats), joinedload(Game.result), selectinload(Game.moves))
            )
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
        if not token:
            raise SeatError("this needs a seat's token: spectators can only watch")
        digest = hash_token(token)
        for seat in game.seats:
            if hmac.compare_digest(seat.token_hash, digest):
                return seat
        raise SeatError("this token holds no seat of this game")

    @staticmethod
    def _seat_view(view: GameView, token: str | None) -> SeatView:
        if not token:
            raise SeatError("this needs a seat's token: spectators can only watch")
        digest = hash_token(token)
        for seat in view.seats:
            if hmac.compare_digest(seat.token_hash, digest):
                return seat
        raise SeatError("this token holds no seat of this game")

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

    def _out(self, db: Session, game: Game, seat: Seat | None = None) -> fs.FriendStateOut:
        """The state of an ORM game inside a transaction (the changes other than moves)."""
        db.flush()
        r = self._replay(game)
        view = GameView.of(game)
        live = LiveGame(view, r.rules, r.session, self._score(db, game.match_id))
        self._made.live = live
        return views.render(live, self.now(), None if seat is None else view.seats[seat.colour])

    def state(self, game_id: str, token: str | None = None) -> fs.FriendStateOut:
        """The game as a spectator sees it; with a valid seat token, as that seat sees it
        (an invalid token is refused rather than silently shown the spectator's view)."""
        for _ in range(2):
            live = self._live_game(game_id)
            with live.lock:
                game = live.view
                seat = self._seat_view(game, token) if token else None
                mover = live.session.to_move
                left = clock.left(game, self.now(), mover)
                if left is None or game.status != "playing" or left[mover] > 0:
                    return views.render(live, self.now(), seat)
            self.flag_if_due(game_id)  # the running clock is out: end the game, then read
        raise AssertionError("unreachable: a flagged game is no longer playing")

    def _live_game(self, game_id: str, check: bool = True) -> LiveGame:
        """The game in memory, read from the database when absent or, with `check`, when
        the database's version has moved on (another process or store changed it)."""
        live = self.live.get(game_id)
        if live is not None and check:
            with self._read() as db:
                version = db.scalar(select(Game.version).where(Game.id == game_id))
            if version != live.view.version:
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

    # -- creating and joining --------------------------------------------------------------
    def create(
        self,
        req: fs.CreateRequest,
        client: str = "unknown",
        rng: Callable[[int], int] = secrets.randbelow,
    ) -> fs.CreatedOut:
        """A new game (and match); the creator's seat is taken at once."""
        rules = make_rules(req.game, req.variant, req.size)  # checks game, variant, size
        if req.clock is not None and req.clock.minutes * 60 < 1:
            raise UsageError("a clock needs at least one second")
        now = self.now()
        client = client[:64]
        placer = None
        if req.pie is not None:
            if get_game(rules.game).setup is None:
                raise UsageError(f"{get_game(rules.game).title} has no setup stage: leave out pie")
            placer = {"place": 0, "choose": 1}.get(req.pie)
            if placer is None:
                placer = rng(2)
            colour = 0  # for now: the chooser's colour seats both
        else:
            chosen = {"first": 0, "second": 1}.get(req.colour)
            colour = rng(2) if chosen is None else chosen
        token, invite = _new_token(), _new_token()
        clock_ms = None if req.clock is None else round(req.clock.minutes * 60_000)
        increment_ms = 0 if req.clock is None else round(req.clock.increment * 1000)
        with self._tx() as db:
            self._check_bounds(db, client)
            match = Match(id=_new_id(), created_at=now)
            game = Game(
                id=_new_id(),
                match_id=match.id,
                number=1,
                game=rules.game,
                variant=rules.variant,
                size=rules.size,
                start=None,
                status="waiting",
                ply=0,
                created_at=now,
                updated_at=now,
                creator_addr=client,
                clock_ms=clock_ms,
                increment_ms=increment_ms,
                setup_stage=None if placer is None else "place",
                placer=placer,
            )
            db.add(match)
            db.add(game)
            game.seats = [
                Seat(
                    colour=c,
                    person=0 if c == colour else 1,
                    token_hash=hash_token(token if c == colour else invite),
                    joined_at=now if c == colour else None,
                    remaining_ms=clock_ms,
                )
                for c in (0, 1)
            ]
            db.flush()
            state = self._out(db, game, game.seats[colour])
        return fs.CreatedOut(
            id=game.id, token=token, invite_token=invite, colour=colour, state=state
        )

    def _check_bounds(self, db: Session, client: str) -> None:
        lim = self.limits
        total = db.scalar(select(func.count()).select_from(Game).where(Game.status.in_(OPEN)))
        if (total or 0) >= lim.open_total:
            raise TooManyGamesError(
                f"the server has {lim.open_total} open shared games, its limit: try later"
            )
        mine = db.scalar(
            select(func.count())
            .select_from(Game)
            .where(Game.status.in_(OPEN), Game.creator_addr == client)
        )
        if (mine or 0) >= lim.open_per_client:
            raise TooManyGamesError(
                f"you have {lim.open_per_client} open shared games, the limit per address: "
                "finish or resign one first"
            )

    def join(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        """Take one's seat (opening the invitation); the game starts once both have. A seat
        already taken (every reconnecting socket says hello again) only reads the game."""
        live = self._live_game(game_id)
        with live.lock:
            seat = self._seat_view(live.view, token)
            if seat.joined_at is not None:
                return views.render(live, self.now(), seat)
        return self._join(game_id, token)

    @_changes
    def _join(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            now = self.now()
            if seat.joined_at is None:
                seat.joined_at = now
                game.updated_at = now
                if game.status == "waiting" and all(t.joined_at is not None for t in game.seats):
                    game.status = "playing"
                    # the clocks start with the first move's turn, after any setup stage
                    game.turn_started_at = now if game.setup_stage is None else None
            return self._out(db, game, seat)

    # -- playing ---------------------------------------------------------------------------
    def move(self, game_id: str, token: str | None, move: str, ply: int) -> fs.FriendStateOut:
        """Play `move` for the seat of `token` in the position after `ply` plies (checked
        against the game in memory, written by the group commit)."""
        return self.play(game_id, token, move, ply).state

    def play(self, game_id: str, token: str | None, move: str, ply: int) -> Played:
        """`move`, with the write that stored it (for the other processes' copies)."""
        for attempt in range(3):
            live = self._live_game(game_id, check=attempt > 0)
            with live.lock:
                if self.live.get(game_id) is not live:
                    continue  # replaced while this thread waited
                out = self._move_live(live, token, move, ply, first=attempt == 0)
            if out is _SLOW:
                break
            if out is _RELOAD:
                self.live.drop(game_id, live)
                continue
            assert isinstance(out, Played)
            return out
        try:
            return Played(self._move_slow(game_id, token, move, ply), None)
        finally:
            self.live.drop(game_id)

    async def move_async(
        self, game_id: str, token: str | None, move: str, ply: int
    ) -> Played | None:
        """`play` in the event loop, awaiting the group commit instead of holding a thread,
        when the game is in memory and free; None: not possible now, call `play` in a
        thread."""
        live = self.live.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        try:
            if self.live.get(game_id) is not live:
                return None
            prep = self._prepare_move(live, token, move, ply, first=True)
            if not isinstance(prep, _Prepared):
                out = prep
            else:
                try:
                    # shielded: a mover who leaves does not cancel the write under way
                    stored = await asyncio.shield(
                        asyncio.wrap_future(self.committer.submit(prep.write))
                    )
                except BaseException:
                    self._abandon(live, prep)
                    raise
                out = self._settle(live, prep, stored)
        finally:
            live.lock.release()
        if out is _RELOAD:
            self.live.drop(game_id, live)
        return out if isinstance(out, Played) else None

    def _move_live(
        self, live: LiveGame, token: str | None, move: str, ply: int, first: bool
    ) -> object:
        """The move on the game in memory (its lock held): Played, or _RELOAD or _SLOW."""
        prep = self._prepare_move(live, token, move, ply, first)
        if not isinstance(prep, _Prepared):
            return prep
        try:
            stored = self.committer.submit(prep.write).result()
        except BaseException:
            self._abandon(live, prep)
            raise
        return self._settle(live, prep, stored)

    def _abandon(self, live: LiveGame, prep: _Prepared) -> None:
        """The write failed or its outcome is unknown: forget the game in memory."""
        live.session.undo()
        self.live.drop(live.view.id, live)

    def _settle(self, live: LiveGame, prep: _Prepared, stored: bool) -> object:
        """The game in memory after the write: the move applied (Played), or _RELOAD."""
        if not stored:
            live.session.undo()
            return _RELOAD  # another process or store changed the game first
        views.apply(live, prep.write)
        played = Played(views.render(live, self.now(), prep.seat), prep.write)
        if live.view.status not in OPEN:
            self.live.retire(live.view.id)  # the move ended it
        return played

    def catch_up(self, game_id: str, version: int | None, note: Any = None) -> LiveGame | None:
        """Bring the game in memory up to `version` (another process's change): a move's
        `note` (`MoveWrite.note`) is applied to a copy exactly one version behind; a copy
        that is behind otherwise, or a change that is not a move, is dropped (read again
        when next used). The copy, now at `version` or newer; None when there is none (or
        it is busy). Never waits: the event loop calls it."""
        live = self.live.get(game_id)
        if live is None:
            return None
        if not live.lock.acquire(blocking=False):
            self.live.drop(game_id, live)  # a change of this process is under way: read again
            return None
        try:
            have = live.view.version
            if version is not None and have >= version:
                return live  # this copy has it already
            if version is None or note is None or have != version - 1:
                self.live.drop(game_id, live)
                return None
            try:
                write = MoveWrite.from_note(game_id, have, note)
                if write.ply != live.view.ply:
                    raise ValueError(f"the move is for ply {write.ply}, not {live.view.ply}")
                live.session.play(live.rules.parse_move(write.move))
            except (ValueError, IndexError) as exc:  # NotationError and IllegalMoveError too
                log.warning("shared games: read %s again: %s", game_id, exc)
                self.live.drop(game_id, live)
                return None
            views.apply(live, write)
            if live.view.status not in OPEN:
                self.live.retire(game_id)  # the move ended it (the caller renders it once)
            return live
        finally:
            live.lock.release()

    def render(self, live: LiveGame) -> fs.FriendStateOut | None:
        """The spectator's state of a game in memory; None when a change of it is under way
        (never waits)."""
        if not live.lock.acquire(blocking=False):
            return None
        try:
            return views.render(live, self.now())
        finally:
            live.lock.release()

    def _prepare_move(
        self, live: LiveGame, token: str | None, move: str, ply: int, first: bool
    ) -> object:
        """The move checked and played on the session in memory: a _Prepared write, or
        _RELOAD or _SLOW; the rules' and the seat's errors are raised."""
        game, session, rules = live.view, live.session, live.rules
        try:
            seat = self._seat_view(game, token)
            self._check_playing(game)
        except (SeatError, IllegalMoveError):
            if first:  # this copy may be behind the database (a join, the setup's seats)
                return _RELOAD
            raise
        now = self.now()
        left = clock.left(game, now, session.to_move)
        if left is not None and game.status == "playing" and left[session.to_move] <= 0:
            return _SLOW  # the flag fell before the move came
        if ply != game.ply:
            if first and ply > game.ply:
                return _RELOAD  # this copy may be behind the database
            raise StaleMoveError(f"the game is at ply {game.ply}, not {ply}: the board has changed")
        if first and (game.setup_stage is not None or session.to_move != seat.colour):
            return _RELOAD  # refused below, unless this copy is behind
        self._check_setup_done(game)
        if session.to_move != seat.colour:  # a seat moves only for itself: 403
            names = rules.player_names
            raise SeatError(
                f"this link's seat is {names[seat.colour]}; it is {names[session.to_move]}'s turn"
            )
        try:
            m = rules.parse_move(move)
            session.play(m)
        except NotationError as exc:
            raise NotationError(f"{move.strip()[:24]}: {exc}") from None
        values: dict[str, Any] = {
            "updated_at": now,
            "draw_offer": None,
            "status": game.status,
            "turn_started_at": game.turn_started_at,
        }
        remaining = None
        if left is not None and game.turn_started_at is not None:
            remaining = left[seat.colour] + game.increment_ms
            values["turn_started_at"] = now
        outcome = session.result
        result = None
        if outcome is not None:
            w = outcome.winner
            tag = "1/2-1/2" if w is None else ("1-0" if w == 0 else "0-1")
            result = ResultView(w, outcome.reason.value, tag)
            values.update(status="over", turn_started_at=None)
        write = MoveWrite(
            game.id, game.version, ply, rules.format_move(m), now, values,
            None if remaining is None else seat.colour, remaining, result,
        )  # fmt: skip
        return _Prepared(write, seat)

    def _move_slow(self, game_id: str, token: str | None, move: str, ply: int) -> fs.FriendStateOut:
        """The move in one transaction of its own (when the mover's clock may have run out)."""
        flagged = False
        try:
            with self._tx() as db:
                game = self._load(db, game_id)
                seat = self._seat_of(game, token)
                self._check_playing(game)
                clock.settle(game, self.now(), lambda: self._to_move(game))
                flagged = game.status != "playing"  # the flag fell before the move came
                if not flagged:
                    return self._play(db, game, seat, move, ply)
        except (StaleDataError, IntegrityError):
            raise StaleMoveError("another move for this position was accepted first") from None
        raise IllegalMoveError("the game is over: the clock ran out")

    def _play(self, db: Session, game: Game, seat: Seat, move: str, ply: int) -> fs.FriendStateOut:
        """The move's checks and its rows (inside the caller's transaction): the slow path."""
        if ply != game.ply:
            raise StaleMoveError(f"the game is at ply {game.ply}, not {ply}: the board has changed")
        self._check_setup_done(game)
        r = self._replay(game)
        if r.session.to_move != seat.colour:  # a seat moves only for itself: 403
            names = r.rules.player_names
            raise SeatError(
                f"this link's seat is {names[seat.colour]}; it is {names[r.session.to_move]}'s turn"
            )
        try:
            m = r.rules.parse_move(move)
            r.session.play(m)
        except NotationError as exc:
            raise NotationError(f"{move.strip()[:24]}: {exc}") from None
        now = self.now()
        clock.run(game, seat, now)
        if game.status != "playing":  # the flag fell before the move arrived
            return self._out(db, game, seat)
        game.moves.append(MoveRow(ply=ply, move=r.rules.format_move(m), played_at=now))
        game.ply = ply + 1
        game.updated_at = now
        game.draw_offer = None
        outcome = r.session.result
        if outcome is not None:
            clock.finish(game, outcome.winner, outcome.reason.value, now)
        db.flush()
        return self._out(db, game, seat)

    @staticmethod
    def _check_setup_done(game: Game | GameView) -> None:
        if game.setup_stage == "place":
            raise IllegalMoveError("the setup comes first: the stones are still to be placed")
        if game.setup_stage == "choose":
            raise IllegalMoveError("the setup comes first: a colour is still to be chosen")

    @staticmethod
    def _check_playing(game: Game | GameView) -> None:
        if game.status == "waiting":
            raise IllegalMoveError("the game starts when your friend opens the invitation")
        if game.status != "playing":
            raise IllegalMoveError("the game is over")

    @_changes
    def resign(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        """The seat's player resigns (also before the friend has joined: then it aborts)."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            now = self.now()
            if game.status == "waiting" or (game.status == "playing" and game.setup_stage):
                clock.finish(game, None, "aborted", now)  # before the first move: no result
            else:
                self._check_playing(game)
                clock.settle(game, now, lambda: self._to_move(game))
                if game.status == "playing":
                    clock.finish(game, 1 - seat.colour, "resignation", now)
            db.flush()
            return self._out(db, game, seat)

    @_changes
    def draw(self, game_id: str, token: str | None, action: str) -> fs.FriendStateOut:
        """Offer a draw, accept the other side's offer (the game is drawn) or decline it."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            self._check_playing(game)
            self._check_setup_done(game)
            now = self.now()
            clock.settle(game, now, lambda: self._to_move(game))
            if game.status != "playing":
                return self._out(db, game, seat)
            other = 1 - seat.colour
            if action == "offer":
                if game.draw_offer == other:  # both offered: agreed
                    clock.finish(game, None, "agreement", now)
                else:
                    game.draw_offer = seat.colour
            elif action == "accept":
                if game.draw_offer != other:
                    raise IllegalMoveError("there is no draw offer to accept")
                clock.finish(game, None, "agreement", now)
            elif action == "decline":
                if game.draw_offer != other:
                    raise IllegalMoveError("there is no draw offer to decline")
                game.draw_offer = None
            else:
                raise UsageError(f"unknown draw action {action!r}")
            game.updated_at = now
            db.flush()
            return self._out(db, game, seat)

    @_changes
    def rematch(self, game_id: str, token: str | None) -> fs.RematchOut:
        """The next game of the match, colours swapped, the same tokens (asking twice, or
        both players asking, gives the same game). A game with a setup stage has it again,
        the other person placing."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            if game.status in OPEN:
                raise IllegalMoveError("a rematch follows a finished game")
            if game.next_game_id is not None:
                return fs.RematchOut(id=game.next_game_id)
            self._check_bounds(db, game.creator_addr)
            now = self.now()
            placer = None if game.placer is None else 1 - game.placer
            nxt = Game(
                id=_new_id(),
                match_id=game.match_id,
                number=game.number + 1,
                game=game.game,
                variant=game.variant,
                size=game.size,
                start=game.start if placer is None else None,
                status="playing",
                ply=0,
                created_at=now,
                updated_at=now,
                creator_addr=game.creator_addr,
                clock_ms=game.clock_ms,
                increment_ms=game.increment_ms,
                turn_started_at=now if placer is None else None,
                setup_stage=None if placer is None else "place",
                placer=placer,
            )
            db.add(nxt)
            nxt.seats = [
                Seat(
                    colour=1 - old.colour,
                    person=old.person,
                    token_hash=old.token_hash,
                    joined_at=now,
                    remaining_ms=game.clock_ms,
                )
                for old in sorted(game.seats, key=lambda t: 1 - t.colour)
            ]
            game.next_game_id = nxt.id
            game.updated_at = now
            del seat
            return fs.RematchOut(id=nxt.id)

    # -- the setup stage -------------------------------------------------------------------
    @_changes
    def setup(self, game_id: str, token: str | None, req: fs.SetupRequest) -> fs.FriendStateOut:
        """The placer places the setup (checked by the game's setup rules), then the other
        person takes a colour: the seats follow (the chooser's token plays that colour) and the
        setup's side to move starts, its clock running."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            self._check_playing(game)
            stage = get_game(game.game).setup
            if game.setup_stage is None or stage is None or game.placer is None:
                raise IllegalMoveError("this game has no setup stage under way")
            placing = seat.person == game.placer
            now = self.now()
            if req.action == "place":
                if not placing:
                    raise SeatError("your friend places the stones; you choose the colour")
                if game.setup_stage != "place":
                    raise IllegalMoveError("the stones are placed: a colour is to be chosen")
                assert req.setup is not None  # the request model insists on it
                rules = make_rules(game.game, game.variant, game.size)
                try:
                    position = stage.parse(rules, req.setup)
                except NotationError as exc:
                    raise NotationError(f"{req.setup.strip()[:60]}: {exc}") from None
                game.start = rules.format_position(position)
                game.setup_stage = "choose"
            else:
                if placing:
                    raise SeatError("your friend chooses the colour; you placed the stones")
                if game.setup_stage != "choose":
                    raise IllegalMoveError("the stones are not placed yet")
                assert req.colour is not None  # the request model insists on it
                if seat.colour != req.colour:  # the people change seats, tokens with them
                    a, b = game.seats
                    a.person, b.person = b.person, a.person
                    a.token_hash, b.token_hash = b.token_hash, a.token_hash
                    a.joined_at, b.joined_at = b.joined_at, a.joined_at
                    seat = game.seats[req.colour]
                game.setup_stage = None
                game.turn_started_at = now
            game.updated_at = now
            db.flush()
            return self._out(db, game, seat)

    # -- housekeeping ----------------------------------------------------------------------
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
        with self._tx() as db:
            stale = db.execute(
                select(Game).where(Game.status.in_(OPEN), Game.updated_at < cutoff)
            ).scalars()
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
