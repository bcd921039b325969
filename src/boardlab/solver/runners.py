"""Who works a level's packs: the calling thread, threads of this process sharing one cache
of child tiers, or the workers of a Dask cluster. Each yields (pack, result) as packs are
done. The solve runs them through `run` (its packs written); the verifier, through `work`
with a task of its own, so the loop that submits, gathers and cancels exists once."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from boardlab.core.tiers import TierGame
from boardlab.core.timing import stamp
from boardlab.solver.childcache import child_cache, release_caches, shared_game
from boardlab.solver.folder import pack_path
from boardlab.solver.packsolve import (
    BYTES_PER_POSITION,
    Solved,
    book_python_rest,
    keep_solved,
    pack_head,
    solve_pack,
    solve_tiers,
)
from boardlab.solver.plan import Pack, Plan
from boardlab.solver.writer import PackWriter

GiB = 1 << 30


def children_map(game: TierGame, packs: Sequence[Pack], plan: Plan) -> dict[int, str]:
    out: dict[int, str] = {}
    for p in packs:
        for t in p.tiers:
            for c in game.child_tiers(t):
                out[c] = plan.pack_of[c]
    return out


def pack_memory(pack: Pack, game: TierGame) -> int:
    """Bytes a worker needs to solve a pack, children not counted."""
    return BYTES_PER_POSITION * pack.largest + 2 * pack.positions


Task = Callable[[Pack, int], tuple[Callable[..., Any], tuple[Any, ...]]]
"""A pack's work for a budget of the child cache: the function a worker calls, and its
arguments (plain data, sent to a Dask worker as they are)."""


class PackRunner(Protocol):
    """What the solve and the verifier need of a runner."""

    threads: int
    # whether the pack files that `flush` waits for are written by the solving threads
    writes_between_runs: bool

    def work(
        self, todo: Sequence[Pack], task: Task, need: Callable[[Pack], int], name: str
    ) -> Iterator[tuple[Pack, Any]]:
        """Work `todo` (in its order, packs whose `need` bytes fit side by side), yielding
        each pack with what its task returned; `name` prefixes the Dask task keys."""
        ...

    def flush(self) -> dict[str, float]:
        """Wait for pack files still being written (a solve's packs); the seconds of the
        phases that ran apart from the packs' own."""
        ...

    def forget(self, folder: Path, tiers: list[int]) -> None:
        """Drop the codes of tiers that nothing left to solve reads from the cache of child
        tiers this runner's work fills (where it is this process's)."""
        ...

    def close(self) -> None:
        """Stop what still runs and free the caches and the cluster (called once, always)."""
        ...


def hand_over(
    writer: PackWriter,
    spec: dict[str, Any],
    folder: Path,
    pack: Pack,
    solved: Solved,
    counts: npt.NDArray[np.int64],
    memory: int,
    codec: str,
) -> dict[str, Any]:
    """A pack solved in this process: its codes into the cache of child tiers (the next
    levels read them there), its file to the writer's thread; returns its summary."""
    header, head = pack_head(spec, pack, counts)
    keep_solved(str(folder), solved, memory)
    writer.submit(pack_path(folder, pack.name), solved, header, codec)
    return head


def solve_task(spec: dict[str, Any], folder: Path, plan: Plan, codec: str) -> Task:
    """The solve's task: a pack solved and written (its header back)."""
    game = shared_game(spec)

    def task(pack: Pack, memory: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        kids = children_map(game, [pack], plan)
        return solve_pack, (spec, str(folder), pack, kids, memory, codec)

    return task


def feed(
    todo: Sequence[Pack],
    need: Callable[[Pack], int],
    free: int,
    slots: int,
    submit: Callable[[Pack], Any],
    first_done: Callable[[list[Any]], Any],
    running: dict[Any, tuple[Pack, int]] | None = None,
) -> Iterator[tuple[Pack, Any]]:
    """Submit `todo` in its order, at most `slots` at once and, beyond the first, only while
    their `need` bytes fit in `free`; yield each pack with its future's result as it
    finishes (a task's error is raised here). `running`, if given, holds the futures in
    flight, for a caller that cancels them when stopped early."""
    running = {} if running is None else running
    queue = list(todo)
    in_use = 0
    while queue or running:
        while queue and len(running) < slots:
            size = need(queue[0])
            if running and in_use + size > free:
                break
            pack = queue.pop(0)
            running[submit(pack)] = (pack, size)
            in_use += size
        for fut in first_done(list(running)):
            pack, size = running.pop(fut)
            in_use -= size
            yield pack, fut.result()


class LocalRunner:
    """Packs worked one after another in the calling thread."""

    threads = 1
    writes_between_runs = False  # a writer thread of its own: writing overlaps solving

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.writer = PackWriter()

    def work(
        self, todo: Sequence[Pack], task: Task, need: Callable[[Pack], int], name: str
    ) -> Iterator[tuple[Pack, Any]]:
        for pack in todo:
            fn, args = task(pack, self.budget)
            yield pack, fn(*args)

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Iterator[tuple[Pack, Any]]:
        """Solve `todo` in order; each pack's file is written on the writer's thread while
        the next one is solved."""
        game = shared_game(spec)
        for pack in todo:
            self.writer.check()
            timings: dict[str, float] = {}
            started = stamp()
            kids = children_map(game, [pack], plan)
            solved, counts = solve_tiers(
                spec, str(folder), pack.tiers, pack.largest, kids, self.budget, timings
            )
            head = hand_over(self.writer, spec, folder, pack, solved, counts, self.budget, codec)
            book_python_rest(timings, started)
            yield pack, {**head, "timings": timings}

    def flush(self) -> dict[str, float]:
        """Wait for the pack files still being written; their seconds by phase."""
        self.writer.flush()
        return self.writer.timings

    def forget(self, folder: Path, tiers: list[int]) -> None:
        child_cache(self.budget).forget(folder, tiers)

    def close(self) -> None:
        self.writer.close()
        release_caches()


def split_runs(tiers: Sequence[int], sizes: Sequence[int], parts: int) -> list[list[int]]:
    """`tiers` cut, in order, into at most `parts` runs of about equal positions."""
    total = sum(sizes)
    runs: list[list[int]] = [[]]
    done = 0
    for tier, n in zip(tiers, sizes, strict=True):
        if runs[-1] and done >= total * len(runs) / parts:
            runs.append([])
        runs[-1].append(tier)
        done += n
    return runs


class ThreadRunner:
    """Packs solved by `workers` threads of this process (the kernels release the GIL), with
    one cache of child tiers. Where a level has fewer packs than twice the threads, a pack's
    tiers are cut into runs for all of them, so that the first and last levels (one or two
    packs each) keep every thread busy. A solved pack's file is written by the same threads, as
    a task queued behind the runs, while the next level starts (see `PackWriter`). No Dask: a
    local cluster takes seconds to start and stop and a share of a processor to run."""

    writes_between_runs = True

    def __init__(self, workers: int, budget: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.threads = workers
        self.budget = budget
        self.cache_budget = max(GiB // 8, budget // 2)  # the child cache's; packs, the rest
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="boardlab-solve")
        self.writer = PackWriter(self.pool)  # files written between runs, by these threads

    def work(
        self, todo: Sequence[Pack], task: Task, need: Callable[[Pack], int], name: str
    ) -> Iterator[tuple[Pack, Any]]:
        """Work `todo` on the threads, two packs a thread in flight while their `need` bytes
        fit beside the cache (the verifier's packs; `name` is for Dask's keys only)."""
        from concurrent.futures import FIRST_COMPLETED, wait

        def submit(pack: Pack) -> Any:
            fn, args = task(pack, self.cache_budget)
            return self.pool.submit(fn, *args)

        def first_done(futures: list[Any]) -> Any:
            return wait(futures, return_when=FIRST_COMPLETED)[0]

        free = self.budget - self.cache_budget
        yield from feed(todo, need, free, 2 * self.threads, submit, first_done)

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Any:
        from concurrent.futures import FIRST_COMPLETED, wait

        game = shared_game(spec)
        cache_budget = self.cache_budget
        largest = max(p.largest for p in todo)
        per_run = BYTES_PER_POSITION * max(1, largest)
        at_once = max(1, min(2 * self.threads, (self.budget - cache_budget) // per_run))
        cut = self.threads if len(todo) < 2 * self.threads else 1
        queue: list[tuple[Pack, int, list[int]]] = []
        for pack in sorted(todo, key=lambda p: -p.largest):  # big ones first: a shorter tail
            sizes = [game.tier_size(t) for t in pack.tiers]
            runs = split_runs(pack.tiers, sizes, min(cut, len(pack.tiers)))
            queue += [(pack, len(runs), run) for run in runs]
        results: dict[str, list[tuple[list[int], Solved, Any, dict[str, float]]]] = {}
        running: dict[Any, tuple[Pack, int, list[int], dict[str, float]]] = {}
        while queue or running:
            while queue and len(running) < at_once:
                pack, nruns, run = queue.pop(0)
                timings: dict[str, float] = {}
                fut = self.pool.submit(
                    self._solve, spec, str(folder), run, largest,
                    children_map(game, [pack], plan), cache_budget, timings,
                )  # fmt: skip
                running[fut] = (pack, nruns, run, timings)
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in finished:
                pack, nruns, run, timings = running.pop(fut)
                solved, counts = fut.result()  # re-raises a run's error here
                got = results.setdefault(pack.name, [])
                got.append((run, solved, counts, timings))
                if len(got) < nruns:
                    continue
                del results[pack.name]
                got.sort(key=lambda g: pack.tiers.index(g[0][0]))
                spent: dict[str, float] = {}
                for g in got:
                    for phase, seconds in g[3].items():
                        spent[phase] = spent.get(phase, 0.0) + seconds
                started = stamp()
                self.writer.check()
                solved = [t for g in got for t in g[1]]
                counts = sum(g[2] for g in got)
                head = hand_over(
                    self.writer, spec, folder, pack, solved, counts, cache_budget, codec
                )
                handing: dict[str, float] = {}
                book_python_rest(handing, started)
                for phase, seconds in handing.items():
                    spent[phase] = spent.get(phase, 0.0) + seconds
                yield pack, {**head, "timings": spent}

    @staticmethod
    def _solve(
        spec: dict[str, Any],
        folder: str,
        tiers: list[int],
        largest: int,
        pack_of: dict[int, str],
        memory: int,
        timings: dict[str, float],
    ) -> tuple[Solved, npt.NDArray[np.int64]]:
        started = stamp()
        out = solve_tiers(spec, folder, tiers, largest, pack_of, memory, timings)
        book_python_rest(timings, started)
        return out

    def flush(self) -> dict[str, float]:
        """Wait for the pack files still being written; their seconds by phase."""
        self.writer.flush()
        return self.writer.timings

    def forget(self, folder: Path, tiers: list[int]) -> None:
        child_cache(self.cache_budget).forget(folder, tiers)

    def close(self) -> None:
        self.writer.close()
        self.pool.shutdown(wait=True, cancel_futures=True)
        release_caches()


class DaskRunner:
    """Packs as tasks of a Dask cluster: an existing scheduler's workers (each with its own
    cache of child tiers), or a local cluster started here, whose `workers` threads share
    this process's cache. Tasks are submitted while the packs in flight fit the budget and
    gathered as they finish; `close` cancels those still running (the caller stopped: an
    error, Ctrl-C) before it shuts the cluster down."""

    def __init__(
        self,
        scheduler: str | None,
        budget: int,
        on_dashboard: Callable[[str], None] | None,
        workers: int = 1,
    ) -> None:
        from boardlab.solver.cluster import connect, dashboard_link

        self.client, self.cluster, nworkers = connect(workers, scheduler)
        self.workers = max(1, nworkers)
        self.threads = self.workers
        self.writes_between_runs = True  # in the workers' tasks
        self.budget = budget
        self.running: dict[Any, tuple[Pack, int]] = {}  # the tasks in flight, with their bytes
        link = dashboard_link(self.client, self.cluster)
        if on_dashboard and link:
            on_dashboard(link)

    @property
    def in_process(self) -> bool:
        """The cluster was started here: its threads share this process's cache."""
        return self.cluster is not None

    def work(
        self, todo: Sequence[Pack], task: Task, need: Callable[[Pack], int], name: str
    ) -> Iterator[tuple[Pack, Any]]:
        from distributed import wait

        # the caches of child tiers get half the budget (one for the local cluster's
        # threads, else a share for each worker process); the packs in flight, the other
        caches = 1 if self.in_process else self.workers
        cache_budget = max(GiB // 8, self.budget // (2 * caches))

        def submit(pack: Pack) -> Any:
            fn, args = task(pack, cache_budget)
            return self.client.submit(fn, *args, key=f"{name}-{pack.name}", pure=False)

        def first_done(futures: list[Any]) -> Any:
            return wait(futures, return_when="FIRST_COMPLETED")[0]  # type: ignore[no-untyped-call]

        self.running = {}
        free = self.budget - cache_budget * caches
        slots = 2 * self.workers
        yield from feed(todo, need, free, slots, submit, first_done, self.running)

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Iterator[tuple[Pack, Any]]:
        game = shared_game(spec)
        queue = sorted(todo, key=lambda p: -p.largest)  # big ones first: a shorter tail
        task = solve_task(spec, folder, plan, codec)
        return self.work(queue, task, lambda p: pack_memory(p, game), f"solve-{plan_key(spec)}")

    def flush(self) -> dict[str, float]:
        """Nothing to wait for: a worker writes a pack's file before its task ends."""
        return {}

    def forget(self, folder: Path, tiers: list[int]) -> None:
        """Nothing: the workers' caches drop what they must by themselves."""

    def close(self) -> None:
        from boardlab.solver.cluster import disconnect

        if self.running:  # stopped early (an error, Ctrl-C): nothing left working for nobody
            with contextlib.suppress(Exception):
                self.client.cancel(list(self.running))
            self.running.clear()
        disconnect(self.client, self.cluster)
        if self.in_process:
            release_caches()


def plan_key(spec: dict[str, Any]) -> str:
    """A short stable key of a game spec (Dask task names)."""
    import hashlib

    return hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
