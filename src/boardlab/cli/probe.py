"""`boardlab probe`: value and remoteness of positions read from stdin, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardlab.cli.common import err_console, error_text, one_line
from boardlab.cli.solve import add_table_args, table_for, table_rules
from boardlab.core.errors import BoardLabError, CorruptTableError


def register(sub: Any) -> None:
    """Add the probe parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "probe",
        help="look up positions (one per line on stdin) in the tablebase",
        description="Read positions one per line from stdin and write one JSON object "
        'per line: {"position", "value", "remoteness"} for the side to move, or '
        '{"position", "error"} for a line that is not a position of this board. Exit status '
        "1 if any line failed, 2 for a missing or damaged table.",
    )
    add_table_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Probe every line of stdin; bad lines get an error object and the rest go on."""
    rules = table_rules(args)
    table = table_for(args, rules)
    out = sys.stdout
    dumps = json.dumps
    lines = failed = 0
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        lines += 1
        try:
            value, rem = table.probe(rules.parse_position(text))
            out.write(dumps({"position": text, "value": value.value, "remoteness": rem}) + "\n")
        except CorruptTableError:
            raise  # the table, not the line, is at fault: stop with the one-line error
        except (BoardLabError, ValueError) as exc:
            failed += 1
            out.write(dumps({"position": text, "error": one_line(exc)}) + "\n")
    out.flush()
    if failed:
        err_console.print(error_text(f"{failed} of {lines} lines were not positions of this board"))
        return 1
    return 0
