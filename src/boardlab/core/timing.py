"""Timing the solver's phases: wall time always, the thread's processor time only while a
solve that asked for it runs (`processor_clock`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

Stamp = tuple[float, float]

# how many solves in this process want processor times (`processor_clock`): reading the
# thread's processor time is a system call, 80,000 of them in a 5×5 solve (0.1-0.3 s)
_CPU_CLOCK = [0]
_CPU_CLOCK_LOCK = threading.Lock()


@contextmanager
def processor_clock(on: bool = True) -> Iterator[None]:
    """While inside (and `on`), `stamp` reads the calling thread's processor time too; else
    it reads 0 for it. For `boardlab solve --timings` and the tasks of a Dask worker."""
    if not on:
        yield
        return
    with _CPU_CLOCK_LOCK:
        _CPU_CLOCK[0] += 1
    try:
        yield
    finally:
        with _CPU_CLOCK_LOCK:
            _CPU_CLOCK[0] -= 1


def stamp() -> Stamp:
    """Now, by the wall clock and, inside `processor_clock`, by the calling thread's
    processor time (else 0)."""
    return time.perf_counter(), (time.thread_time() if _CPU_CLOCK[0] else 0.0)


def add_time(timings: dict[str, float], phase: str, since: Stamp) -> Stamp:
    """Add the wall seconds since `since` to `timings[phase]` and the thread's processor
    seconds to `timings[phase + " cpu"]`; returns now."""
    now = stamp()
    timings[phase] = timings.get(phase, 0.0) + now[0] - since[0]
    cpu = phase + " cpu"
    timings[cpu] = timings.get(cpu, 0.0) + now[1] - since[1]
    return now
