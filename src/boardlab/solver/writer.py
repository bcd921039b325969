"""Pack files written on a thread of their own, so that solving goes on meanwhile.

A solved pack's codes go into the cache of child tiers at once; its file (compressed, synced
and renamed into place by `write_pack`) follows on the writer's thread. The next level can
start before the last pack of this one is on disk: a reader that misses the cache waits for
the pack's file (`wait_written`), and the solve writes its manifest only once every file is
written (`PackWriter.flush`). The files' bytes are those of a write in the solving thread.
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from boardlab.core.retrograde import add_time, stamp
from boardlab.solver.tierfile import write_pack

MAX_PENDING = 4  # files waiting to be written, at most (each holds a pack's codes)

_PENDING: dict[Path, Future[int]] = {}
_LOCK = threading.Lock()


def wait_written(path: Path) -> None:
    """Return once the file at `path` is written, if a writer of this process has it under
    way (a failed write raises its error here)."""
    with _LOCK:
        fut = _PENDING.get(path)
    if fut is not None:
        fut.result()


class PackWriter:
    """Writes pack files on a thread of its own, one at a time, or as tasks of the solving
    threads' `pool` (no more threads than cores: a third one beside two solving threads on
    two cores cost more than it saved)."""

    def __init__(self, pool: ThreadPoolExecutor | None = None) -> None:
        self._own = pool is None
        self._pool = pool or ThreadPoolExecutor(1, thread_name_prefix="boardlab-write")
        self._mine: list[tuple[Path, Future[int]]] = []
        self.timings: dict[str, float] = {}  # "write" and "write cpu", on the writer's thread

    def submit(
        self,
        path: Path,
        tiers: list[tuple[int, Any]],
        header: dict[str, Any],
        codec: str,
    ) -> None:
        """Write a pack's file after those submitted before; raises the error of an earlier
        write that failed. Waits while MAX_PENDING files are already waiting."""
        self._reap(MAX_PENDING - 1)
        fut = self._pool.submit(self._write, path, tiers, header, codec)
        with _LOCK:
            _PENDING[path] = fut
        self._mine.append((path, fut))

    def _write(
        self, path: Path, tiers: list[tuple[int, Any]], header: dict[str, Any], codec: str
    ) -> int:
        t0 = stamp()
        try:
            return write_pack(path, tiers, header, codec)
        finally:
            add_time(self.timings, "write", t0)

    def _reap(self, keep: int) -> None:
        """Wait until at most `keep` writes are under way; raise the first error."""
        while self._mine and (len(self._mine) > keep or self._mine[0][1].done()):
            path, fut = self._mine.pop(0)
            try:
                fut.result()
            finally:
                with _LOCK:
                    if _PENDING.get(path) is fut:
                        del _PENDING[path]

    def check(self) -> None:
        """Raise the error of a finished write that failed, if any."""
        self._reap(len(self._mine))

    def flush(self) -> None:
        """Wait for every write; raise the first error."""
        self._reap(0)

    def close(self) -> None:
        """Drop the writes not started and wait for the one under way (its file is then
        whole or absent); errors are not raised (the solve is already stopping)."""
        if self._own:
            self._pool.shutdown(wait=True, cancel_futures=True)
        else:  # the owner shuts the pool down: drop what has not started
            for _path, fut in self._mine:
                fut.cancel()
            for _path, fut in self._mine:
                if not fut.cancelled():
                    with contextlib.suppress(Exception):
                        fut.result()
        with _LOCK:
            for path, fut in self._mine:
                if _PENDING.get(path) is fut:
                    del _PENDING[path]
        self._mine.clear()
