"""Pack files written on the writer's thread: the same bytes as a write in place, readers wait
for a file still being written, and a failed write is raised, not lost."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.solver import writer as writer_mod
from boardlab.solver.tierfile import PackFile, write_pack
from boardlab.solver.writer import PackWriter, wait_written


def tiers() -> list[tuple[int, Any]]:
    rng = np.random.default_rng(7)
    return [(3, rng.integers(0, 300, 40_000).astype(np.uint16)), (5, np.arange(9, dtype=np.uint16))]


@pytest.mark.parametrize("shared", [False, True], ids=["own thread", "solving threads"])
def test_the_writer_writes_the_bytes_of_a_write_in_place(tmp_path: Path, shared: bool) -> None:
    write_pack(tmp_path / "here.bltier", tiers(), {"pack": "p"})
    pool = ThreadPoolExecutor(2) if shared else None
    w = PackWriter(pool)
    try:
        w.submit(tmp_path / "apart.bltier", tiers(), {"pack": "p"}, "zstd")
        w.flush()
    finally:
        w.close()
        if pool is not None:
            pool.shutdown()
    assert (tmp_path / "apart.bltier").read_bytes() == (tmp_path / "here.bltier").read_bytes()
    assert w.timings["write"] > 0


def test_a_reader_waits_for_a_file_being_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go = threading.Event()
    real = writer_mod.stage_pack

    def held(*args: Any, **kwargs: Any) -> Path:
        go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(writer_mod, "stage_pack", held)
    path = tmp_path / "p.bltier"
    w = PackWriter()
    seen: list[bool] = []
    try:
        w.submit(path, tiers(), {"pack": "p"}, "zstd")
        reader = threading.Thread(target=lambda: (wait_written(path), seen.append(path.exists())))
        reader.start()
        reader.join(0.2)
        assert reader.is_alive() and not path.exists()  # still waiting: nothing written yet
        go.set()
        reader.join(10)
    finally:
        go.set()
        w.close()
    assert seen == [True]
    pf = PackFile(path, "rebuild")
    try:
        assert pf.tier_codes(5).tolist() == list(range(9))
    finally:
        pf.close()


def test_a_failed_write_is_raised_by_flush_and_leaves_no_file(tmp_path: Path) -> None:
    w = PackWriter()
    path = tmp_path / "missing-folder" / "p.bltier"
    try:
        w.submit(path, tiers(), {"pack": "p"}, "zstd")
        with pytest.raises(OSError):
            w.flush()
    finally:
        w.close()
    assert not path.parent.exists()
    wait_written(path)  # nothing pending any more: returns at once


def test_a_reader_writes_a_file_its_threads_have_not_started(tmp_path: Path) -> None:
    """A solving thread that needs a pack whose write is queued behind the runs in its own
    pool writes the file itself instead of waiting for a thread that may never come."""
    pool = ThreadPoolExecutor(1)
    busy = threading.Event()
    pool.submit(busy.wait, 10)  # the pool's one thread, held: the write stays queued
    w = PackWriter(pool)
    path = tmp_path / "p.bltier"
    try:
        w.submit(path, tiers(), {"pack": "p"}, "zstd")
        reader = threading.Thread(target=wait_written, args=(path,))
        reader.start()
        reader.join(10)
        assert not reader.is_alive() and path.exists()
        busy.set()
        w.flush()  # the queued task finds it written: the same file, written once
    finally:
        busy.set()
        w.close()
        pool.shutdown()
    write_pack(tmp_path / "here.bltier", tiers(), {"pack": "p"})
    assert path.read_bytes() == (tmp_path / "here.bltier").read_bytes()


def test_waiting_writes_are_bounded_by_their_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond MAX_PENDING_BYTES of codes waiting, a new write first gets the oldest written
    (by the caller, where the pool's threads are busy): the codes do not pile up."""
    monkeypatch.setattr(writer_mod, "MAX_PENDING_BYTES", 1000)  # less than one pack here
    pool = ThreadPoolExecutor(1)
    busy = threading.Event()
    pool.submit(busy.wait, 10)
    w = PackWriter(pool)
    try:
        for i in range(3):
            w.submit(tmp_path / f"p{i}.bltier", tiers(), {"pack": f"p{i}"}, "zstd")
        assert (tmp_path / "p0.bltier").exists()  # written by the third submit
        assert not (tmp_path / "p2.bltier").exists()  # the newest waits for its thread
        busy.set()
        w.flush()
    finally:
        busy.set()
        w.close()
        pool.shutdown()
    assert all((tmp_path / f"p{i}.bltier").exists() for i in range(3))
