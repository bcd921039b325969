"""`boardlab watch`: the computer against itself, one game move by move or many with a tally."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from boardlab.ai.base import make_player
from boardlab.ai.match import play_game
from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    console,
    rules_from_args,
    table_store,
)
from boardlab.cli.play import COMPUTER, add_side_args, render, sides_from_args
from boardlab.core.records import player_label
from boardlab.core.registry import get_game
from boardlab.core.session import GameSession

MAX_DELAY = 60.0


def register(sub: Any) -> None:
    """Add the watch parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "watch",
        help="watch the computer play itself",
        description="Computer against computer. One game is shown move by move; with --games N "
        "above 1 a progress bar keeps the running tally and the totals are printed at the end.",
    )
    add_game_args(p)
    add_side_args(p, COMPUTER, COMPUTER)  # each side the game's default level
    add_tables_arg(p)
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--delay", type=float, default=0.5, help="seconds between shown moves")
    p.add_argument("--seed", type=int, default=None, help="seed, for a reproducible run")
    p.add_argument("--position", help="start from this position (canonical notation)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and show them."""
    rules = rules_from_args(args)
    sides = sides_from_args(args, rules)
    if "human" in sides:
        raise UsageError("watch is computer against computer: give each side random or a level")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if not 0 <= args.delay <= MAX_DELAY:  # also refuses nan and inf
        raise UsageError(f"--delay must be 0 to {MAX_DELAY:g} seconds")
    tables = table_store(args)
    players = [make_player(s, rules, tables) for s in sides]
    start = rules.parse_position(args.position) if args.position else None
    rng = random.Random(args.seed)
    names = rules.player_names
    console.print(
        f"{get_game(rules.game).title} {rules.variant} {rules.size}×{rules.size}: "
        f"{names[0]} {player_label(sides[0])}, {names[1]} {player_label(sides[1])}"
    )
    if args.games == 1:

        def show(session: GameSession[Any, Any]) -> None:
            mover = names[1 - session.to_move]
            console.print(f"{mover} plays {rules.format_move(session.moves[-1])}")
            console.print(render(rules, session.position, session.moves[-1]))
            if args.delay > 0:
                time.sleep(args.delay)

        console.print(render(rules, start if start is not None else rules.start(), None))
        session = play_game(rules, players, rng, start=start, on_move=show)
        result = session.result
        console.print(Text(result.describe(names) if result else "Unfinished", style="bold"))
        return 0
    tally = {0: 0, 1: 0, None: 0}
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tally]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )

    def tally_text() -> str:
        return f"{names[0]} {tally[0]} · {names[1]} {tally[1]} · draws {tally[None]}"

    # the last finished game's board above the bar with the running tally
    progress = Progress(*columns, console=console)
    task = progress.add_task("games", total=args.games, tally=tally_text())
    board: Any = Text("")
    with Live(Group(board, progress), console=console, refresh_per_second=8) as live:
        for k in range(args.games):
            session = play_game(rules, players, rng, start=start)
            outcome = session.result
            tally[outcome.winner if outcome else None] += 1
            progress.update(task, advance=1, tally=tally_text())
            last = session.moves[-1] if session.moves else None
            said = outcome.describe(names) if outcome else "Unfinished"
            board = Group(
                Text(f"game {k + 1}: {said}", style="bold"), render(rules, session.position, last)
            )
            live.update(Group(board, progress))
    if not console.is_terminal:
        console.print()  # a live display ends its line only on a terminal
    who = [player_label(side) for side in sides]
    title = f"{args.games} games: {names[0]} {who[0]} vs {names[1]} {who[1]}"
    console.print(Text(title, style="bold"))
    table = Table()
    for col in (f"{names[0]} wins", f"{names[1]} wins", "draws"):
        table.add_column(col, justify="right")
    table.add_row(str(tally[0]), str(tally[1]), str(tally[None]))
    console.print(table)
    return 0
