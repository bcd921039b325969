"""The C heap's free pages handed back: a trim gives back what a thread's arena freed, the
trimmer trims until it is closed, and every `boardlab serve` process runs one."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from boardlab.web import heap
from boardlab.web.heap import HeapTrimmer, malloc_trim

glibc = pytest.mark.skipif(malloc_trim() is None, reason="malloc_trim is glibc's")


def resident_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return float(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@glibc
def test_a_trim_gives_back_the_free_pages_a_thread_left_in_its_arena() -> None:
    """A worker thread allocates 64 MiB in blocks the C allocator serves (over Python's
    small-object limit) and keeps one in 64: the rest is free, but pinned between the kept
    ones it stays resident until a trim."""
    kept: list[bytes] = []

    def churn() -> None:
        blocks = [bytes(1024) for _ in range(64 * 1024)]
        kept.extend(blocks[::64])

    worker = threading.Thread(target=churn)
    worker.start()
    worker.join()
    trim = malloc_trim()
    assert trim is not None
    before = resident_mib()
    assert trim() is True
    assert before - resident_mib() > 32  # most of the 63 MiB freed went back
    assert len(kept) == 1024


def test_the_trimmer_trims_until_closed() -> None:
    calls: list[int] = []
    twice = threading.Event()

    def trim() -> bool:
        calls.append(1)
        if len(calls) >= 2:
            twice.set()
        return len(calls) % 2 == 0

    trimmer = HeapTrimmer(every_s=0.001, trim=trim).start()
    thread = trimmer._thread
    assert thread is not None and thread.daemon
    assert twice.wait(60)
    trimmer.close()
    assert not thread.is_alive()  # so no trim comes after close
    assert trimmer.rounds == len(calls) and trimmer.gave_back == len(calls) // 2


def test_a_failing_trim_is_logged_and_serving_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    failed = threading.Event()

    def trim() -> bool:
        failed.set()
        raise OSError("no heap here")

    trimmer = HeapTrimmer(every_s=0.001, trim=trim).start()
    assert failed.wait(60)
    trimmer.close()
    assert trimmer.rounds == 0
    assert "could not trim the C heap" in caplog.text


def test_without_glibc_nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap.ctypes.util, "find_library", lambda name: None)
    assert malloc_trim() is None
    trimmer = HeapTrimmer(every_s=0.001).start()
    assert trimmer.trim is None and trimmer._thread is None
    trimmer.close()


@glibc
def test_every_serve_process_trims_its_heap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardlab.web import server

    settings = server.ServeSettings(
        tables=str(tmp_path / "tables"),
        database=f"sqlite:///{tmp_path / 'friends.sqlite3'}",
        processes=False,
        warm=False,
    )
    monkeypatch.setenv(server.ENV, settings.to_env())
    # the collector's settings are the serving process's, not this test run's
    monkeypatch.setattr(server, "settle_collector", lambda: None)
    from boardlab.web.friends import db as dbmod

    engine = dbmod.make_engine(settings.database or "")
    dbmod.upgrade(engine)  # `serve` migrates before its processes start
    engine.dispose()
    app = server.app_from_env()
    try:
        trimmer = app.state.heap_trimmer
        assert isinstance(trimmer, HeapTrimmer) and trimmer.trim is not None
        assert trimmer.every_s == heap.TRIM_EVERY_S
        assert any(t.name == "heap-trim" for t in threading.enumerate())
    finally:
        app.state.heap_trimmer.close()
        app.state.friends.close()
