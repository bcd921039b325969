"""`boardlab puzzles`: positions with exactly one right move, drawn from the complete tables."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.text import Text

from boardlab.cli.common import UsageError, console
from boardlab.cli.play import render
from boardlab.cli.solve import add_table_args, table_for, table_rules

KIND_TEXT = {
    "win": "find the move that wins",
    "defend": "find the only move that does not lose",
    "hold": "find the move that holds the draw",
}
FASTEST_TEXT = "find the fastest win"
MAX_COUNT = 1000


def register(sub: Any) -> None:
    """Add the puzzles parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "puzzles",
        help="print puzzles from the tablebase: positions with exactly one right move",
        description="Draw positions from seeded random play in which exactly one move wins or "
        "wins fastest (win), avoids losing against a threat (defend) or holds the draw in "
        "the long run (hold); print each with its solution line and difficulty. Every "
        "solution is checked against the table. The same seed gives the same puzzles.",
    )
    add_table_args(p)
    p.add_argument("--count", type=int, default=10, help="how many puzzles (default 10)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--kind",
        action="append",
        default=None,
        choices=("win", "defend", "hold"),
        help="only puzzles of this kind (repeat for several; default all)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Generate and print the puzzles."""
    from boardlab.ai.puzzles import KINDS, generate

    if not 1 <= args.count <= MAX_COUNT:
        raise UsageError(f"--count must be between 1 and {MAX_COUNT}")
    rules = table_rules(args)
    table = table_for(args, rules)
    puzzles = generate(rules, table, args.count, seed=args.seed, kinds=args.kind or KINDS)
    if args.json:
        for p in puzzles:
            sys.stdout.write(json.dumps(p.as_dict(), ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return 0
    for p in puzzles:
        d = p.as_dict()
        task = FASTEST_TEXT if p.fastest else KIND_TEXT[p.kind]
        console.rule(f"puzzle {p.number} · {p.kind} · rating {p.rating}")
        console.print(render(rules, rules.parse_position(p.position), None))
        console.print(f"{p.position}   {p.to_move.capitalize()} to move: {task}")
        wrong = ", ".join(f"{m} {v}" for m, v in p.wrong.items())
        line = " ".join(p.line)
        console.print(Text.assemble("solution ", (p.solution, "bold"), f"   line {line}"))
        console.print(
            f"wrong moves: {wrong}  ·  tempting {p.tempting}  ·  levels 1-2 miss it "
            f"{d['miss_rate']:.0%}",
            soft_wrap=True,
        )
    if len(puzzles) < args.count:
        console.print(f"found {len(puzzles)} of {args.count} puzzles on this board")
    return 0
