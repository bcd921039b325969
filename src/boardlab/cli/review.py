"""`boardlab review RECORD`: each move of a recorded game marked by what it did to the value."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from boardlab.cli.common import UsageError, add_tables_arg, console, table_store
from boardlab.cli.solve import table_for

MARK_TEXT = {
    "win-loss": "win → loss",
    "win-draw": "win → draw",
    "draw-loss": "draw → loss",
    "slower": "slower win",
    "best": "",
    "ok": "",
}
MARK_STYLE = {"win-loss": "bold red", "win-draw": "red", "draw-loss": "red", "slower": "yellow"}


def register(sub: Any) -> None:
    """Add the review parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "review",
        help="mark each move of a recorded game by what it did to the value",
        description="Replay a game record (text or JSON; '-' reads stdin) and mark every move "
        "that threw a win into a draw or a loss, a draw into a loss, or kept a win more "
        "slowly than it could, with the table's best move beside it and a summary.",
    )
    p.add_argument("record", help="the record file, or - for stdin")
    add_tables_arg(p)
    p.add_argument("--all", action="store_true", help="list every move, not only marked ones")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.set_defaults(func=run)


def load(source: str) -> Any:
    """The record at `source` ('-': stdin)."""
    from boardlab.core.records import GameRecord

    if source == "-":
        return GameRecord.parse(sys.stdin.read())
    path = Path(source)
    if not path.is_file():
        raise UsageError(f"no record file {source}")
    return GameRecord.load(path)


def run(args: argparse.Namespace) -> int:
    """Review the record and print the marks and the summary."""
    from boardlab.ai.review import review_game

    record = load(args.record)
    session = record.to_session()
    rules = session.rules
    if not table_store(args).solvable(rules):
        raise UsageError(
            f"review needs a complete table, and there is none for {rules.game} "
            f"{rules.variant} {rules.size}×{rules.size}"
        )
    table = table_for(args, rules)
    review = review_game(rules, table, session.start, session.moves)
    if args.json:
        sys.stdout.write(json.dumps(review.as_dict(), ensure_ascii=False) + "\n")
        return 0
    grid = Table(show_header=True, header_style="bold")
    for name in ("move", "side", "played", "value", "best", "better line"):
        grid.add_column(name)
    for m in review.moves:
        if not args.all and m.mark in ("best", "ok"):
            continue
        style = MARK_STYLE.get(m.mark, "")
        after = m.after.value + ("" if m.after_remoteness is None else f" {m.after_remoteness}")
        grid.add_row(
            f"{m.number}{'.' if m.first_player else '…'}",
            m.side,
            m.move,
            Text(MARK_TEXT[m.mark] or after, style=style),
            m.best,
            " ".join(m.better_line),
        )
    if grid.row_count:
        console.print(grid)
    console.print(review.summary())
    return 0
