"""Bounded work per request: a deadline, cancellation when the client goes away, and a fair
share of the compute threads for every client.

Computer moves and playouts run in worker threads. `WorkGate.run` gives each request a
`Budget` (its deadline and a cancel flag that long loops check between steps), takes one of the
client's own slots and then one of the shared slots, and watches the connection: when the client
disconnects the budget is cancelled and the thread stops at its next check. A client that
already has its share running and a few more waiting is answered 429 at once; a request that
waits too long for a shared slot is answered 503, so no client can hold the others up.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from boardlab.core.errors import BoardLabError

T = TypeVar("T")
Remote = tuple[str, dict[str, Any], Callable[[Any], T]]


class ServerBusyError(BoardLabError):
    """The server has no thread free for this request now (HTTP 503); try again shortly."""


class TooManyRequestsError(BoardLabError):
    """This client already has its share of the server's threads busy (HTTP 429)."""


class CancelledError(BoardLabError):
    """The request was given up (client gone, or its deadline passed before it started)."""


@dataclass
class Budget:
    """What one request may spend: a deadline (monotonic seconds) and a cancel flag."""

    deadline: float
    cancel: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def of(cls, seconds: float) -> Budget:
        """A budget that ends `seconds` from now."""
        return cls(time.monotonic() + seconds)

    def left(self) -> float:
        """Seconds left before the deadline (0 when past it)."""
        return max(0.0, self.deadline - time.monotonic())

    def exhausted(self) -> bool:
        """True once the deadline has passed or the request was cancelled."""
        return self.cancel.is_set() or time.monotonic() >= self.deadline

    def check(self) -> None:
        """Raise CancelledError if the request should stop now."""
        if self.cancel.is_set():
            raise CancelledError("the request was cancelled (the client went away)")
        if time.monotonic() >= self.deadline:
            raise CancelledError("the request ran out of time")


@dataclass(frozen=True)
class WorkLimits:
    """The gate's settings; every field can be set from `boardlab serve`."""

    threads: int = 4  # shared compute threads
    heavy_threads: int = 2  # of those, how many may run heavy work (playouts, levels 3-4)
    per_client: int = 2  # of those, how many one client may use at once
    waiting_per_client: int = 4  # further requests a client may have queued
    queue_seconds: float = 10.0  # longest wait for a shared thread before 503
    move_seconds: float = 20.0  # deadline of one computer move (players have own caps)
    playout_seconds: float = 15.0  # deadline of a playout; the plies played so far return
    processes: bool = False  # heavy work in worker processes (web.workers), not threads
    busy_forced_seconds: float = 0.01  # forced-win search of a move while others wait
    quick_threads: int = 4  # threads for replays (state, analysis, records), apart from those


class _ClientSlots:
    """One client's share: computations and quick replays each have their own slots."""

    def __init__(self, size: int) -> None:
        self.limiter = anyio.CapacityLimiter(size)
        self.quick = anyio.CapacityLimiter(size)
        self.users = 0  # computations inside the gate, running or waiting
        self.quick_users = 0  # replays inside the gate


class WorkGate:
    """Shared and per-client limits for the compute threads (one per app)."""

    def __init__(self, limits: WorkLimits | None = None, pool: Any = None) -> None:
        self.limits = limits or WorkLimits()
        self.pool = pool  # a web.workers.WorkerPool for heavy work, or None: threads
        self.shared = anyio.CapacityLimiter(self.limits.threads)
        # heavy work never takes every thread: the rest stay free for quick moves
        self.heavy = anyio.CapacityLimiter(
            max(1, min(self.limits.heavy_threads, self.limits.threads))
        )
        # replays (state, analysis, records) have threads of their own: a page's quick
        # requests never wait behind long computations, and cannot crowd them out either
        self.quick = anyio.CapacityLimiter(max(1, self.limits.quick_threads))
        self._clients: dict[str, _ClientSlots] = {}
        self._in_use = 0  # a plain count, safe to read from the worker threads

    def in_use(self) -> int:
        """Computations inside the gate now (running or waiting), all clients together."""
        return self._in_use

    def busy(self) -> bool:
        """True when more requests are inside the gate than it has threads (some wait):
        optional work (the forced-win search of a move) is then cut short."""
        return self.in_use() > self.limits.threads

    async def run(
        self,
        request: Request,
        seconds: float,
        work: Callable[[Budget], T],
        heavy: bool = False,
        remote: Remote[T] | None = None,
        quick: bool = False,
    ) -> T:
        """Run `work(budget)` in a worker thread under the client's and the shared limits
        (and the heavy-work limit when `heavy`). With a worker pool, heavy work described by
        `remote` (kind, request data, parser of the answer) runs in a worker process.
        `quick` work (a replay) uses the client's and the gate's replay slots instead."""
        client = request.client.host if request.client else "?"
        lim = self.limits
        slots = self._clients.get(client)
        if slots is None:
            slots = self._clients[client] = _ClientSlots(lim.per_client)
        if (slots.quick_users if quick else slots.users) >= lim.per_client + lim.waiting_per_client:
            raise TooManyRequestsError(
                f"too many requests at once from this client (at most {lim.per_client} "
                f"running and {lim.waiting_per_client} waiting); try again when one is answered"
            )
        if quick:
            slots.quick_users += 1
        else:
            slots.users += 1
            self._in_use += 1
        budget = Budget.of(seconds)
        outcome: list[T] = []
        failure: list[BaseException] = []

        async def main(cancel: anyio.CancelScope) -> None:
            try:
                outcome.append(await self._run(slots, budget, work, heavy, remote, quick))
            except Exception as exc:  # raised again outside the task group, unwrapped
                failure.append(exc)
            finally:
                cancel.cancel()

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_watch_disconnect, request, budget)
                await main(tg.cancel_scope)
            if failure:
                raise failure[0]
            return outcome[0]
        finally:
            if quick:
                slots.quick_users -= 1
            else:
                slots.users -= 1
                self._in_use -= 1
            idle = slots.users == 0 and slots.quick_users == 0
            if idle and self._clients.get(client) is slots:
                del self._clients[client]

    async def _run(
        self,
        slots: _ClientSlots,
        budget: Budget,
        work: Callable[[Budget], T],
        heavy: bool,
        remote: Remote[T] | None,
        quick: bool = False,
    ) -> T:
        mine = "the server is busy with this client's other requests"
        full = "the server is busy; try again in a few seconds"
        limiters: list[anyio.CapacityLimiter]
        if quick:
            limiters, messages = [slots.quick, self.quick], [mine, full]
        else:
            limiters = [slots.limiter, *([self.heavy] if heavy else []), self.shared]
            messages = [
                mine,
                *(["the server is busy with long computations; try again shortly"] * heavy),
                full,
            ]
        end = min(self.limits.queue_seconds, budget.left()) + anyio.current_time()
        held: list[anyio.CapacityLimiter] = []
        try:
            for limiter, message in zip(limiters, messages, strict=True):
                with anyio.move_on_after(max(0.0, end - anyio.current_time())) as scope:
                    await limiter.acquire()
                if scope.cancelled_caught:
                    raise ServerBusyError(message)
                held.append(limiter)
            budget.check()
            if heavy and remote is not None and self.pool is not None:
                kind, payload, parse = remote
                result: T = await self.pool.call(kind, payload, budget, parse)
                return result
            # not abandoned on cancel: the thread's slot is held until it really ends, and
            # the budget makes it end soon
            return await anyio.to_thread.run_sync(work, budget)
        finally:
            for limiter in reversed(held):
                limiter.release()


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block Ctrl-C (SIGINT) in this thread while processes are started: they, and threads
    started here (the pool's manager, which starts replacement workers), inherit the mask,
    so a Ctrl-C at the terminal reaches only the server, which then stops its workers itself
    (a worker still importing would otherwise die with a KeyboardInterrupt traceback)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


async def _watch_disconnect(request: Request, budget: Budget) -> None:
    """Cancel `budget` as soon as the client disconnects."""
    while not budget.cancel.is_set():
        if await request.is_disconnected():
            budget.cancel.set()
            return
        await anyio.sleep(0.2)
