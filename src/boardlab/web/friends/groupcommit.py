"""The writer that commits moves of many shared games together.

`GroupCommitter` is one thread that takes every move waiting, writes them all in one
transaction and commits once (one disk sync for SQLite, one round trip of commit for
PostgreSQL); only then does each mover hear that its move is stored. Under load the batch
grows with the load, so the cost of a commit is shared by many moves. A move is written only
if its game is still at the version the move was made at (see `boardlab.web.friends.live`).

Other small changes that come as often as games end (a rematch's new game) ride in the same
batch, each in a savepoint of its own (`submit_change`): a transaction for each would hold
SQLite's one write lock through a disk sync of its own, and the moves waiting behind it would
wait for them all. On PostgreSQL they share the moves' transaction; on SQLite, whose moves
are written by one statement (`_SQLITE_AT_ONCE`), the moves are committed and answered first
and the changes follow in one transaction.
"""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session

from boardlab.web.friends.batch import Change, WriterThread, run_in_savepoints
from boardlab.web.friends.db import param_mark
from boardlab.web.friends.live import ResultView


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
T = TypeVar("T")

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


# A whole batch of moves as ONE statement in SQLite's autocommit mode (it begins, writes every
# table and commits, syncing the log, within one step of the driver): an INSERT into a view of
# the writer's connection whose trigger runs the statements above. The driver lets other
# threads run around every statement it steps, and the writer then waits for the event loop
# to let go of the interpreter (up to its switch interval, 5 ms) before it goes on: one
# statement a batch instead of six is one such wait instead of a dozen. When some game's
# version has moved on, the trigger aborts the statement (nothing of it is stored) before any
# write, and the batch is written again in a transaction that finds which.
_STALE = "boardlab: a game of the batch has changed"
_SQLITE_AT_ONCE = (
    "CREATE TEMP VIEW IF NOT EXISTS boardlab_move_batch (games, moves, seats, results) "
    "AS SELECT NULL, NULL, NULL, NULL",
    "CREATE TEMP TRIGGER IF NOT EXISTS boardlab_move_batch_write "
    "INSTEAD OF INSERT ON boardlab_move_batch BEGIN "
    "SELECT RAISE(ABORT, '" + _STALE + "') WHERE (SELECT count(*) FROM json_each(NEW.games) "
    "AS j JOIN games ON games.id = j.value ->> 0 AND games.version = j.value ->> 1) "
    "!= json_array_length(NEW.games); "
    + ";\n".join(
        _SQLITE_BATCH[k].replace("json_each(?)", f"json_each(NEW.{k}s)")
        for k in ("game", "move", "seat", "result")
    )
    + "; END",
)
_SQLITE_AT_ONCE_INSERT = "INSERT INTO temp.boardlab_move_batch VALUES (?, ?, ?, ?)"


def _json_rows(rows: list[tuple[Any, ...]]) -> str:
    """Rows as one JSON array of arrays (floats exactly: their shortest round-trip text)."""
    return json.dumps(rows, separators=(",", ":"), allow_nan=False)


class GroupCommitter(WriterThread[MoveWrite | Change]):
    """One thread writing moves: each batch is one transaction, committed before any of its
    movers is answered. `submit` returns a future that is True once the move is stored, False
    when the game had changed (its version moved on), or raises the database's error;
    `submit_async` the same as an event loop's future (a batch wakes each loop once, not
    once per move); `submit_change` a change other than a move, in the same transaction."""

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
        self._sqlite = engine.dialect.name == "sqlite"
        self._lock: AbstractContextManager[Any] = write_lock or nullcontext()
        super().__init__(max_batch, "group-commit")

    def submit(self, write: MoveWrite) -> Future[bool]:
        fut: Future[bool] = Future()
        self.enqueue(write, fut)
        return fut

    def submit_change(self, change: Callable[[Session], T]) -> Future[T]:
        """`change(session)` in the next batch's transaction, in a savepoint of its own: the
        future has its result once the batch is committed. An exception it raises undoes
        only its own savepoint and is raised to its caller, unless it is the database's
        (`SQLAlchemyError`), which fails the whole batch, moves included: the database may
        have undone the whole transaction (SQLite does, for a full disk). The change may not
        commit; it may read, and then sees the batch's moves."""
        fut: Future[T] = Future()
        self.enqueue(change, fut)
        return fut

    def submit_async(self, write: MoveWrite) -> asyncio.Future[bool]:
        """`submit` for a caller in an event loop. The move goes to the writer at once; a
        writer that was waiting is woken by the first move, and cannot run before the event
        loop lets go of the interpreter (at its next wait for the sockets, or after the
        interpreter's switch interval), so the moves of the loop's pass still go together."""
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.enqueue(write, fut)
        return fut

    def _write(self, batch: list[tuple[MoveWrite | Change, _Waiter]]) -> None:
        if self._sqlite and _SQLITE_JSON:
            moves = [item for item in batch if isinstance(item[0], MoveWrite)]
            if moves and len(moves) < len(batch):
                # SQLite: the moves first, in their one statement, answered at once; then
                # the other changes, in a transaction of their own (with the moves, every
                # move would wait for the changes' many statements)
                self._write(moves)
                self._write([item for item in batch if not isinstance(item[0], MoveWrite)])
                return
        outcomes: list[Any]
        try:
            outcomes = self._transaction([w for w, _ in batch])
        except Exception as exc:  # the database's error reaches every caller of the batch
            outcomes = [exc] * len(batch)
        else:
            if self.on_batch is not None:
                self.on_batch(sum(isinstance(w, MoveWrite) for w, _ in batch))
        self.answer(batch, outcomes)

    def _transaction(self, items: list[MoveWrite | Change]) -> list[Any]:
        """The batch in one transaction: each move's outcome (stored or not), each change's
        result or exception, in the order of `items`."""
        writes = [w for w in items if isinstance(w, MoveWrite)]
        changes = [c for c in items if not isinstance(c, MoveWrite)]
        if (
            self._sqlite
            and _SQLITE_JSON
            and len(writes) == len(items)
            and len({w.game_id for w in writes}) == len(writes)
            and self._write_sqlite_at_once(writes)
        ):
            return [True] * len(writes)
        # plain SQL in the driver's own parameter style: the batch's statements are the same
        # few, and compiling SQLAlchemy statements per move would cost more than running them
        with self._lock, self.engine.begin() as conn:
            stored: list[bool] = []
            done: list[MoveWrite] = []
            if writes and self._postgres:
                stored = self._update_games_at_once(conn, writes)
                done = [w for w, ok in zip(writes, stored, strict=True) if ok]
                if done:
                    self._insert_rows_at_once(conn, done)
            elif writes:
                stored = self._write_sqlite(conn, writes)
                done = [w for w, ok in zip(writes, stored, strict=True) if ok]
            changed = self._run_changes(conn, changes) if changes else []
            if done and self.announce is not None:
                self.announce(conn, done)
                for w in done:
                    w.announced = True
        moves, others = iter(stored), iter(changed)
        return [next(moves) if isinstance(w, MoveWrite) else next(others) for w in items]

    def _write_sqlite_at_once(self, writes: list[MoveWrite]) -> bool:
        """SQLite: the batch's moves in one statement that is its own transaction (see
        `_SQLITE_AT_ONCE`); True once they are all committed, False when the statement was
        undone whole (a game changed meanwhile, or another process held the write lock: the
        caller's transaction then waits for it) and nothing of it is stored."""
        rows = [
            (w.game_id, w.version, w.ply, v["updated_at"], v["status"], v["turn_started_at"])
            for w in writes
            for v in (w.game_values,)
        ]
        moves = [(w.game_id, w.ply, w.move, w.played_at) for w in writes]
        seats = [
            (w.game_id, w.seat_colour, w.seat_remaining_ms)
            for w in writes
            if w.seat_colour is not None
        ]
        results = [
            (w.game_id, r.winner, r.reason, r.tag, w.played_at)
            for w in writes
            if (r := w.result) is not None
        ]
        params = (_json_rows(rows), _json_rows(moves), _json_rows(seats), _json_rows(results))
        with self._lock:
            conn = self.engine.raw_connection()
            try:
                dbapi = conn.dbapi_connection
                assert dbapi is not None
                if not conn.info.get("boardlab_move_batch"):
                    for sql in _SQLITE_AT_ONCE:
                        dbapi.execute(sql)
                    conn.info["boardlab_move_batch"] = True
                if dbapi.in_transaction:  # left open by an error: a fresh start
                    dbapi.rollback()
                try:
                    dbapi.execute(_SQLITE_AT_ONCE_INSERT, params).close()
                except sqlite3.IntegrityError as exc:
                    if _STALE not in str(exc):
                        raise
                    return False
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) and "busy" not in str(exc):
                        raise
                    return False
            finally:
                conn.close()
        return True

    @staticmethod
    def _run_changes(conn: Connection, changes: list[Change]) -> list[Any]:
        """Each change in a savepoint of its own, on a session in the batch's transaction
        (committing the session releases its savepoint; the batch's commit stores it)."""
        with Session(
            bind=conn, expire_on_commit=False, join_transaction_mode="create_savepoint"
        ) as db:
            outcomes = run_in_savepoints(db, changes)
            db.commit()
        return outcomes

    def _write_sqlite(self, conn: Connection, writes: list[MoveWrite]) -> list[bool]:
        """SQLite, a batch that `_write_sqlite_at_once` cannot take (changes other than moves
        ride with it, or some game changed meanwhile): the batch's rows, each table's in one
        statement that reads them from one JSON array (`json_each`); which writes were
        stored. The driver lets other threads
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
        mark = param_mark(self.engine.dialect)

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
