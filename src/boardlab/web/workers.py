"""Heavy computations (playouts, level 3-4 moves, the pie) in worker processes, so that a long
search never holds the server process's interpreter lock while quick requests wait.

Each worker has its own `Service` (player pools, open tables) and is killed with the server
(parent-death signal on Linux). A request's budget travels as its deadline (the monotonic clock
is shared by every process on the machine) and a cancel flag in shared memory that the worker
watches; a worker that dies (e.g. killed for memory) breaks only the requests it was running:
the pool is started again and they are answered 503.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

import anyio

from boardlab.web import schemas as s
from boardlab.web.limits import Budget, ServerBusyError, sigint_blocked

T = TypeVar("T")
WORKER_NICE = 5
WORKER_MEMORY_MB = 220  # a worker over this after a request drops its idle players
WORKER_TASKS = 200  # and each worker is replaced after this many requests

_service: Any = None
_flags: Any = None


def _init_worker(tables: str | None, flags: Any, server: int) -> None:
    """Worker start: die with the server, leave Ctrl-C to the server, make the service."""
    global _service, _flags
    from boardlab.solver.store import TableStore
    from boardlab.web.processes import set_parent_death_signal
    from boardlab.web.service import Service

    set_parent_death_signal(server)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with suppress(OSError):
        os.nice(WORKER_NICE)  # the server process and quick requests come first
    _service = Service(TableStore(Path(tables) if tables else None))
    _flags = flags


def _run_in_worker(kind: str, payload: dict[str, Any], slot: int, deadline: float) -> Any:
    """One heavy request in a worker; returns the answer as plain data."""
    budget = Budget(deadline)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            if _flags[slot]:
                budget.cancel.set()
                return

    threading.Thread(target=watch, daemon=True).start()
    try:
        if kind == "move":
            return _service.computer_move(
                s.MoveRequest.model_validate(payload), budget
            ).model_dump()
        if kind == "playout":
            return _service.playout(s.PlayoutRequest.model_validate(payload), budget).model_dump()
        if kind == "estimate":
            from boardlab.web.estimates import estimate_out

            return estimate_out(s.EstimateRequest.model_validate(payload), budget).model_dump()
        if kind == "pie":
            return _service.pie(s.PieRequest.model_validate(payload)).model_dump()
        if kind == "warm-up":  # load the players and their compiled kernels
            _service.computer_move(
                s.MoveRequest.model_validate({"size": 5, "level": "3", "forced": False}), budget
            )
            return "ready"
        raise ValueError(f"unknown work {kind!r}")
    finally:
        done.set()
        _bound_memory()


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _bound_memory() -> None:
    """After a request: a worker over its memory bound drops its idle players (and their
    search tables) so the memory goes back."""
    if _rss_mb() > WORKER_MEMORY_MB:
        _service.players.drop()
        gc.collect()


class WorkerPool:
    """`size` worker processes, started on first use (or by `warm_up`)."""

    def __init__(self, size: int, tables: Path | None) -> None:
        import multiprocessing as mp

        self.size = size
        self._tables = str(tables) if tables else None
        self._ctx = mp.get_context("spawn")
        self._flags = self._ctx.Array("b", size, lock=False)
        self._free = list(range(size))
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.size,
                    mp_context=self._ctx,
                    initializer=_init_worker,
                    initargs=(self._tables, self._flags, os.getpid()),
                    max_tasks_per_child=WORKER_TASKS,
                )
            return self._executor

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def warm_up(self) -> None:
        """Start the workers now (they import the players and compile their kernels)."""
        pool = self._pool()
        with sigint_blocked():
            futures = [pool.submit(_run_in_worker, "warm-up", {}, 0, float("inf")) for _ in "ab"]
        for f in futures:
            f.result(timeout=120)

    async def call(
        self, kind: str, payload: dict[str, Any], budget: Budget, parse: Callable[[Any], T]
    ) -> T:
        """Run one request in a worker; the caller holds a heavy slot, so one is free."""
        slot = self._free.pop()
        self._flags[slot] = 0
        pool = self._pool()
        try:
            try:
                with sigint_blocked():
                    future: Future[Any] = pool.submit(
                        _run_in_worker, kind, payload, slot, budget.deadline
                    )
                while not future.done():
                    if budget.cancel.is_set():
                        self._flags[slot] = 1  # the worker stops at its next check
                    await anyio.sleep(0.01)
                result = future.result()
            except BrokenProcessPool:
                self._restart(pool)
                raise ServerBusyError(
                    "a worker process stopped (out of memory?); try again"
                ) from None
            return parse(result)
        finally:
            self._flags[slot] = 0
            self._free.append(slot)

    def alive(self) -> bool:
        """False when the pool was started and one of its processes has died (it is started
        again on the next request); True before the start and while all run."""
        with self._lock:
            pool = self._executor
        procs = getattr(pool, "_processes", None) or {}
        return all(p.is_alive() for p in list(procs.values()))

    def close(self) -> None:
        """Stop the workers (running requests are told to stop)."""
        for i in range(self.size):
            self._flags[i] = 1
        with self._lock:
            pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
