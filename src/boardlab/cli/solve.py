"""`boardlab solve`: build a complete tablebase; helpers the table commands share."""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    console,
    err_console,
    rules_from_args,
    solve_progress,
    table_store,
)
from boardlab.core.errors import CorruptTableError, MissingTableError


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
    from boardlab.solver.api import run_build

    store = table_store(args)
    try:
        return store.open(rules)
    except MissingTableError:
        if not store.builds_automatically(rules):
            raise
    err_console.print(f"building the {rules.ruleset_id()} tablebase first")
    with solve_progress(f"solving {rules.ruleset_id()}") as (slices, blocks):
        run_build(rules, store.folder, 1, on_slices=slices, on_blocks=blocks)
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
    p.add_argument("--force", action="store_true", help="rebuild even if a valid table exists")
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="worker processes (default: 1 below 5×5, else the number of cores, at most 2)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the table unless a valid one exists; print where it is and what it holds."""
    from boardlab.solver.api import default_jobs, open_table, run_build, table_path

    most = 2 * (os.cpu_count() or 1)
    if args.jobs is not None and not 1 <= args.jobs <= most:
        raise UsageError(f"--jobs must be 1 to {most} (twice the cores of this machine)")
    rules = table_rules(args)
    path = table_path(rules, args.tables)
    if not args.force and path.exists():
        try:
            tb = open_table(rules, args.tables)
            tb.file.check()
            console.print(f"{path} is up to date (use --force to rebuild)")
            _summary(tb.header)
            return 0
        except CorruptTableError as exc:
            err_console.print(f"rebuilding: {exc}")
    jobs = args.jobs if args.jobs is not None else default_jobs(rules)
    t0 = time.perf_counter()
    with solve_progress(f"solving {rules.ruleset_id()}") as (slices, blocks):
        run_build(rules, args.tables, jobs, on_slices=slices, on_blocks=blocks)
    seconds = time.perf_counter() - t0
    tb = open_table(rules, args.tables)
    console.print(f"wrote {path} ({path.stat().st_size:,} bytes) in {seconds:.1f} s")
    _summary(tb.header)
    return 0


def _summary(h: dict[str, Any]) -> None:
    console.print(
        f"{h['positions']:,} positions: {h['win']:,} win, {h['loss']:,} loss, "
        f"{h['draw']:,} draw (side to move); longest win/loss {h['max_remoteness']} plies"
    )
