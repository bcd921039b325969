"""`boardlab verify`: check every stored entry against the rules and its children's values."""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from rich.text import Text

from boardlab.cli.common import UsageError, bounded, console, err_console, fraction, print_json
from boardlab.cli.solve import MIN_MEMORY_GIB, add_table_args, table_rules, tier_progress

MAX_SAMPLE = 10_000_000
DEFAULT_SAMPLE = 1000


def register(sub: Any) -> None:
    """Add the verify parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="independently check a tablebase against the rules",
        description="Check every pack's checksum, then derive every stored entry again from "
        "the game's rules (written apart from the solver's) and the stored entries of its "
        "children, pack by pack on a Dask cluster like the solve, and name every "
        "disagreement; also a random sample of positions through the Python rules engine. "
        "A stopped verification goes on where it stopped (its record is verify.json beside "
        "the tables). Exit status 1 if anything disagrees, 2 if the tables are missing, "
        "damaged or of other rules.",
    )
    add_table_args(p)
    p.add_argument(
        "--workers",
        "--jobs",
        dest="jobs",
        type=int,
        default=None,
        help="threads that check side by side in this process (default: 1 up to 4×4, "
        "else the number of cores)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="use the Dask cluster at this address; its workers must see the tables folder",
    )
    p.add_argument(
        "--memory",
        type=bounded(float, MIN_MEMORY_GIB),
        default=12.0,
        metavar="GIB",
        help="memory budget in GiB of the whole check, as for solve (default 12)",
    )
    p.add_argument(
        "--fraction",
        type=fraction,
        default=1.0,
        help="share of the packs checked, drawn at random, above 0 and at most 1 (default 1: "
        "every pack)",
    )
    p.add_argument(
        "--sample",
        type=int,
        default=DEFAULT_SAMPLE,
        help=f"positions also checked through the Python rules engine (default {DEFAULT_SAMPLE})",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="check every pack again, ignoring what the record says was checked",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the checks and print every disagreement as a named line."""
    from boardlab.solver.api import default_jobs, open_table, require_game, ruleset_id, table_path
    from boardlab.solver.verify import (
        checker_of,
        describe,
        open_for_check,
        sample_by_rules,
        verify_table,
    )

    if not 0 <= args.sample <= MAX_SAMPLE:
        raise UsageError(f"--sample must be 0 to {MAX_SAMPLE:,} positions")
    if not 0 < args.fraction <= 1:
        raise UsageError("--fraction must be above 0 and at most 1")
    most = 2 * (os.cpu_count() or 1)
    if args.jobs is not None and not 1 <= args.jobs <= most:
        raise UsageError(f"--workers/--jobs must be 1 to {most} (twice the cores of this machine)")
    if args.memory <= 0:
        raise UsageError("--memory must be positive")
    rules = table_rules(args)
    game = require_game(rules)
    folder = table_path(rules, args.tables)
    checker = checker_of(rules, game)
    if args.scheduler is not None:
        from boardlab.solver.cluster import check_scheduler

        check_scheduler(args.scheduler)
    jobs = args.jobs
    if jobs is None:
        jobs = 1 if args.scheduler is not None else default_jobs(rules)
    t0 = time.perf_counter()
    opened = open_for_check(game, checker, folder, jobs)  # bad input: one line, before any bar
    with tier_progress(f"verifying {ruleset_id(rules)}") as (levels, dashboard):
        report = verify_table(
            game,
            checker,
            folder,
            workers=jobs,
            scheduler=args.scheduler,
            budget=int(args.memory * (1 << 30)),
            fraction=args.fraction,
            fresh=args.fresh,
            on_progress=levels,
            on_dashboard=dashboard,
            opened=opened,
        )
    if args.sample:
        table = open_table(rules, args.tables)
        try:
            report.sampled, report.sample_failures = sample_by_rules(rules, table, args.sample)
        finally:
            table.close()
    seconds = time.perf_counter() - t0
    lines = [describe(game, f) for f in report.findings] + report.sample_failures
    more = report.failures - len(lines)
    if args.json:
        print_json(
            {
                "ruleset": report.ruleset,
                "folder": str(folder),
                "checker": report.checker,
                "independent": report.independent,
                "complete": report.complete,
                "packs": report.packs,
                "packs_total": report.packs_total,
                "packs_from_record": report.resumed,
                "tiers": report.tiers,
                "entries": report.entries,
                "positions": report.positions,
                "sampled": report.sampled,
                "errors": report.errors,
                "failures": report.failures,
                "findings": lines,
                "seconds": round(seconds, 2),
            }
        )
        return 0 if report.ok else 1
    rules_text = (
        f"the game's own rules ({report.checker})"
        if report.independent
        else f"the solver adapter's moves ({report.checker}: no independent checker declared)"
    )
    part = (
        ""
        if report.complete
        else f" (a random {args.fraction:g} of the {report.packs_total} packs)"
    )
    console.print(f"{folder}: every pack present and its checksum right")
    console.print(
        f"checked {report.positions:,} positions ({report.entries:,} entries) of "
        f"{report.tiers:,} tiers in {report.packs:,} packs{part} against their children by "
        f"{rules_text}"
        + (f", {report.resumed:,} packs from the record" if report.resumed else "")
        + f"; and {report.sampled:,} sampled positions through the rules engine; "
        f"{seconds:.1f} s"
    )
    if report.record_note:
        err_console.print(f"note: no record kept: {report.record_note}")
    for line in lines:
        console.print(Text(line, style="red"))
    if more > 0:
        console.print(f"... and {more:,} more")
    if report.ok:
        console.print(Text("no disagreement", style="green"))
    else:
        kinds = ", ".join(f"{n:,} {k}" for k, n in sorted(report.errors.items()))
        extra = f", {len(report.sample_failures)} rules disagree" if report.sample_failures else ""
        console.print(Text(f"{report.failures:,} disagreements: {kinds}{extra}", style="red"))
    return 0 if report.ok else 1
