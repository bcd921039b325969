"""`boardlab solve`: build a ruleset's complete tables; helpers the table commands share."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from boardlab.cli.common import UsageError, add_game_args, console, err_console, rules_from_args
from boardlab.core.errors import CorruptTableError, MissingTableError

# Sizes whose table builds in seconds: commands that need one build it on the spot.
AUTO_BUILD_MAX_SIZE = 4


def add_table_args(parser: argparse.ArgumentParser) -> None:
    """--game/--variant/--size and --tables."""
    add_game_args(parser, size_help="board size 3-6 (default 4; Piecepack 6)")
    parser.add_argument(
        "--tables",
        type=Path,
        default=None,
        metavar="DIR",
        help="tablebase directory (default $BOARDLAB_TABLES or the user data dir)",
    )


def dodgem_rules(args: argparse.Namespace) -> Any:
    """The rules named by the arguments, if the solver covers them; else UnknownGameError."""
    from boardlab.solver.api import require_game

    rules = rules_from_args(args)
    require_game(rules)
    return rules


def table_for(args: argparse.Namespace, rules: Any) -> Any:
    """Open the table, building it with a progress bar if it is missing and small."""
    from boardlab.solver import ensure_table, open_table

    if rules.size <= AUTO_BUILD_MAX_SIZE:
        try:
            return open_table(rules, args.tables)
        except MissingTableError:
            err_console.print(f"building the {rules.ruleset_id()} tablebase first")
            return ensure_table(rules, args.tables, progress=True)
    return open_table(rules, args.tables)


def register(sub: Any) -> None:
    """Add the solve parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "solve",
        help="build the complete tablebase of a ruleset",
        description="Solve every position of a ruleset by retrograde analysis, tier by tier, "
        "and write its tables. An interrupted solve continues where it stopped; tiers already "
        "on disk are never solved again.",
    )
    add_table_args(p)
    p.add_argument("--force", action="store_true", help="rebuild even if valid tables exist")
    p.add_argument(
        "--workers",
        "--jobs",
        type=int,
        default=None,
        help="Dask worker processes of a local cluster (default: 1 up to 5×5, else the number "
        "of cores); 1 solves in this process",
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
        type=float,
        default=12.0,
        metavar="GIB",
        help="memory budget in GiB for the tiers being solved and cached (default 12)",
    )
    p.add_argument("--codec", choices=("zstd", "zlib"), default="zstd", help="block compression")
    p.add_argument(
        "--estimate",
        action="store_true",
        help="solve a sample of tiers and predict time, memory and disk; solve nothing",
    )
    p.add_argument(
        "--cores",
        type=int,
        default=None,
        help="with --estimate: also predict for this many cores (default 16)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the tables unless valid ones exist; print where they are and what they hold."""
    from boardlab.solver.api import open_table, require_game, run_build, table_path

    rules = dodgem_rules(args)
    if args.memory <= 0:
        raise UsageError("--memory must be positive")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.estimate:
        from boardlab.solver.estimate import estimate, print_estimate

        est = estimate(require_game(rules), budget=int(args.memory * (1 << 30)))
        print_estimate(est, rules.ruleset_id(), args.cores or 16, console)
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
    workers = args.workers
    if workers is None:
        workers = 1 if rules.size <= 5 and args.scheduler is None else (os.cpu_count() or 1)
    t0 = time.perf_counter()
    run_build(
        rules,
        args.tables,
        workers,
        progress=True,
        scheduler=args.scheduler,
        budget=int(args.memory * (1 << 30)),
        codec=args.codec,
    )
    seconds = time.perf_counter() - t0
    tb = open_table(rules, args.tables)
    console.print(f"wrote {path} ({tb.header['bytes']:,} bytes) in {seconds:.1f} s")
    _summary(tb.header)
    return 0


def _summary(h: dict[str, Any]) -> None:
    console.print(
        f"{h['positions']:,} positions: {h['win']:,} win, {h['loss']:,} loss, "
        f"{h['draw']:,} draw (side to move); longest win/loss {h['max_remoteness']} plies"
    )
