"""The C heap's free memory handed back to the system, for a long-running server process.

Under a steady load a serving process's Python objects and SQLite's caches keep one size, yet
its resident memory crept up for many minutes (about 65 MiB over five minutes of 500 shared
games): glibc's allocator keeps what is freed. Each thread that allocates (the store's worker
threads, the group commit's writer, the event loop) draws from one of its arenas (up to eight
per core), and every arena keeps the pages a busy moment needed after they are free again, so
the sum of the arenas' high-water marks grows long after what is in use has levelled off.
`HeapTrimmer` calls glibc's `malloc_trim(0)` every so often, which gives the free pages of
every arena back to the system; it runs in a thread of its own, and ctypes releases the
interpreter's lock for the call, so the event loop and the other threads go on meanwhile.
Where the C library is not glibc (musl, macOS) there is nothing to call and nothing runs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from collections.abc import Callable

log = logging.getLogger("boardlab.web.heap")

TRIM_EVERY_S = 30.0


def malloc_trim() -> Callable[[], bool] | None:
    """glibc's `malloc_trim(0)` (True when it gave memory back), or None where the C
    library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        fn = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return lambda: bool(fn(0))


class HeapTrimmer:
    """A daemon thread that trims the C heap every `every_s` seconds (`trim`, default
    glibc's `malloc_trim`); `close` stops it. `rounds` counts the trims made, `gave_back`
    those that gave memory back."""

    def __init__(
        self, every_s: float = TRIM_EVERY_S, trim: Callable[[], bool] | None = None
    ) -> None:
        self.every_s = every_s
        self.trim = trim if trim is not None else malloc_trim()
        self.rounds = 0
        self.gave_back = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> HeapTrimmer:
        """Start trimming (nothing runs where there is no trim to call)."""
        if self.trim is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="heap-trim", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        trim = self.trim
        assert trim is not None
        while not self._stop.wait(self.every_s):
            try:
                released = trim()
            except Exception:  # never stop serving for this
                log.warning("could not trim the C heap", exc_info=True)
                return
            self.rounds += 1
            self.gave_back += released

    def close(self) -> None:
        """Stop the thread (a trim under way finishes first)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
