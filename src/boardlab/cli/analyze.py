"""`boardlab analyze`: a position's value and every legal move with its value, best first."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table
from rich.text import Text

from boardlab.cli.common import console, print_json
from boardlab.cli.play import render
from boardlab.cli.solve import add_table_args, table_for, table_rules


def register(sub: Any) -> None:
    """Add the analyze parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "analyze",
        help="show the tablebase value of a position and of each legal move",
        description="Show the board, its value for the side to move and each legal move with "
        "its value for the mover and plies to the end, best first.",
    )
    add_table_args(p)
    p.add_argument("--position", default=None, help="position (default: the start)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a board")
    p.set_defaults(func=run)


def _plies(rem: int | None) -> str:
    return "-" if rem is None else str(rem)


def run(args: argparse.Namespace) -> int:
    """Print the analysis."""
    from boardlab.solver import analyse

    rules = table_rules(args)
    position = rules.parse_position(args.position) if args.position else rules.start()
    table = table_for(args, rules)
    value, rem = table.probe(position)
    moves = analyse(rules, table, position)
    mover = rules.player_names[rules.to_move(position)]
    if args.json:
        print_json(
            {
                "position": rules.format_position(position),
                "to_move": mover,
                "value": value.value,
                "remoteness": rem,
                "moves": [
                    {
                        "move": rules.format_move(e.move),
                        "value": e.value.value,
                        "remoteness": e.remoteness,
                    }
                    for e in moves
                ],
            }
        )
        return 0
    console.print(render(rules, position, None))
    console.print(rules.format_position(position))
    tail = "" if rem is None else f" in {rem} plies"
    console.print(Text.assemble(f"{mover.capitalize()} to move: ", (value.value, "bold"), tail))
    out = rules.outcome(position)
    if out is not None:
        console.print(out.describe(rules.player_names))
        return 0
    grid = Table(show_header=True, header_style="bold")
    grid.add_column("move")
    grid.add_column("value")
    grid.add_column("plies", justify="right")
    for e in moves:
        grid.add_row(rules.format_move(e.move), e.value.value, _plies(e.remoteness))
    console.print(grid)
    return 0
