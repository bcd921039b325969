"""`boardlab verify`: check every stored value and remoteness against the children's."""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.text import Text

from boardlab.cli.common import UsageError, bounded, console, fraction, print_json
from boardlab.cli.solve import add_table_args, table_for, table_rules

MAX_SAMPLE = 10_000_000


def register(sub: Any) -> None:
    """Add the verify parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="independently check a tablebase against the rules",
        description="Check the file checksum, then that every position's stored value and "
        "remoteness follow from the stored values of its children under the rules (a check "
        "written apart from the solver), plus a random sample through the Python rules engine. "
        "Exit status 1 if anything disagrees.",
    )
    add_table_args(p)
    p.add_argument(
        "--sample",
        type=bounded(int, 0),
        default=20000,
        help="positions also checked through the Python rules engine (default 20000)",
    )
    p.add_argument(
        "--fraction",
        type=fraction,
        default=1.0,
        help="share of the tiers checked against their children (default 1: all)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the checks and print every disagreement."""
    from boardlab.solver.verify import describe_bad, verify_table

    if not 0 <= args.sample <= MAX_SAMPLE:
        raise UsageError(f"--sample must be 0 to {MAX_SAMPLE:,} positions")
    rules = table_rules(args)
    table = table_for(args, rules)
    t0 = time.perf_counter()
    table.check()
    report = verify_table(rules, table, sample=max(0, args.sample), fraction=args.fraction)
    seconds = time.perf_counter() - t0
    lines = [describe_bad(table, t, i) for t, i in report.bad] + report.sample_failures
    if args.json:
        print_json(
            {
                "ruleset": rules.ruleset_id(),
                "folder": str(table.path),
                "tiers": report.tiers,
                "entries": report.entries,
                "positions": report.positions,
                "sampled": report.sampled,
                "failures": report.failures + len(report.sample_failures),
                "disagreements": lines,
                "seconds": round(seconds, 2),
            }
        )
        return 0 if report.ok else 1
    console.print(f"{table.path}: checksum ok")
    console.print(
        f"checked {report.positions:,} positions of {report.tiers:,} tiers ({report.entries:,} "
        f"index entries, the rest must be empty) against their children, and "
        f"{report.sampled:,} sampled positions through the rules engine, in {seconds:.1f} s"
    )
    for line in lines:
        console.print(Text.assemble(("disagreement:", "red"), f" {line}"))
    if report.failures > len(report.bad):
        console.print(f"... and {report.failures - len(report.bad):,} more")
    console.print(
        Text("no disagreement", style="green")
        if report.ok
        else Text(f"{report.failures + len(report.sample_failures):,} disagreements", style="red")
    )
    return 0 if report.ok else 1
