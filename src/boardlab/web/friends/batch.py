"""Changes of many clients written in one transaction: new shared games.

Creating a game is one small insert, and with SQLite its cost is the commit's disk sync. When
many clients create games at once (a crowd, or addresses squatting invitations), one commit
per game lets a few dozen through a second and queues the rest behind the write lock, moves
included. `Batcher` is one thread that takes every change waiting, runs each in a savepoint of
one transaction and commits once; only then is each caller answered. A change that raises
(a quota reached, bad input) rolls back its own savepoint and the others go on; the database's
own errors (a full disk, which SQLite answers by rolling back the whole transaction) and a
commit that fails reach every caller of the batch, and none of it is stored.

Each change still reads the database inside the batch's transaction, so a quota counted there
sees the games the same batch added before it: batching never lets more through.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

T = TypeVar("T")
W = TypeVar("W")
Change = Callable[[Session], Any]
_Waiter = Future[Any] | asyncio.Future[Any]


def run_in_savepoints(db: Session, changes: list[Change]) -> list[Any]:
    """Each change in a savepoint of its own inside `db`'s transaction: what it returned, or
    the exception that undid it alone. The database's own trouble (SQLAlchemyError) fails
    the whole transaction instead."""
    outcomes: list[Any] = []
    for change in changes:
        savepoint = db.begin_nested()
        try:
            out = change(db)
        except SQLAlchemyError:
            raise
        except Exception as exc:
            savepoint.rollback()
            outcomes.append(exc)
            continue
        savepoint.commit()
        outcomes.append(out)
    return outcomes


class WriterThread(Generic[W]):
    """One thread that takes the items waiting, up to `max_batch` at a time, and writes them
    together (`_write`, a subclass's); `answer` settles their callers' futures, each event
    loop's in one wake-up. Subclasses set their own fields before calling `__init__`, which
    starts the thread."""

    def __init__(self, max_batch: int, name: str) -> None:
        self.max_batch = max_batch
        self._pending: list[tuple[W, _Waiter]] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def enqueue(self, item: W, fut: _Waiter) -> None:
        with self._cond:
            if self._closed:
                raise RuntimeError("the shared games' writer is closed")
            self._pending.append((item, fut))
            self._cond.notify()

    def close(self) -> None:
        """Write what is waiting, then stop."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(30)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending and self._closed:
                    return
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
            self._write(batch)

    def _write(self, batch: list[tuple[W, _Waiter]]) -> None:
        raise NotImplementedError

    @staticmethod
    def answer(batch: list[tuple[W, _Waiter]], outcomes: list[Any]) -> None:
        """Give each caller its outcome (an exception is raised to it)."""
        loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for (_, fut), outcome in zip(batch, outcomes, strict=True):
            if isinstance(fut, asyncio.Future):
                loops.setdefault(fut.get_loop(), []).append((fut, outcome))
            elif isinstance(outcome, BaseException):
                fut.set_exception(outcome)
            else:
                fut.set_result(outcome)
        for loop, waiters in loops.items():
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, waiters)


class Batch(Generic[T]):
    """A typed handle on a `Batcher` for changes that return `T`."""

    def __init__(self, batcher: Batcher) -> None:
        self.batcher = batcher

    def submit(self, change: Callable[[Session], T]) -> Future[T]:
        fut: Future[T] = Future()
        self.batcher.enqueue(change, fut)
        return fut

    def submit_async(self, change: Callable[[Session], T]) -> asyncio.Future[T]:
        """`submit` for a caller in an event loop (answered in that loop)."""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.batcher.enqueue(change, fut)
        return fut


class Batcher(WriterThread[Change]):
    """One thread committing the changes waiting, up to `max_batch` a transaction.
    `begin` opens the write transaction (the store's `_tx`, which holds SQLite's write lock
    in this process for its length)."""

    def __init__(
        self,
        begin: Callable[[], AbstractContextManager[Session]],
        max_batch: int = 128,
        name: str = "change-batch",
    ) -> None:
        self.begin = begin
        self.batches = 0  # transactions committed (or tried): for tests and figures
        super().__init__(max_batch, name)

    def _write(self, batch: list[tuple[Change, _Waiter]]) -> None:
        outcomes: list[Any] = []
        self.batches += 1
        try:
            with self.begin() as db:
                outcomes = run_in_savepoints(db, [change for change, _ in batch])
        except Exception as exc:  # the commit failed: nothing of the batch is stored
            outcomes = [exc] * len(batch)
        self.answer(batch, outcomes)


def _settle(waiters: list[tuple[asyncio.Future[Any], Any]]) -> None:
    """Settle one loop's futures of a batch (in that loop: one wake-up a batch)."""
    for fut, outcome in waiters:
        if fut.done():  # its caller was cancelled
            continue
        if isinstance(outcome, BaseException):
            fut.set_exception(outcome)
        else:
            fut.set_result(outcome)
