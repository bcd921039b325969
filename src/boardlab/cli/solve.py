"""`boardlab solve`: build a complete Dodgem tablebase; helpers the table commands share."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from boardlab.cli.common import add_game_args, console, err_console, rules_from_args
from boardlab.core.errors import CorruptTableError, MissingTableError, UnknownGameError
from boardlab.games.dodgem.rules import DodgemRules

# Sizes whose table builds in seconds: commands that need one build it on the spot.
AUTO_BUILD_MAX_SIZE = 4


def add_table_args(parser: argparse.ArgumentParser) -> None:
    """--game/--variant/--size and --tables."""
    add_game_args(parser, size_help="board size 3-5 (default 4)")
    parser.add_argument(
        "--tables",
        type=Path,
        default=None,
        metavar="DIR",
        help="tablebase directory (default $BOARDLAB_TABLES or the user data dir)",
    )


def dodgem_rules(args: argparse.Namespace) -> DodgemRules:
    """The rules named by the arguments, if the solver covers them; else UnknownGameError."""
    from boardlab.solver import solvable

    rules = rules_from_args(args)
    if not isinstance(rules, DodgemRules):
        raise UnknownGameError(f"tablebases exist only for Dodgem, not {args.game}")
    if not solvable(rules):
        raise UnknownGameError(
            f"no tablebase for {rules.ruleset_id()}: the solver covers classic, blocked-loses "
            "and misere Dodgem on 3×3 to 5×5 boards"
        )
    return rules


def table_for(args: argparse.Namespace, rules: DodgemRules) -> Any:
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
        help="build the complete tablebase of a Dodgem ruleset",
        description="Solve every Dodgem position of a ruleset by retrograde analysis and write "
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
    from boardlab.solver.api import open_table, run_build, table_path

    rules = dodgem_rules(args)
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
    default_jobs = 1 if rules.size < 5 else min(2, os.cpu_count() or 1)
    jobs = args.jobs if args.jobs is not None else default_jobs
    if jobs < 1:
        raise UnknownGameError("--jobs must be at least 1")
    t0 = time.perf_counter()
    run_build(rules, args.tables, jobs, progress=True)
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
