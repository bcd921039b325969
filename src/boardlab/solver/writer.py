"""Pack files written on a thread of their own, so that solving goes on meanwhile.

A solved pack's codes go into the cache of child tiers at once; its file follows in two
steps: compressed and written under a temporary name (`stage_pack`, on the writer's thread
or as a task of the solving threads), then synced and renamed into place (`commit_pack`) on
a thread that does nothing else, so that no solving thread waits for the disk. A file has
its final name only once its bytes are synced. The next level can start before the last
pack of this one is on disk: a reader that misses the cache waits for the pack's file
(`wait_written`), and the solve writes its manifest only once every file is written
(`PackWriter.flush`). The files' bytes are those of `write_pack` in the solving thread.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from boardlab.core.timing import add_time, stamp
from boardlab.solver.tierfile import commit_pack, stage_pack

MAX_PENDING = 4  # files waiting to be written, at most (each holds a pack's codes)
MAX_PENDING_BYTES = 256 << 20  # their codes, at most (beyond one pack): the memory budget
# counts the codes the cache keeps, and the cache may drop a pack still waiting


class _Write:
    """One pack file to write, once, by whichever thread comes first: the thread it was
    queued for, or a reader that needs the file before that thread got to it (a solving
    thread must never wait for a write queued behind its own run: with every thread waiting
    so, nothing would run). The thread that stages the file hands its sync and rename to
    the syncing thread (`sync`), which only ever waits for the disk."""

    def __init__(
        self,
        stage: Callable[[], Path],
        commit: Callable[[Path], int],
        sync: Callable[[Callable[[], None]], object],
    ) -> None:
        self._stage = stage
        self._commit = commit
        self._sync = sync
        self._claim = threading.Lock()
        self._done = threading.Event()
        self._error: BaseException | None = None
        self.size = 0

    @property
    def finished(self) -> bool:
        """The write is over (done or failed)."""
        return self._done.is_set()

    def start(self) -> None:
        """Stage the file unless another thread does or did, and hand it to the syncing
        thread; returns without waiting for the disk."""
        if not self._claim.acquire(blocking=False):
            return
        try:
            tmp = self._stage()
        except BaseException as exc:  # handed to every thread that waits for it
            self._error = exc
            self._done.set()
            return
        try:
            self._sync(lambda: self._finish(tmp))
        except RuntimeError:  # the syncing thread is shut down: synced here
            self._finish(tmp)

    def _finish(self, tmp: Path) -> None:
        try:
            self.size = self._commit(tmp)
        except BaseException as exc:
            self._error = exc
        finally:
            self._done.set()

    def run(self) -> int:
        """`start`, then wait until the file has its name, and return its size; raises the
        write's error."""
        self.start()
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self.size


_PENDING: dict[Path, _Write] = {}
_LOCK = threading.Lock()


def wait_written(path: Path) -> None:
    """Return once the file at `path` is written, if a writer of this process has it under
    way: written here if no thread has started it (a failed write raises its error here)."""
    with _LOCK:
        job = _PENDING.get(path)
    if job is not None:
        job.run()


class PackWriter:
    """Writes pack files on a thread of its own, one at a time, or as tasks of the solving
    threads' `pool` (no more threads than cores: a third one beside two solving threads on
    two cores cost more than it saved)."""

    def __init__(self, pool: ThreadPoolExecutor | None = None) -> None:
        self._own = pool is None
        self._pool = pool or ThreadPoolExecutor(1, thread_name_prefix="boardlab-write")
        self._syncer = ThreadPoolExecutor(1, thread_name_prefix="boardlab-sync")
        self._mine: list[tuple[Path, _Write, Future[None]]] = []
        self._bytes: dict[int, int] = {}  # codes' bytes of each waiting write, by id(job)
        # "write" (and "write cpu") of the threads that stage files, "sync" of the syncing one
        self.timings: dict[str, float] = {}
        self._timing = threading.Lock()

    def submit(
        self,
        path: Path,
        tiers: list[tuple[int, Any]],
        header: dict[str, Any],
        codec: str,
    ) -> None:
        """Write a pack's file after those submitted before; raises the error of an earlier
        write that failed. First waits for (or writes) the oldest ones while MAX_PENDING
        files or MAX_PENDING_BYTES of codes are waiting."""
        self._reap(MAX_PENDING - 1)
        job = _Write(
            lambda: self._timed("write", stage_pack, path, tiers, header, codec),
            lambda tmp: self._timed("sync", commit_pack, tmp, path),
            self._syncer.submit,
        )
        self._bytes[id(job)] = sum(int(codes.nbytes) for _tier, codes in tiers)
        with _LOCK:
            _PENDING[path] = job
        self._mine.append((path, job, self._pool.submit(job.start)))

    def _timed(self, phase: str, fn: Callable[..., Any], *args: Any) -> Any:
        t0 = stamp()
        try:
            return fn(*args)
        finally:
            spent: dict[str, float] = {}
            add_time(spent, phase, t0)
            with self._timing:
                for key, seconds in spent.items():
                    self.timings[key] = self.timings.get(key, 0.0) + seconds

    def _reap(self, keep: int) -> None:
        """Wait until at most `keep` writes are under way; raise the first error."""
        while self._mine and (
            len(self._mine) > keep
            or self._mine[0][1].finished
            or (len(self._mine) > 1 and sum(self._bytes.values()) > MAX_PENDING_BYTES)
        ):
            path, job, _fut = self._mine.pop(0)
            self._bytes.pop(id(job), None)
            try:
                job.run()
            finally:
                with _LOCK:
                    if _PENDING.get(path) is job:
                        del _PENDING[path]

    def check(self) -> None:
        """Raise the error of a finished write that failed, if any."""
        self._reap(len(self._mine))

    def flush(self) -> None:
        """Wait for every write; raise the first error."""
        self._reap(0)

    def close(self) -> None:
        """Drop the writes not started and wait for those under way (their files are then
        whole or absent); errors are not raised (the solve is already stopping)."""
        if self._own:
            self._pool.shutdown(wait=True, cancel_futures=True)
        under_way = [job for _path, job, fut in self._mine if not fut.cancel()]
        with _LOCK:
            for path, job, _fut in self._mine:
                if _PENDING.get(path) is job:
                    del _PENDING[path]
        for job in under_way:  # started, or about to be: let it end
            with contextlib.suppress(BaseException):
                job.run()
        self._syncer.shutdown(wait=True)
        self._mine.clear()
        self._bytes.clear()
