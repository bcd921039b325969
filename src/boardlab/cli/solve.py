"""`boardlab solve`: build a complete tablebase; helpers the table commands share."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    bounded,
    check_interrupted,
    console,
    err_console,
    log_line,
    physical_memory_gib,
    rules_from_args,
    table_store,
)
from boardlab.core.errors import CorruptTableError, MissingTableError

LevelProgress = Callable[[int, int, int, int, int], None]
MIN_MEMORY_GIB = 1 / 16  # 64 MiB: below it, even a 4×4 solve cannot hold its tables


def add_table_args(parser: argparse.ArgumentParser) -> None:
    """--game/--variant/--size and --tables."""
    from boardlab.solver.store import tables_help

    add_game_args(parser, size_help=f"board size; the solver covers {tables_help()}")
    add_tables_arg(parser)


def table_rules(args: argparse.Namespace) -> Any:
    """The rules named by the arguments, if the solver covers them; else UsageError."""
    rules = rules_from_args(args)
    reason = table_store(args).unsolvable_reason(rules)
    if reason is not None:
        raise UsageError(reason)
    return rules


def table_for(args: argparse.Namespace, rules: Any) -> Any:
    """Open the table, building it with a progress bar if it is missing and small."""
    from boardlab.solver.api import ruleset_id, run_build

    store = table_store(args)
    try:
        return store.open(rules)
    except MissingTableError:
        if not store.builds_automatically(rules):
            raise
    err_console.print(f"building the {ruleset_id(rules)} tablebase first")
    with tier_progress(f"solving {ruleset_id(rules)}") as (levels, _dashboard):
        run_build(rules, store.folder, 1, on_levels=levels)
    return store.open(rules)


def register(sub: Any) -> None:
    """Add the solve parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "solve",
        help="build the complete tablebase of a ruleset",
        description="Solve every position of a ruleset by retrograde analysis and write "
        "its tablebase. An interrupted solve continues where it stopped.",
    )
    add_table_args(p)
    p.add_argument("--force", action="store_true", help="rebuild even if valid tables exist")
    p.add_argument(
        "--workers",
        "--jobs",
        dest="jobs",
        type=int,
        default=None,
        help="threads that solve side by side in this process (default: 1 up to 4×4, else "
        "the number of cores)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="use the Dask cluster at this address (tcp://HOST:PORT); its workers must see "
        "the tables folder",
    )
    p.add_argument(
        "--memory",
        type=bounded(float, MIN_MEMORY_GIB),
        default=12.0,
        metavar="GIB",
        help="memory budget in GiB of the whole solve: what the process holds at the start "
        "(tables, plan) comes off it, the rest goes to the tiers being solved and cached "
        "(default 12)",
    )
    p.add_argument("--codec", choices=("zstd", "zlib"), default="zstd", help="block compression")
    p.add_argument(
        "--estimate",
        action="store_true",
        help="solve a sample of tiers and predict time, memory and disk; solve nothing",
    )
    p.add_argument(
        "--timings",
        action="store_true",
        help="print at the end where the time went: seconds of each phase of the solve "
        "(plan, reading child tiers, the kernel's two passes, writing, idle threads)",
    )
    p.add_argument(
        "--cores",
        type=bounded(int, 1, 4096),
        default=None,
        help="with --estimate: also predict for this many cores (default 16)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the tables unless valid ones exist; print where they are and what they hold."""
    from boardlab.solver.api import (
        default_jobs,
        open_table,
        require_game,
        ruleset_id,
        run_build,
        table_path,
    )

    most = 2 * (os.cpu_count() or 1)
    if args.jobs is not None and not 1 <= args.jobs <= most:
        raise UsageError(f"--workers/--jobs must be 1 to {most} (twice the cores of this machine)")
    ram = physical_memory_gib()
    if args.scheduler is None and args.memory > ram:
        raise UsageError(f"--memory {args.memory:g} is more than this machine has ({ram:.1f} GiB)")
    budget = int(args.memory * (1 << 30))
    if args.scheduler is not None:  # a malformed address is refused even with nothing to do
        from boardlab.solver.cluster import scheduler_address

        args.scheduler = scheduler_address(args.scheduler)
    if args.cores is not None and args.cores < 1:
        raise UsageError("--cores must be at least 1")
    if args.estimate and not table_store(args).solvable(rules_from_args(args)):
        return estimate_on_paper(args, rules_from_args(args))
    rules = table_rules(args)
    if args.estimate:
        from boardlab.solver.estimate import estimate, print_estimate

        est = estimate(require_game(rules), budget=budget)
        print_estimate(est, ruleset_id(rules), args.cores or 16, console)
        from boardlab.solver.buildcost import save_estimate

        # kept for the web app, which tells its players how long a build takes here
        save_estimate(table_store(args).folder, ruleset_id(rules), est)
        return 0
    path = table_path(rules, args.tables)
    if not args.force:
        try:
            tb = open_table(rules, args.tables)
            tb.check()
            console.print(f"{path} is up to date (use --force to rebuild)")
            _summary(tb.header)
            return 0
        except MissingTableError:
            pass
        except CorruptTableError as exc:
            err_console.print(f"rebuilding: {exc}")
    elif path.exists():
        import shutil

        shutil.rmtree(path)
    if args.scheduler is not None:
        from boardlab.solver.cluster import check_scheduler

        check_scheduler(args.scheduler)  # before any progress bar: a one-line error
    jobs = args.jobs
    if jobs is None:
        jobs = 1 if args.scheduler is not None else default_jobs(rules)
    t0 = time.perf_counter()
    c0 = time.process_time()
    timings: dict[str, float] = {}
    with tier_progress(f"solving {ruleset_id(rules)}") as (levels, dashboard):
        run_build(
            rules,
            args.tables,
            jobs,
            scheduler=args.scheduler,
            budget=budget,
            codec=args.codec,
            on_levels=levels,
            on_dashboard=dashboard,
            timings=timings if args.timings else None,  # processor times cost system calls
        )
    seconds = time.perf_counter() - t0
    if args.timings:
        print_timings(timings, seconds, time.process_time() - c0, jobs, (process_age(t0), c0))
    tb = open_table(rules, args.tables)
    console.print(f"wrote {path} ({tb.header['bytes']:,} bytes) in {seconds:.1f} s")
    _summary(tb.header)
    return 0


def estimate_on_paper(args: argparse.Namespace, rules: Any) -> int:
    """`--estimate` for rules the solver does not run (7×7): counted from the game's declared
    tier shape, timed from a sample of the largest board it runs."""
    from boardlab.solver.api import default_tables_dir
    from boardlab.solver.paper import estimate_on_paper as paper
    from boardlab.solver.paper import print_paper

    def step(text: str) -> None:
        err_console.print(f"{text} ...", soft_wrap=True)

    est = paper(rules, args.tables or default_tables_dir(), step)
    print_paper(est, args.cores or 16, console)
    return 0


LOG_EVERY = 60.0
# Below this share of the positions the rate so far says little of the rest (a 6×6 solve's
# first levels hold a handful of positions, and its first minutes gave "1.5 million years"):
# the plain lines say the time left is not known yet.
KNOWN_AFTER = 0.01


def time_left(positions: int, total: int, rate: float) -> str:
    """The plain progress line's time left, from the rate so far (positions a second)."""
    from boardlab.solver.estimate import span

    if rate <= 0 or positions < KNOWN_AFTER * total:
        return "time left not known yet"
    return f"about {span((total - positions) / rate)} left"


@contextmanager
def tier_progress(
    title: str, unit: str = "packs"
) -> Iterator[tuple[LevelProgress, Callable[[str], None]]]:
    """Progress of work over the tiers level by level on stderr: rich bars (overall and per
    level, positions per second, time left) on a terminal, else a plain line per level and a
    minute. Yields the (on_levels, on_dashboard) callbacks of `boardlab.solver.api.run_build`
    (the level's parts counted in `unit`)."""

    def dashboard(link: str) -> None:
        err_console.print(f"Dask dashboard: {link}", soft_wrap=True, highlight=False)

    if not err_console.is_terminal:
        state: dict[str, float] = {}

        def line(level: int, done: int, packs: int, positions: int, total: int) -> None:
            check_interrupted()
            now = time.monotonic()
            if "t0" not in state:
                state.update(t0=now, p0=positions, last=0.0, level=-1.0)
            if now - state["last"] < LOG_EVERY and level == state["level"] and done < packs:
                return
            state["last"], state["level"] = now, level
            dt = now - state["t0"]
            rate = (positions - state["p0"]) / dt if dt > 0 else 0.0
            left = time_left(positions, total, rate)
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
            log_line(
                f"{stamp} level {level}: {done}/{packs} {unit}; {positions:,}/{total:,} positions "
                f"({100 * positions / max(1, total):.2f}%); {rate / 1e6:.2f} M pos/s; {left}"
            )

        yield line, dashboard
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
    ) as bar:
        overall = bar.add_task(title, total=None, info="")
        level_task = bar.add_task("level", total=None, info="")
        rates: dict[str, float] = {}

        def update(level: int, done: int, packs: int, positions: int, total: int) -> None:
            check_interrupted()
            now = time.monotonic()
            if "t0" not in rates:
                rates["t0"], rates["p0"] = now, positions
            dt = now - rates["t0"]
            rate = (positions - rates["p0"]) / dt if dt > 0 else 0.0
            bar.update(overall, completed=positions, total=total, info=f"{rate / 1e6:.2f} M pos/s")
            bar.update(
                level_task,
                description=f"level {level}",
                completed=done,
                total=packs,
                info=f"{done}/{packs} {unit}",
            )

        yield update, dashboard


def process_age(at: float) -> float | None:
    """Seconds from this process's start to `at` (a `time.perf_counter()` reading), where
    the system says when the process started (Linux), else None."""
    try:
        with open("/proc/self/stat") as fh:  # field 22: start, in clock ticks after boot
            started = int(fh.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
        with open("/proc/uptime") as fh:
            now = float(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return max(0.0, now - started - (time.perf_counter() - at))


def print_timings(
    timings: dict[str, float],
    wall: float,
    cpu: float,
    threads: int,
    before: tuple[float | None, float] | None = None,
) -> None:
    """Where a solve's time went, phase by phase (see `boardlab.solver.packsolve.PHASES`):
    wall seconds summed over the threads, and processor seconds; `before`: the wall seconds
    (None where unknown) and processor seconds of the process before the solve began."""
    from boardlab.solver.packsolve import PHASES

    plural = "s" if threads > 1 else ""
    console.print(
        f"timings: {wall:.2f} s wall, {cpu:.2f} s processor time, {threads} thread{plural}",
        highlight=False,
    )
    console.print(f"  {'phase':<38} {'wall s':>8} {'cpu s':>8}", highlight=False)
    for phase, what in PHASES.items():
        w = timings.get(phase, 0.0)
        c = timings.get(f"{phase} cpu", 0.0)
        console.print(f"  {what:<38} {w:8.2f} {c:8.2f}", highlight=False)
    if before is not None:  # not in the totals above: they count from the solve's start
        age = "?" if before[0] is None else f"{before[0]:.2f}"
        label = "before the solve: interpreter, imports"
        console.print(f"  {label:<38} {age:>8} {before[1]:8.2f}", highlight=False)


def _summary(h: dict[str, Any]) -> None:
    console.print(
        f"{h['positions']:,} positions: {h['win']:,} win, {h['loss']:,} loss, "
        f"{h['draw']:,} draw (side to move); longest win/loss {h['max_remoteness']} plies"
    )
