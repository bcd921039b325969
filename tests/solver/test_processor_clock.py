"""Processor times are read (a system call each) only for solves that asked for timings."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from boardlab.core import timing
from boardlab.core.timing import processor_clock, stamp
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import build_table


def test_stamp_reads_processor_time_only_inside_processor_clock() -> None:
    assert stamp()[1] == 0.0
    with processor_clock():
        assert stamp()[1] > 0.0
        with processor_clock(False):  # an untimed solve beside a timed one: still read
            assert stamp()[1] > 0.0
        got: list[float] = []
        other = threading.Thread(target=lambda: got.append(stamp()[1]))
        other.start()
        other.join()
        assert got[0] > 0.0  # every thread of the process
    assert stamp()[1] == 0.0 and timing._CPU_CLOCK == [0]


def test_a_solve_reads_processor_times_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    thread_time = time.thread_time

    def counted() -> float:
        seen.append(1)
        return thread_time()

    monkeypatch.setattr(time, "thread_time", counted)
    build_table(rules_for("classic", 3), tmp_path / "a", 2)
    assert seen == []
    timings: dict[str, float] = {}
    build_table(rules_for("classic", 3), tmp_path / "b", 2, timings=timings)
    assert seen and timings["first pass cpu"] > 0
    assert timing._CPU_CLOCK == [0]
