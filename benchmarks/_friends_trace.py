"""Where a shared game's move spends its time inside the server, for
`friends_ws.py --trace`: imported by the benchmark's server process, it wraps the stages of a
move (socket message handled, checked, handed to the group commit, batch written and
committed, the mover's wait settled, the state published, the opponent's message sent) and
stamps each with `time.perf_counter` (the same clock in every process on Linux, so the
client's stamps line up with these). It also samples the event loop's lag (a 5 ms timer's
lateness) and times the cycle collector's passes.

SIGUSR1 starts recording (the benchmark's window opens), SIGUSR2 writes what was recorded
as JSON to `$FRIENDS_TRACE.<pid>` and stops. Benchmark-only: it reaches into private
functions, and nothing of the server imports it.

For experiments, set in the benchmark's environment: FRIENDS_SWITCH (the interpreter's
switch interval, s), FRIENDS_MAX_BATCH (the group commit's batch cap), FRIENDS_GC0 (the
collector's young threshold), FRIENDS_PROFILE=FILE (the event loop's thread under cProfile
through the window), FRIENDS_GC_LOOK=1 (print what each collection finds young).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import re
import signal
import threading
import time
from typing import Any

from boardlab.web.friends import batch as batch_mod
from boardlab.web.friends import hub as hub_mod
from boardlab.web.friends import moves as moves_mod
from boardlab.web.friends import sockets as sockets_mod
from boardlab.web.friends import storecore
from boardlab.web.friends.groupcommit import GroupCommitter

clock = time.perf_counter
stamps: dict[tuple[str, int], dict[str, float]] = {}
batches: list[tuple[float, float, float, float, float, int]] = []
lags: list[tuple[float, float]] = []
collections: list[tuple[float, int, float, float]] = []
recording = False
_futures: dict[int, tuple[str, int]] = {}
_local = threading.local()
_lag_task: asyncio.Task[None] | None = None


def mark(game: str, ply: int, stage: str, t: float | None = None) -> None:
    if recording:
        stamps.setdefault((game, ply), {}).setdefault(stage, clock() if t is None else t)


async def _lag() -> None:
    while True:
        t = clock()
        await asyncio.sleep(0.005)
        if recording:
            lags.append((t, clock() - t - 0.005))


_handle = sockets_mod._handle


async def handle(ws: Any, friends: Any, game_id: str, token: str | None, text: str) -> None:
    global _lag_task
    if _lag_task is None:
        _lag_task = asyncio.get_running_loop().create_task(_lag())
    ply = None
    if recording and '"move"' in text:
        msg = json.loads(text)
        if msg.get("type") == "move" and isinstance(msg.get("ply"), int):
            ply = msg["ply"]
            mark(game_id, ply, "handle")
    await _handle(ws, friends, game_id, token, text)
    if ply is not None:
        mark(game_id, ply, "handled")


_prepare = moves_mod.StoreMoves._prepare_move


def prepare(self: Any, live: Any, token: Any, move: str, ply: int, first: bool) -> object:
    out = _prepare(self, live, token, move, ply, first)
    if isinstance(out, storecore._Prepared):
        mark(out.write.game_id, out.write.ply, "prepared")
    return out


_settle_move = moves_mod.StoreMoves._settle


def settle_move(self: Any, live: Any, prep: Any, stored: bool) -> object:
    mark(prep.write.game_id, prep.write.ply, "resumed")
    return _settle_move(self, live, prep, stored)


_hand_over = getattr(GroupCommitter, "_hand_over", None)  # older servers: moves a pass


def hand_over(self: GroupCommitter, loop: asyncio.AbstractEventLoop) -> None:
    t = clock()
    for w, _ in self._from_loops.get(loop, []):
        mark(w.game_id, w.ply, "handover", t)
    assert _hand_over is not None
    _hand_over(self, loop)


_transaction = GroupCommitter._transaction
_write = GroupCommitter._write


lock_waits: list[float] = []


class _TimedLock:
    """The writer's lock, with how long each taking of it waited."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock

    def __enter__(self) -> None:
        t = clock()
        self.lock.__enter__()
        if recording:
            lock_waits.append(clock() - t)

    def __exit__(self, *exc: Any) -> None:
        self.lock.__exit__(*exc)


def transaction(self: GroupCommitter, writes: list[Any]) -> list[bool]:
    if not getattr(self, "_traced", False):
        from sqlalchemy import event

        def before_commit(conn: Any) -> None:
            _local.commit = clock()

        event.listen(self.engine, "commit", before_commit)
        self._traced = True  # type: ignore[attr-defined]
        self._lock = _TimedLock(self._lock)  # type: ignore[assignment]
    _local.commit = float("nan")
    out = _transaction(self, writes)
    _local.tx_end = clock()
    return out


_at_once = getattr(GroupCommitter, "_write_sqlite_at_once", None)  # SQLite: one statement


def at_once(self: GroupCommitter, writes: list[Any]) -> bool:
    """The batch's statements and its commit are one step: stamped as the commit's."""
    _local.commit = clock()
    assert _at_once is not None
    return bool(_at_once(self, writes))


def write(self: GroupCommitter, batch: list[Any]) -> None:
    t0 = clock()
    cpu0 = time.thread_time()
    if recording:
        for w, fut in batch:
            if not hasattr(w, "game_id"):
                continue  # a change other than a move
            mark(w.game_id, w.ply, "batch")
            _futures[id(fut)] = (w.game_id, w.ply)
    before = _local.__dict__.setdefault("writes", 0)
    _write(self, batch)
    parts = _local.writes - before  # a batch written in parts: only its parts are recorded
    _local.writes += 1
    t3 = clock()
    if recording and not parts:
        batches.append(
            (t0, _local.commit, _local.tx_end, t3, time.thread_time() - cpu0, len(batch))
        )
        for w, _ in batch:
            if not hasattr(w, "game_id"):
                continue
            mark(w.game_id, w.ply, "commit", _local.commit)
            mark(w.game_id, w.ply, "committed", _local.tx_end)


_settle_futures = batch_mod._settle


def settle_futures(waiters: list[Any]) -> None:
    t = clock()
    for fut, _ in waiters:
        key = _futures.pop(id(fut), None)
        if key is not None:
            mark(*key, "settled", t)
    _settle_futures(waiters)


_publish = hub_mod.Hub.publish


def publish(self: Any, game_id: str, state: Any) -> None:
    ply = state["ply"] if isinstance(state, dict) else state.ply
    if ply:
        mark(game_id, ply - 1, "publish")
    _publish(self, game_id, state)


_PLY = re.compile(r'"id":"([^"]+)".*?"ply":(\d+)')
_TURN = re.compile(r'"to_move":(\d)')
_YOU = re.compile(r'"you":(\d|null),"person"')


async def send_loop(ws: Any, listener: Any) -> None:
    try:
        while True:
            message = await listener.queue.get()
            t = clock()
            await ws.send_text(message)
            if recording:
                m, turn, you = _PLY.search(message), _TURN.search(message), _YOU.search(message)
                if m and turn and you and turn.group(1) == you.group(1) and int(m.group(2)):
                    key = (m.group(1), int(m.group(2)) - 1)
                    mark(*key, "dequeued", t)
                    mark(*key, "sent")
    except Exception:
        pass


def _stamp_sent(message: str, began: float) -> None:
    """Stamp the opponent's message of a move: when its write began and ended."""
    m, turn, you = _PLY.search(message), _TURN.search(message), _YOU.search(message)
    if m and turn and you and turn.group(1) == you.group(1) and int(m.group(2)):
        key = (m.group(1), int(m.group(2)) - 1)
        mark(*key, "dequeued", began)
        mark(*key, "sent")


_deliver = getattr(hub_mod.Listener, "deliver", None)  # servers that write at once


def deliver(self: Any, message: str) -> None:
    at_once = recording and self.idle()
    t = clock()
    assert _deliver is not None
    _deliver(self, message)
    if at_once:
        _stamp_sent(message, t)


async def drain(self: Any) -> None:
    while True:
        message = await self.queue.get()
        self.sending = True
        try:
            if self.rest is not None:
                with contextlib.suppress(Exception):
                    await self.rest
            t = clock()
            await self.send(message)
            if recording:
                _stamp_sent(message, t)
        finally:
            self.sending = False


def _gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        if recording and os.environ.get("FRIENDS_GC_LOOK"):
            objs = gc.get_objects(info["generation"])
            sized = sorted(
                ((len(o), type(o).__name__) for o in objs if isinstance(o, (list, dict, set))),
                reverse=True,
            )[:5]
            kinds: dict[str, int] = {}
            for o in objs:
                kinds[type(o).__name__] = kinds.get(type(o).__name__, 0) + 1
            top = sorted(kinds.items(), key=lambda kv: -kv[1])[:8]
            print("gc young:", len(objs), sized, top, flush=True)
            del objs
        _local.gc = clock()
        _local.gc_cpu = time.thread_time()
    elif recording:
        cpu = time.thread_time() - _local.gc_cpu
        collections.append((_local.gc, info["generation"], clock() - _local.gc, cpu))


_profile: Any = None


def _start(*_: Any) -> None:
    global recording, _profile
    if os.environ.get("FRIENDS_PROFILE"):  # the event loop's thread under cProfile
        import cProfile

        _profile = cProfile.Profile()
        _profile.enable()
    stamps.clear()
    batches.clear()
    lags.clear()
    collections.clear()
    lock_waits.clear()
    tx_holds.clear()
    recording = True


def _dump(*_: Any) -> None:
    global recording
    recording = False
    if _profile is not None:
        _profile.disable()
        _profile.dump_stats(os.environ["FRIENDS_PROFILE"])
    out = {
        "stamps": [[g, p, s] for (g, p), s in stamps.items()],
        "batches": batches,
        "lags": lags,
        "gc": collections,
        "lock_waits": lock_waits,
        "tx": tx_holds,
    }
    path = f"{os.environ['FRIENDS_TRACE']}.{os.getpid()}"
    with open(path + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(path + ".tmp", path)


tx_holds: list[tuple[str, float, float]] = []  # (caller, waited, held)


def _timed_tx(tx: Any) -> Any:
    import contextlib
    import sys

    @contextlib.contextmanager
    def timed(self: Any) -> Any:
        caller = sys._getframe(2).f_code.co_name
        t0 = clock()
        with tx(self) as db:
            t1 = clock()
            yield db
        if recording:
            tx_holds.append((caller, t1 - t0, clock() - t1))

    return timed


def install() -> None:
    storecore.StoreCore._tx = _timed_tx(storecore.StoreCore._tx)  # type: ignore[attr-defined]
    sockets_mod._handle = handle
    if _deliver is not None:
        hub_mod.Listener.deliver = deliver  # type: ignore[method-assign]
        hub_mod.Listener.drain = drain  # type: ignore[method-assign]
    else:
        sockets_mod._send_loop = send_loop
    moves_mod.StoreMoves._prepare_move = prepare  # type: ignore[method-assign]
    moves_mod.StoreMoves._settle = settle_move  # type: ignore[method-assign]
    if _hand_over is not None:
        GroupCommitter._hand_over = hand_over  # type: ignore[method-assign]
    GroupCommitter._transaction = transaction  # type: ignore[method-assign]
    GroupCommitter._write = write  # type: ignore[method-assign]
    if _at_once is not None:
        GroupCommitter._write_sqlite_at_once = at_once  # type: ignore[method-assign]
    batch_mod._settle = settle_futures
    hub_mod.Hub.publish = publish  # type: ignore[method-assign]
    gc.callbacks.append(_gc)
    if os.environ.get("FRIENDS_SWITCH"):  # an experiment: the interpreter's switch interval
        import sys

        sys.setswitchinterval(float(os.environ["FRIENDS_SWITCH"]))
    if os.environ.get("FRIENDS_MAX_BATCH"):  # an experiment: the group commit's batch cap
        init = GroupCommitter.__init__
        most = int(os.environ["FRIENDS_MAX_BATCH"])

        def capped(self: Any, *a: Any, **k: Any) -> None:
            k["max_batch"] = most
            init(self, *a, **k)

        GroupCommitter.__init__ = capped  # type: ignore[method-assign]
    if os.environ.get("FRIENDS_GC0"):  # an experiment: the collector's young threshold
        from boardlab.web import server

        server.YOUNG_THRESHOLD = int(os.environ["FRIENDS_GC0"])
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _dump)
