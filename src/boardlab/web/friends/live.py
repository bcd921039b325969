"""Live shared games kept in memory, and the writer that commits moves of many games together.

A process keeps each game it serves as a `LiveGame`: a plain copy of its row and seats, and the
rules' session replayed once, so a move appends to it instead of replaying the game. The
database stays the truth: every change raises the game's `version`, and a move is written by
`UPDATE games ... WHERE id = :id AND version = :seen`; when another process (or another
store on the same database) changed the game first, the update touches no row, the copy is
dropped and read again.

`GroupCommitter` is one thread that takes every move waiting, writes them all in one
transaction and commits once (one disk sync for SQLite, one round trip of commit for
PostgreSQL); only then does each mover hear that its move is stored. Under load the batch
grows with the load, so the cost of a commit is shared by many moves.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine

from boardlab.core.registry import AnyRules, get_game
from boardlab.core.session import GameSession
from boardlab.web.friends.batch import WriterThread
from boardlab.web.friends.models import Game
from boardlab.web.schemas import BoardFactsOut

log = logging.getLogger("boardlab.web.friends")


@dataclass
class SeatView:
    """One seat, as read from the database."""

    colour: int
    person: int
    token_hash: str
    joined_at: float | None
    remaining_ms: int | None


@dataclass
class ResultView:
    """How a game ended, as read from the database."""

    winner: int | None
    reason: str
    tag: str


@dataclass
class GameView:
    """A game's row, its seats (by colour) and its result, detached from any database
    session."""

    id: str
    match_id: str
    number: int
    game: str
    variant: str
    size: int
    start: str | None
    status: str
    ply: int
    version: int
    created_at: float
    updated_at: float
    creator_addr: str
    draw_offer: int | None
    clock_ms: int | None
    increment_ms: int
    turn_started_at: float | None
    next_game_id: str | None
    setup_stage: str | None
    placer: int | None
    seats: list[SeatView]
    result: ResultView | None

    @classmethod
    def of(cls, game: Game) -> GameView:
        """The view of an ORM game (its seats and result loaded)."""
        seats = [
            SeatView(t.colour, t.person, t.token_hash, t.joined_at, t.remaining_ms)
            for t in sorted(game.seats, key=lambda t: t.colour)
        ]
        res = game.result
        return cls(
            id=game.id,
            match_id=game.match_id,
            number=game.number,
            game=game.game,
            variant=game.variant,
            size=game.size,
            start=game.start,
            status=game.status,
            ply=game.ply,
            version=game.version,
            created_at=game.created_at,
            updated_at=game.updated_at,
            creator_addr=game.creator_addr,
            draw_offer=game.draw_offer,
            clock_ms=game.clock_ms,
            increment_ms=game.increment_ms,
            turn_started_at=game.turn_started_at,
            next_game_id=game.next_game_id,
            setup_stage=game.setup_stage,
            placer=game.placer,
            seats=seats,
            result=None if res is None else ResultView(res.winner, res.reason, res.tag),
        )


Score = tuple[int, tuple[float, float]]  # games in the match, points of persons 0 and 1


@dataclass(eq=False)
class LiveGame:
    """A game in memory: its view, the replayed session and the match's score. `lock`
    serialises the changes of this game within the process."""

    view: GameView
    rules: AnyRules
    session: GameSession[Any, Any]
    score: Score
    lock: threading.Lock = field(default_factory=threading.Lock)
    # each ply of the session with its move and the position after it in notation: a render
    # formats only the plies added since the last one
    _texts: list[tuple[object, str, str]] = field(default_factory=list, repr=False)
    _moves: list[str] = field(default_factory=list, repr=False)  # the texts' moves
    _positions: list[str] = field(default_factory=list, repr=False)  # start, then each after
    _start: object = field(default=None, repr=False)  # the start `_positions[0]` was made of
    # the legal moves of one position by their notation (a render lists them; the next move
    # is most likely one of them)
    _legal: tuple[object, dict[str, Any]] | None = field(default=None, repr=False)
    # the game's `GameInfo.board_facts` (looked up once: the registry is searched by name)
    _facts: tuple[Callable[[Any, Any], Any] | None] | None = field(default=None, repr=False)
    _facts_of: tuple[Any, dict[str, Any]] | None = field(default=None, repr=False)

    def with_view(self, view: GameView, score: Score) -> LiveGame:
        """A copy of this ended game with its row and its match's score changed (a rematch
        links the next game, which the match counts): the same session (no move comes
        after the end) and its texts so far."""
        return LiveGame(
            view, self.rules, self.session, score,
            _texts=list(self._texts), _moves=list(self._moves),
            _positions=list(self._positions), _start=self._start, _legal=self._legal,
            _facts=self._facts, _facts_of=self._facts_of,
        )  # fmt: skip

    def facts(self) -> dict[str, Any] | None:
        """The board's facts in the current position as JSON values (None: the game declares
        none); checked against the schema only when they change."""
        if self._facts is None:
            self._facts = (get_game(self.rules.game).board_facts,)
        facts = self._facts[0]
        if facts is None:
            return None
        made = facts(self.rules, self.session.position)
        if self._facts_of is None or self._facts_of[0] != made:  # most moves change none
            out = BoardFactsOut.model_validate(made)
            self._facts_of = (made, out.model_dump(mode="json"))
        return self._facts_of[1]

    def notation(self) -> tuple[list[str], list[str]]:
        """The session's moves, and its positions (the start first), in notation (new lists:
        the copy kept here grows with the game)."""
        plies, cache = self.session.plies, self._texts
        same = len(cache)
        # a ply taken back is never played again as the same object (a redo makes a new
        # one), so when the newest kept ply is still in place, every kept ply is
        if not (same <= len(plies) and (same == 0 or plies[same - 1] is cache[-1][0])):
            same = 0
            for ply, kept in zip(plies, cache, strict=False):
                if kept[0] is not ply:
                    break
                same += 1
        start = self.session.start
        if self._start is not start:
            self._start = start
            self._positions[:] = [self.rules.format_position(start)]
        del cache[same:]  # plies taken back
        del self._moves[same:]
        del self._positions[same + 1 :]
        fmt, fmt_move = self.rules.format_position, self.rules.format_move
        for p in plies[same:]:
            kept = (p, fmt_move(p.move), fmt(p.after))
            cache.append(kept)
            self._moves.append(kept[1])
            self._positions.append(kept[2])
        return self._moves[:], self._positions[:]

    def legal(self) -> dict[str, Any]:
        """The legal moves of the current position by their notation, in the rules' order
        (empty when the game is over)."""
        position = self.session.position
        if self._legal is None or self._legal[0] is not position:
            fmt = self.rules.format_move
            moves = () if self.session.result is not None else self.rules.legal_moves(position)
            self._legal = (position, {fmt(m): m for m in moves})
        return self._legal[1]


class LiveGames:
    """The live games of one store, the most recently used kept (at most `capacity`; one
    that fell out is read again when next used). A finished game is not kept among them: no
    move will come, and a busy server finishes thousands of games an hour. Its id is
    remembered (the most recent `over_capacity`), so the clock watcher knows it needs no
    look, and the copies of the most recently ended `ended_capacity` are kept apart: the
    rematch that follows an ending, and the final state it pushes, need no replay of the
    game from the database."""

    def __init__(
        self, capacity: int = 4096, over_capacity: int = 16384, ended_capacity: int = 128
    ) -> None:
        self.capacity = capacity
        self.over_capacity = over_capacity
        self.ended_capacity = ended_capacity
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._over: OrderedDict[str, None] = OrderedDict()
        self._ended: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def is_over(self, game_id: str) -> bool:
        """True when the game is known to have ended (finished or expired)."""
        return game_id in self._over

    def retire(self, game_id: str, live: LiveGame | None = None) -> None:
        """The game has ended: forget its copy among the live games, remember that it is
        over, and keep `live` (its ended copy, when given) among the recently ended."""
        with self._lock:
            self._games.pop(game_id, None)
            self._over[game_id] = None
            self._over.move_to_end(game_id)
            while len(self._over) > self.over_capacity:
                self._over.popitem(last=False)
            if live is None or live.view.status in ("waiting", "playing"):
                self._ended.pop(game_id, None)
                return
            kept = self._ended.get(game_id)
            if kept is None or kept.view.version <= live.view.version:
                self._ended[game_id] = live
            self._ended.move_to_end(game_id)
            while len(self._ended) > self.ended_capacity:
                self._ended.popitem(last=False)

    def get(self, game_id: str) -> LiveGame | None:
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def ended(self, game_id: str) -> LiveGame | None:
        """The copy of a recently ended game, if it is still kept."""
        with self._lock:
            return self._ended.get(game_id)

    def put(self, live: LiveGame) -> LiveGame:
        """Keep `live`, unless a newer copy of the game is kept already (a reader that read
        before a change may finish after the change's own copy is in); the copy kept."""
        if live.view.status not in ("waiting", "playing"):
            self.retire(live.view.id, live)
            return self.ended(live.view.id) or live
        with self._lock:
            kept = self._games.get(live.view.id)
            if kept is not None and kept.view.version > live.view.version:
                self._games.move_to_end(live.view.id)
                return kept
            self._ended.pop(live.view.id, None)
            self._games[live.view.id] = live
            self._games.move_to_end(live.view.id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
            return live

    def drop(self, game_id: str, live: LiveGame | None = None) -> None:
        """Forget a game's copy, live or ended (only if it is still `live`, when given)."""
        with self._lock:
            for kept in (self._games, self._ended):
                if live is None or kept.get(game_id) is live:
                    kept.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)


@dataclass
class MoveWrite:
    """The rows of one accepted move: the game's new columns (`updated_at`, `status`,
    `turn_started_at`; written only if the game is still at `version`), the move, a seat's
    clock and the result when the move ends it."""

    game_id: str
    version: int
    ply: int
    move: str
    played_at: float
    game_values: dict[str, Any]
    seat_colour: int | None = None
    seat_remaining_ms: int | None = None
    result: ResultView | None = None
    announced: bool = False  # its event went out with its commit (`GroupCommitter.announce`)

    def note(self) -> dict[str, Any]:
        """The move's columns as JSON, for the event that tells the other processes (it is
        applied to a copy at `version`; the event says `version + 1`)."""
        r, colour = self.result, self.seat_colour
        return {
            "ply": self.ply,
            "move": self.move,
            "values": self.game_values,
            "seat": None if colour is None else [colour, self.seat_remaining_ms],
            "result": None if r is None else [r.winner, r.reason, r.tag],
        }

    @classmethod
    def from_note(cls, game_id: str, version: int, note: dict[str, Any]) -> MoveWrite:
        """The write that `note` (from another process) describes, made at `version` (it
        raised the game to `version + 1`); ValueError when it is not one."""
        ply, move, values = note.get("ply"), note.get("move"), note.get("values")
        seat, result = note.get("seat"), note.get("result")
        if type(ply) is not int or ply < 0 or not isinstance(move, str) or len(move) > 64:
            raise ValueError("a move note needs a ply and a move")
        if not isinstance(values, dict) or set(values) != set(MOVE_COLUMNS):
            raise ValueError(f"a move note's values are {', '.join(MOVE_COLUMNS)}")
        updated, status, turn = (values[k] for k in ("updated_at", "status", "turn_started_at"))
        if (
            not isinstance(updated, int | float)
            or status not in ("playing", "over")
            or not (turn is None or isinstance(turn, int | float))
            or values["draw_offer"] is not None
        ):
            raise ValueError("a move note's values are out of range")
        colour = remaining = None
        if seat is not None:
            if not (isinstance(seat, list) and len(seat) == 2 and seat[0] in (0, 1)):
                raise ValueError("a move note's seat is [colour, milliseconds left]")
            colour, remaining = seat
            if not (remaining is None or type(remaining) is int):
                raise ValueError("a move note's seat is [colour, milliseconds left]")
        res = None
        if result is not None:
            if not (
                isinstance(result, list)
                and len(result) == 3
                and result[0] in (None, 0, 1)
                and all(isinstance(x, str) for x in result[1:])
            ):
                raise ValueError("a move note's result is [winner, reason, tag]")
            res = ResultView(result[0], result[1], result[2])
        return cls(
            game_id, version, ply, move, float(updated), dict(values), colour, remaining, res
        )


MOVE_COLUMNS = ("updated_at", "draw_offer", "status", "turn_started_at")  # set by every move


_Waiter = Future[Any] | asyncio.Future[Any]

# SQLite's statements of a whole batch, each reading its rows from one JSON array of arrays
# (`->>` and a built-in JSON: SQLite 3.38; UPDATE ... FROM: 3.33)
_SQLITE_JSON = sqlite3.sqlite_version_info >= (3, 38, 0)
_SQLITE_BATCH = {
    "game": "UPDATE games SET version = j.version + 1, ply = j.ply + 1, "
    "updated_at = j.updated_at, draw_offer = NULL, status = j.status, turn_started_at = j.turn "
    "FROM (SELECT value ->> 0 AS id, value ->> 1 AS version, value ->> 2 AS ply, "
    "value ->> 3 AS updated_at, value ->> 4 AS status, value ->> 5 AS turn "
    "FROM json_each(?)) AS j WHERE games.id = j.id AND games.version = j.version",
    "move": "INSERT INTO moves (game_id, ply, move, played_at) "
    "SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?)",
    "seat": "UPDATE seats SET remaining_ms = j.ms FROM (SELECT value ->> 0 AS game_id, "
    "value ->> 1 AS colour, value ->> 2 AS ms FROM json_each(?)) AS j "
    "WHERE seats.game_id = j.game_id AND seats.colour = j.colour",
    "result": "INSERT INTO results (game_id, winner, reason, tag, finished_at) "
    "SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)",
}


def _json_rows(rows: list[tuple[Any, ...]]) -> str:
    """Rows as one JSON array of arrays (floats exactly: their shortest round-trip text)."""
    return json.dumps(rows, separators=(",", ":"), allow_nan=False)


class GroupCommitter(WriterThread[MoveWrite]):
    """One thread writing moves: each batch is one transaction, committed before any of its
    movers is answered. `submit` returns a future that is True once the move is stored, False
    when the game had changed (its version moved on), or raises the database's error;
    `submit_async` the same as an event loop's future (a batch wakes each loop once, not
    once per move)."""

    def __init__(
        self,
        engine: Engine,
        write_lock: threading.Lock | None = None,
        max_batch: int = 512,
        on_batch: Callable[[int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.on_batch = on_batch
        # run inside each batch's transaction with the moves it stores (PostgreSQL's NOTIFY
        # is sent on commit, so the other processes hear of exactly the stored moves)
        self.announce: Callable[[Connection, list[MoveWrite]], None] | None = None
        self._postgres = engine.dialect.name == "postgresql"
        self._lock: AbstractContextManager[Any] = write_lock or nullcontext()
        # moves submitted in an event loop's current pass, handed over at its end (each
        # loop touches only its own entry)
        self._from_loops: dict[asyncio.AbstractEventLoop, list[tuple[MoveWrite, _Waiter]]] = {}
        super().__init__(max_batch, "group-commit")

    def submit(self, write: MoveWrite) -> Future[bool]:
        fut: Future[bool] = Future()
        self.enqueue(write, fut)
        return fut

    def submit_async(self, write: MoveWrite) -> asyncio.Future[bool]:
        """`submit` for a caller in an event loop. The moves an event loop submits in one
        pass go to the writer together, at the end of the pass (one wake of the writer a
        pass, not one a move)."""
        if self._closed:
            raise RuntimeError("the shared games' writer is closed")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[bool] = loop.create_future()
        waiting = self._from_loops.get(loop)
        if waiting is None:
            waiting = self._from_loops[loop] = []
            loop.call_soon(self._hand_over, loop)
        waiting.append((write, fut))
        return fut

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """The moves `loop` submitted in its last pass, to the writer."""
        waiting = self._from_loops.pop(loop, [])
        with self._cond:
            if self._closed:
                for _, fut in waiting:
                    if not fut.done():
                        fut.set_exception(RuntimeError("the shared games' writer is closed"))
                return
            self._pending.extend(waiting)
            self._cond.notify()

    def _write(self, batch: list[tuple[MoveWrite, _Waiter]]) -> None:
        outcomes: list[bool | BaseException]
        try:
            outcomes = list(self._transaction([w for w, _ in batch]))
        except Exception as exc:  # the database's error reaches every mover of the batch
            outcomes = [exc] * len(batch)
        else:
            if self.on_batch is not None:
                self.on_batch(len(batch))
        self.answer(batch, outcomes)

    def _transaction(self, writes: list[MoveWrite]) -> list[bool]:
        # plain SQL in the driver's own parameter style: the batch's statements are the same
        # few, and compiling SQLAlchemy statements per move would cost more than running them
        with self._lock, self.engine.begin() as conn:
            if self._postgres:
                stored = self._update_games_at_once(conn, writes)
                done = [w for w, ok in zip(writes, stored, strict=True) if ok]
                if done:
                    self._insert_rows_at_once(conn, done)
            else:
                stored = self._write_sqlite(conn, writes)
                done = [w for w, ok in zip(writes, stored, strict=True) if ok]
            if done and self.announce is not None:
                self.announce(conn, done)
                for w in done:
                    w.announced = True
        return stored

    def _write_sqlite(self, conn: Connection, writes: list[MoveWrite]) -> list[bool]:
        """SQLite: the batch's rows, each table's in one statement that reads them from one
        JSON array (`json_each`); which writes were stored. The driver lets other threads
        run during every statement, and an event loop busy meanwhile keeps the interpreter
        for its switch interval (5 ms) before this thread goes on: statements per move would
        cost milliseconds each. When some game's version has moved on, its row is not
        written and the games are written one by one instead, to know which. Run on the
        driver's cursor, in the batch's transaction (the engine's own bookkeeping would cost
        more than each statement)."""
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            stored = None
            if _SQLITE_JSON and len({w.game_id for w in writes}) == len(writes):
                rows = [
                    (w.game_id, w.version, w.ply, v["updated_at"], v["status"],
                     v["turn_started_at"])
                    for w in writes
                    for v in (w.game_values,)
                ]  # fmt: skip
                cursor.execute("SAVEPOINT batch")
                cursor.execute(_SQLITE_BATCH["game"], (_json_rows(rows),))
                if cursor.rowcount == len(writes):
                    stored = [True] * len(writes)
                else:  # some game changed meanwhile: find which, one by one
                    cursor.execute("ROLLBACK TO batch")
                cursor.execute("RELEASE batch")
            if stored is None:
                stored = self._update_games_one_by_one(cursor, writes)
            done = [w for w, ok in zip(writes, stored, strict=True) if ok]
            if done and _SQLITE_JSON:
                self._insert_rows_json(cursor, done)
            elif done:
                self._insert_rows_one_by_one(cursor, done)
        finally:
            cursor.close()
        return stored

    def _update_games_one_by_one(self, cursor: Any, writes: list[MoveWrite]) -> list[bool]:
        """Each game's row, if it is still at its move's version (SQLite)."""
        sql, stored = self._sql["game"], []
        for w in writes:
            v = w.game_values
            row = (
                w.version + 1, w.ply + 1, v["updated_at"], v["status"],
                v["turn_started_at"], w.game_id, w.version,
            )  # fmt: skip
            cursor.execute(sql, row)
            stored.append(cursor.rowcount == 1)
        return stored

    @staticmethod
    def _insert_rows_json(cursor: Any, done: list[MoveWrite]) -> None:
        """The stored moves' rows, their seats' clocks and results, one statement each
        (SQLite)."""
        moves = [(w.game_id, w.ply, w.move, w.played_at) for w in done]
        cursor.execute(_SQLITE_BATCH["move"], (_json_rows(moves),))
        seats = [
            (w.game_id, w.seat_colour, w.seat_remaining_ms)
            for w in done
            if w.seat_colour is not None
        ]
        if seats:
            cursor.execute(_SQLITE_BATCH["seat"], (_json_rows(seats),))
        results = [
            (w.game_id, r.winner, r.reason, r.tag, w.played_at)
            for w in done
            if (r := w.result) is not None
        ]
        if results:
            cursor.execute(_SQLITE_BATCH["result"], (_json_rows(results),))

    def _insert_rows_one_by_one(self, cursor: Any, done: list[MoveWrite]) -> None:
        """The same, a statement a row (SQLite older than 3.38)."""
        sql = self._sql
        cursor.executemany(sql["move"], [(w.game_id, w.ply, w.move, w.played_at) for w in done])
        seats = [
            (w.seat_remaining_ms, w.game_id, w.seat_colour)
            for w in done
            if w.seat_colour is not None
        ]
        cursor.executemany(sql["seat"], seats)
        results = [
            (w.game_id, r.winner, r.reason, r.tag, w.played_at)
            for w in done
            if (r := w.result) is not None
        ]
        cursor.executemany(sql["result"], results)

    @staticmethod
    def _update_games_at_once(conn: Connection, writes: list[MoveWrite]) -> list[bool]:
        """Every game's row in one statement (PostgreSQL: one round trip for the batch),
        each only if still at its move's version; which were."""
        cols: list[list[Any]] = [[], [], [], [], [], []]
        for w in writes:
            v = w.game_values
            row = (w.game_id, w.version, w.ply, v["updated_at"], v["status"], v["turn_started_at"])
            for col, value in zip(cols, row, strict=True):
                col.append(value)
        hit = conn.exec_driver_sql(
            "UPDATE games AS g SET version = v.version + 1, ply = v.ply + 1, "
            "updated_at = v.updated_at, draw_offer = NULL, status = v.status, "
            "turn_started_at = v.turn "
            "FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::float8[], %s::varchar[], "
            "%s::float8[]) AS v(id, version, ply, updated_at, status, turn) "
            "WHERE g.id = v.id AND g.version = v.version RETURNING g.id",
            tuple(cols),
        ).all()
        stored = {row[0] for row in hit}
        return [w.game_id in stored for w in writes]

    @staticmethod
    def _insert_rows_at_once(conn: Connection, done: list[MoveWrite]) -> None:
        """The stored moves' rows, their results and their seats' clocks, one statement each
        (PostgreSQL)."""
        conn.exec_driver_sql(
            "INSERT INTO moves (game_id, ply, move, played_at) "
            "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], %s::float8[])",
            (
                [w.game_id for w in done],
                [w.ply for w in done],
                [w.move for w in done],
                [w.played_at for w in done],
            ),
        )
        results = [(w, w.result) for w in done if w.result is not None]
        if results:
            conn.exec_driver_sql(
                "INSERT INTO results (game_id, winner, reason, tag, finished_at) "
                "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], %s::varchar[], "
                "%s::float8[])",
                (
                    [w.game_id for w, _ in results],
                    [r.winner for _, r in results],
                    [r.reason for _, r in results],
                    [r.tag for _, r in results],
                    [w.played_at for w, _ in results],
                ),
            )
        clocks = [w for w in done if w.seat_colour is not None]
        if clocks:
            conn.exec_driver_sql(
                "UPDATE seats AS s SET remaining_ms = v.ms "
                "FROM unnest(%s::varchar[], %s::int[], %s::int[]) AS v(game_id, colour, ms) "
                "WHERE s.game_id = v.game_id AND s.colour = v.colour",
                (
                    [w.game_id for w in clocks],
                    [w.seat_colour for w in clocks],
                    [w.seat_remaining_ms for w in clocks],
                ),
            )

    @functools.cached_property
    def _sql(self) -> dict[str, str]:
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"

        def marks(n: int) -> str:
            return ", ".join([mark] * n)

        return {
            "game": (
                f"UPDATE games SET version = {mark}, ply = {mark}, updated_at = {mark}, "
                f"draw_offer = NULL, status = {mark}, turn_started_at = {mark} "
                f"WHERE id = {mark} AND version = {mark}"
            ),
            "move": f"INSERT INTO moves (game_id, ply, move, played_at) VALUES ({marks(4)})",
            "seat": f"UPDATE seats SET remaining_ms = {mark} WHERE game_id = {mark} "
            f"AND colour = {mark}",
            "result": "INSERT INTO results (game_id, winner, reason, tag, finished_at) "
            f"VALUES ({marks(5)})",
        }
