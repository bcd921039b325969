"""What grows in the server's memory, for `friends_ws.py --tracemalloc SECONDS`: imported by
the benchmark's server process, from the moment the window opens (the benchmark creates
`$FRIENDS_TRACEMALLOC_MARK` once every socket is seated) it traces the interpreter's new
allocations (`tracemalloc`), and every SECONDS prints the process's resident memory, what
SQLite and the C heap hold (which tracing does not see), the objects the collector tracks
by type, and the allocation sites that grew most since the first SECONDS (the baseline:
the window's first survivors), each by its traceback, innermost frame first, the project's
own frames marked `*`. Diagnostic only: tracing slows the server, so the moves/s of such a
run are not the server's figures; FRIENDS_TRACEMALLOC_FRAMES=0 prints the cheap figures
without tracing.

Set in the benchmark's environment: FRIENDS_TRACEMALLOC_FRAMES (frames kept per allocation,
default 8; 0: no tracing), FRIENDS_TRACEMALLOC_TOP (sites printed per report, default 10),
FRIENDS_GARBAGE=1 (each report also collects the cyclic garbage and counts it by type: what
reference counting could not free; this changes what it measures, by freeing it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import linecache
import os
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path

# allocations of the tracing itself and of reading source lines for the report, left out of
# the sites printed (after the comparison: `Snapshot.filter_traces` takes minutes on a
# server's few hundred thousand traces)
_IGNORE = (tracemalloc.__file__, linecache.__file__, __file__, "<frozen importlib.")


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return float(line.split()[1]) / 1024
    return 0.0


def _c_heaps() -> str:
    """SQLite's own allocations and the C allocator's heap (glibc's `mallinfo2`): what
    `tracemalloc` does not see, and how much of the heap is free but kept."""
    parts = []
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        parts.append(f"SQLite {lib.sqlite3_memory_used() / 2**20:.1f} MiB")
    except (OSError, AttributeError):
        pass
    try:
        libc = ctypes.CDLL("libc.so.6")

        class Info(ctypes.Structure):
            _fields_ = [
                (n, ctypes.c_size_t)
                for n in [
                    "arena",
                    "ordblks",
                    "smblks",
                    "hblks",
                    "hblkhd",
                    "usmblks",
                    "fsmblks",
                    "uordblks",
                    "fordblks",
                    "keepcost",
                ]
            ]

        libc.mallinfo2.restype = Info
        info = libc.mallinfo2()
        parts.append(
            f"C heap: {info.uordblks / 2**20:.1f} MiB in use, {info.fordblks / 2**20:.1f} "
            f"MiB free in {info.arena / 2**20:.1f} MiB of arenas, "
            f"{info.hblkhd / 2**20:.1f} MiB mapped apart"
        )
    except (OSError, AttributeError):
        pass
    return "; ".join(parts)


def _types() -> Counter[str]:
    """Live objects the collector tracks, by type name (frozen ones included)."""
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def _garbage() -> str:
    """What the collector finds unreachable now (kept aside, counted by type, then freed):
    cyclic garbage that reference counting could not free, which waits for a collection."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kinds = Counter(type(o).__module__ + "." + type(o).__qualname__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    total = sum(kinds.values())
    return f"  garbage in cycles, {total} objects: " + ", ".join(
        f"{t} {n}" for t, n in kinds.most_common(14)
    )


def _where(tb: tracemalloc.Traceback, frames: int = 6) -> str:
    """A site's innermost frames, innermost first, with the project's own marked."""
    lines = []
    for f in list(tb)[-frames:][::-1]:
        name = f.filename
        for root in ("/boardlab/", "/site-packages/", "/lib/python"):
            if root in name:
                name = name.split(root, 1)[1]
                if root == "/boardlab/":
                    name = "* boardlab/" + name
                break
        text = linecache.getline(f.filename, f.lineno).strip()
        lines.append(f"      {name}:{f.lineno}  {text[:70]}")
    return "\n".join(lines)


def _watch(interval: float, marker: Path, frames: int, top: int) -> None:
    pid = os.getpid()
    while not marker.exists():
        time.sleep(0.2)
    opened = time.monotonic()
    if frames:
        tracemalloc.start(frames)
    base: tracemalloc.Snapshot | None = None
    base_types: Counter[str] | None = None
    base_traced = 0
    while True:
        time.sleep(interval)
        began = time.monotonic()
        types = _types()
        head = (
            f"[memory {pid}] {began - opened:.0f} s after the window opened: resident "
            f"{_rss_mib():.0f} MiB; {_c_heaps()}; {sum(types.values())} objects tracked by "
            f"the collector ({gc.get_freeze_count()} frozen)"
        )
        if base_types is None:  # the first interval's survivors are the baseline
            base_types = types
            if frames:
                base_traced = tracemalloc.get_traced_memory()[0]
                base = tracemalloc.take_snapshot()
            print(head + " (baseline)", flush=True)
            continue
        out = [head]
        grew = (types - base_types).most_common(8)
        out.append("  objects grown, by type: " + ", ".join(f"{t} +{n}" for t, n in grew))
        if os.environ.get("FRIENDS_GARBAGE"):
            out.append(_garbage())
        if frames:
            traced = tracemalloc.get_traced_memory()[0]
            snap = tracemalloc.take_snapshot()
            diffs = [
                d
                for d in snap.compare_to(base, "traceback")
                if d.size_diff > 0 and not d.traceback[-1].filename.startswith(_IGNORE)
            ]
            diffs.sort(key=lambda d: d.size_diff, reverse=True)
            out.append(
                f"  traced since the window opened {traced / 2**20:.1f} MiB "
                f"({(traced - base_traced) / 2**20:+.2f} MiB since the baseline; "
                f"{len(snap.traces)} traces, compared in {time.monotonic() - began:.1f} s)"
            )
            for d in diffs[:top]:
                out.append(
                    f"  {d.size_diff / 1024:+9.1f} KiB {d.count_diff:+7d} blocks "
                    f"(now {d.size / 1024:.1f} KiB in {d.count})"
                )
                out.append(_where(d.traceback))
        print("\n".join(out), flush=True)


def install() -> None:
    """Start the thread that reports (a daemon: it ends with the process); it starts
    tracing when the window opens."""
    interval = float(os.environ["FRIENDS_TRACEMALLOC"])
    marker = Path(os.environ["FRIENDS_TRACEMALLOC_MARK"])
    frames = int(os.environ.get("FRIENDS_TRACEMALLOC_FRAMES", "8"))
    top = int(os.environ.get("FRIENDS_TRACEMALLOC_TOP", "10"))
    threading.Thread(
        target=_watch, args=(interval, marker, frames, top), daemon=True, name="memory"
    ).start()
