"""The out-of-core tier solver's driver: solve every pack not yet on disk, level by level,
within a memory budget, and write the manifest's totals at the end.

Its parts, one job each: `plan` (levels and packs, a pure function of the game), `folder`
(the manifest and the pack files: a pack whose file is sound is never solved again, which is
the whole resume logic), `packsolve` (a pack's tiers through the compiled kernel, then its
file), `childcache` (what the solving threads of a process share), and `runners` (the calling
thread, threads of this process, or an existing Dask cluster).

Memory: a worker holds the tier it solves (about BYTES_PER_POSITION each, and a copy of its
children side by side) and an LRU cache of decompressed child tiers (2 bytes per position)
that gives way to it: together they stay within the worker's share of the memory budget,
unless one tier alone needs more. Once a level is solved, the cache of this process forgets
the tiers that no later level reads (`plan.last_reads`): it holds the live set (5×5: 89 MB
at most, of 475 MB of codes), and the allocator hands their memory to the next tiers. A
solve in this process (no scheduler) first takes off the budget what the process already
holds (interpreter, libraries, the plan and the game's tables), so that the budget bounds
the whole process.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardLabError, CorruptTableError
from boardlab.core.tiers import TierGame
from boardlab.core.timing import add_time, processor_clock, stamp
from boardlab.solver.childcache import shared_game
from boardlab.solver.folder import done_packs, pack_path, read_manifest, totals, write_manifest
from boardlab.solver.packsolve import PHASES
from boardlab.solver.plan import last_reads, make_plan
from boardlab.solver.runners import DaskRunner, GiB, LocalRunner, ThreadRunner
from boardlab.solver.tierfile import DEFAULT_CODEC

DEFAULT_BUDGET = 12 * GiB
MIN_BUDGET = 64 << 20  # left for tiers when the process already holds the whole budget


MMAP_FROM = 1 << 20  # arrays from this size on come from the system and go back to it


def release_freed_arrays() -> None:
    """Have glibc map every array of MMAP_FROM bytes or more on its own and unmap it when it
    is freed. By default glibc raises that threshold to 32 MiB as large arrays are freed;
    after that, the child tiers the cache drops stay in the heap, fragmented, and the
    resident set outgrows the memory budget (a 6×6 verification with an 8 GiB budget held
    11.5 GB, 10.9 GB of it heap; 8.2 GB with this). The verifier asks for it; the solve does
    not, as every fresh mapping costs its page faults (0.8 s of system time on a 5×5 solve
    of 20 s) and its 6×6 runs stayed inside their budgets. Elsewhere than glibc this does
    nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(-3, MMAP_FROM)  # M_MMAP_THRESHOLD; fixing it ends the raising
    except (OSError, AttributeError):
        pass  # another C library: its own policy


def resident_bytes() -> int:
    """Memory this process holds now: its resident set (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak) * (1 if sys.platform == "darwin" else 1024)


Progress = Callable[
    [int, int, int, int, int], None
]  # level, packs done, packs, positions done, all


def solve_game(
    game: TierGame,
    folder: Path,
    workers: int = 1,
    scheduler: str | None = None,
    budget: int = DEFAULT_BUDGET,
    codec: str = DEFAULT_CODEC,
    on_progress: Progress | None = None,
    on_dashboard: Callable[[str], None] | None = None,
    timings: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Solve every pack not yet on disk, level by level; returns the manifest.

    Without a scheduler the packs are solved in this process, on `workers` threads; with
    one, on the Dask cluster at `scheduler`. `timings`, if given, gets the seconds of each
    of `PHASES` (processor seconds read only then)."""
    with processor_clock(timings is not None):
        return _solve_game(
            game, folder, workers, scheduler, budget, codec, on_progress, on_dashboard, timings
        )


def _solve_game(
    game: TierGame,
    folder: Path,
    workers: int,
    scheduler: str | None,
    budget: int,
    codec: str,
    on_progress: Progress | None,
    on_dashboard: Callable[[str], None] | None,
    timings: dict[str, float] | None,
) -> dict[str, Any]:
    clock: dict[str, float] = {}
    started = stamp()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "packs").mkdir(exist_ok=True)
    plan = make_plan(game)
    manifest: dict[str, Any] = {
        "ruleset": game.ruleset_id,
        "spec": game.spec(),
        "codec": codec,
        "levels": len(plan.levels),
        "tiers": len(plan.pack_of),
        "packs": len(plan.packs),
        "positions_indexed": plan.positions,
        "complete": False,
        "pack_tiers": {p.name: list(p.tiers) for p in plan.packs},
    }
    try:
        old = read_manifest(folder)
    except CorruptTableError:  # this solve writes it again
        old = None
    if old is not None and (
        _layout(old.get("spec")) != _layout(manifest["spec"]) or old.get("codec") != codec
    ):
        raise BoardLabError(
            f"{folder} holds tables of other rules or another codec; remove it or choose another"
            " folder"
        )
    write_manifest(folder, manifest)
    done = done_packs(game, folder, plan)
    spec = game.spec()
    if scheduler is None:  # this process solves: what it holds already comes off the budget
        shared_game(spec).tier_context(plan.packs[-1].tiers[0])  # the solver's tables, built
        budget = max(budget - resident_bytes(), MIN_BUDGET)
    total = plan.positions
    positions = sum(p.positions for p in plan.packs if p.name in done)
    t0 = add_time(clock, "plan", started)
    runner: LocalRunner | ThreadRunner | DaskRunner
    if scheduler is not None:
        runner = DaskRunner(scheduler, budget, on_dashboard)
    elif workers > 1:
        runner = ThreadRunner(workers, budget)
    else:
        runner = LocalRunner(budget)
    add_time(clock, "cluster", t0)
    solving = 0.0
    read_last = last_reads(game, plan)
    try:
        for lv, packs in enumerate(plan.levels):
            if lv > 0:  # codes nothing left reads: their memory serves the next ones
                runner.forget(folder, read_last[lv - 1])
            todo = [p for p in packs if p.name not in done]
            ndone = len(packs) - len(todo)
            if on_progress:
                on_progress(lv, ndone, len(packs), positions, total)
            if not todo:
                continue
            level_start = time.perf_counter()
            for pack, head in runner.run(spec, folder, todo, plan, codec):
                for phase, seconds in head.pop("timings", {}).items():
                    clock[phase] = clock.get(phase, 0.0) + seconds
                done[pack.name] = head
                ndone += 1
                positions += pack.positions
                if on_progress:
                    on_progress(lv, ndone, len(packs), positions, total)
            solving += time.perf_counter() - level_start
        apart = runner.flush()  # every pack file written before the manifest says complete
    finally:
        closing = stamp()
        runner.close()
        add_time(clock, "cluster", closing)
    for phase, seconds in apart.items():
        clock[phase] = clock.get(phase, 0.0) + seconds
    apart_phases = ("plan", "cluster", "idle", "sync")  # not on the solving threads
    in_packs = sum(clock.get(p, 0.0) for p in PHASES if p not in apart_phases)
    if not runner.writes_between_runs:  # a writer thread's writes: not the solving threads'
        in_packs -= apart.get("write", 0.0)
    clock["idle"] = max(0.0, runner.threads * solving - in_packs)
    headers = [done[p.name] for p in plan.packs]
    manifest.update(complete=True, **totals(headers))
    manifest["bytes"] = sum(pack_path(folder, p.name).stat().st_size for p in plan.packs)
    write_manifest(folder, manifest)
    if timings is not None:
        for phase in [*PHASES, *(f"{p} cpu" for p in PHASES)]:
            timings[phase] = timings.get(phase, 0.0) + clock.get(phase, 0.0)
    return manifest


def _layout(spec: Any) -> Any:
    """A spec without the adapter's module path (which may move between versions)."""
    return {k: v for k, v in spec.items() if k != "adapter"} if isinstance(spec, dict) else spec
