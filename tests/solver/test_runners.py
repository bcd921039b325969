"""The runners' one loop (the solve's and the verifier's): every pack once, with what its task
returned, and never more packs in flight than the memory budget allows."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from boardlab.solver.plan import Pack
from boardlab.solver.runners import DaskRunner, GiB, LocalRunner, PackRunner, ThreadRunner

_LOCK = threading.Lock()
_NOW = [0, 0]  # tasks running now, the most at once
_BARRIER: list[threading.Barrier] = []


def _counted(name: str, memory: int) -> tuple[str, int]:
    """A task that notes how many run beside it."""
    with _LOCK:
        _NOW[0] += 1
        _NOW[1] = max(_NOW[1], _NOW[0])
    try:
        threading.Event().wait(0.05)
        return name, memory
    finally:
        with _LOCK:
            _NOW[0] -= 1


def _together(name: str, memory: int) -> tuple[str, int]:
    """A task that returns only once another runs beside it (BrokenBarrierError otherwise)."""
    _BARRIER[0].wait()
    return name, memory


def packs(n: int) -> list[Pack]:
    return [Pack(f"p{i}", 0, (i,), 10, 10) for i in range(n)]


def test_the_local_runner_works_packs_in_order_with_its_budget() -> None:
    runner = LocalRunner(1234)
    try:
        got = list(runner.work(packs(3), lambda p, m: (_counted, (p.name, m)), lambda p: 0, "t"))
    finally:
        runner.close()
    assert [(p.name, r) for p, r in got] == [(f"p{i}", (f"p{i}", 1234)) for i in range(3)]


def threads(budget: int) -> PackRunner:
    return ThreadRunner(2, budget)


def dask(budget: int) -> PackRunner:
    return DaskRunner(None, budget, None, workers=2)


# two threads of this process (a local verification) and a local Dask cluster (one like a
# scheduler's, slower to start)
RUNNERS = [threads, pytest.param(dask, marks=pytest.mark.slow)]


@pytest.mark.parametrize("make", RUNNERS, ids=["threads", "dask"])
def test_one_pack_at_a_time_where_two_do_not_fit(make: Callable[[int], PackRunner]) -> None:
    budget = GiB // 4  # the cache takes GiB // 8, the packs in flight the other GiB // 8
    runner = make(budget)
    _NOW[:] = [0, 0]
    try:
        task = lambda p, m: (_counted, (p.name, m))  # noqa: E731
        got = list(runner.work(packs(4), task, lambda p: GiB // 8, "fit"))
    finally:
        runner.close()
    assert sorted(p.name for p, _ in got) == ["p0", "p1", "p2", "p3"]
    assert all(r == (p.name, GiB // 8) for p, r in got)  # the cache's share reaches the task
    assert _NOW[1] == 1


@pytest.mark.parametrize("make", RUNNERS, ids=["threads", "dask"])
def test_packs_side_by_side_where_they_fit(make: Callable[[int], PackRunner]) -> None:
    runner = make(GiB)
    _BARRIER[:] = [threading.Barrier(2, timeout=60)]
    try:
        task = lambda p, m: (_together, (p.name, m))  # noqa: E731
        got = list(runner.work(packs(2), task, lambda p: 1, "side"))
    finally:
        runner.close()
    assert sorted(p.name for p, _ in got) == ["p0", "p1"]


def test_a_failing_task_stops_the_threads_work_with_its_error() -> None:
    runner = ThreadRunner(2, GiB)

    def boom(name: str, memory: int) -> None:
        raise ValueError(f"bad pack {name}")

    try:
        with pytest.raises(ValueError, match="bad pack p"):
            list(runner.work(packs(3), lambda p, m: (boom, (p.name, m)), lambda p: 1, "boom"))
    finally:
        runner.close()
