"""`boardlab perft`: leaf counts of the move tree, the move generator's correctness oracle."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rich.text import Text

from boardlab.cli.common import UsageError, add_game_args, console, rules_from_args
from boardlab.core.registry import get_game

MAX_DEPTH = 20


def register(sub: Any) -> None:
    """Add the perft parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "perft",
        help="count the leaves of the move tree at a depth",
        description="Count the leaf nodes of the move tree at DEPTH plies from the start or a "
        "position. A finished game has no children; repetition is ignored. The count is the "
        "last number printed.",
    )
    add_game_args(p)
    p.add_argument("--position", help="start from this position (canonical notation)")
    p.add_argument("--depth", type=int, required=True, help="depth in plies")
    p.add_argument(
        "--divide", action="store_true", help="also print the count below each first move"
    )
    p.set_defaults(func=run)


def perft_function(game: str) -> Callable[..., int]:
    """The perft a game declares (`GameInfo.perft`); UsageError when it has none."""
    info = get_game(game)
    if info.perft is None:
        raise UsageError(f"{info.title} has no perft")
    return info.perft


def run(args: argparse.Namespace) -> int:
    """Print the leaf count (last) and the rate."""
    rules = rules_from_args(args)
    if not 0 <= args.depth <= MAX_DEPTH:
        raise UsageError(
            f"--depth must be 0 to {MAX_DEPTH} (the tree grows about tenfold a ply; "
            "deeper counts would not finish)"
        )
    position = rules.parse_position(args.position) if args.position else rules.start()
    perft = perft_function(rules.game)
    perft(rules, position, min(args.depth, 1))  # compile (or load) the kernel before timing
    if args.divide and args.depth >= 1 and rules.outcome(position) is None:
        for move in rules.legal_moves(position):
            child = rules.play(position, move)
            console.print(f"{rules.format_move(move)}: {perft(rules, child, args.depth - 1)}")
    t0 = time.perf_counter()
    count = int(perft(rules, position, args.depth))
    seconds = time.perf_counter() - t0
    rate = count / seconds if seconds > 0 else float("inf")
    console.print(Text(f"{seconds:.3f} s, {rate:,.0f} leaves/s", style="dim"))
    print(count)
    return 0
