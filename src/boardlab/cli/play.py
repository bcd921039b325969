"""`boardlab play`: a game in the terminal against the computer or another person."""

from __future__ import annotations

import argparse
import importlib
import random
from collections.abc import Callable
from typing import Any

from rich.text import Text

from boardlab.ai.base import Player, make_player
from boardlab.cli.common import add_game_args, console, rules_from_args
from boardlab.core.errors import BoardLabError, UnknownGameError
from boardlab.core.records import GameRecord
from boardlab.core.registry import AnyRules, get_game
from boardlab.core.session import GameSession

COLOURS = ("blue", "red", "green")
COMMANDS_HELP = "moves, undo, redo, save FILE, help, quit"


def help_text(rules: AnyRules, position: Any) -> str:
    """How to type a move, with an example legal here, and the commands."""
    legal = rules.legal_moves(position)
    example = f" (e.g. {rules.format_move(legal[0])})" if legal else ""
    return f"Type a move in notation{example}, or a command: {COMMANDS_HELP}."


def add_side_args(parser: argparse.ArgumentParser, default_first: str, default_second: str) -> None:
    """--blue, --red and --green (the colours of the chosen game), each human/random/1-4."""
    for colour in COLOURS:
        parser.add_argument(
            f"--{colour}",
            metavar="WHO",
            default=None,
            help=f"who plays {colour}: human, random or a level 1-4",
        )
    parser.set_defaults(default_sides=(default_first, default_second))


def sides_from_args(args: argparse.Namespace, rules: AnyRules) -> list[str]:
    """Who plays each side, by player index, from the colour options of this game."""
    names = rules.player_names
    sides = list(args.default_sides)
    for colour in COLOURS:
        value = getattr(args, colour)
        if value is None:
            continue
        if colour not in names:
            raise UnknownGameError(
                f"--{colour} is not a side of this game; its sides are {names[0]} and {names[1]}"
            )
        sides[names.index(colour)] = value.strip().lower()
    return sides


def computer(spec: str, rules: AnyRules) -> Player | None:
    """The computer player for a side, or None for a human."""
    if spec == "human":
        return None
    return make_player(spec, rules)


def default_computer_level() -> str:
    """Level 3 where computer levels exist, else the random player."""
    try:
        importlib.import_module("boardlab.ai.levels")
    except ImportError:
        return "random"
    return "3"


def render(rules: AnyRules, position: Any, last: Any) -> Any:
    """The game's own board drawing (boardlab.games.<game>.render.render_board)."""
    try:
        module = importlib.import_module(f"boardlab.games.{rules.game}.render")
    except ModuleNotFoundError:
        return Text(rules.format_position(position))
    return module.render_board(rules, position, last)


def register(sub: Any) -> None:
    """Add the play parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play in the terminal. Moves are typed in notation; commands: moves, undo, "
        "redo, save FILE, help, quit. Sides are named by colour: --blue/--red for Dodgem, "
        "--red/--green for Piecepack, --red/--blue for Dot Dash.",
    )
    add_game_args(p)
    add_side_args(p, "human", default_computer_level())
    p.add_argument("--position", help="start from this position (canonical notation)")
    p.add_argument("--setup", help="Dot Dash: a fixed setup such as 'setup R:G7 B:G8,H7 r'")
    p.add_argument("--load", metavar="FILE", help="continue a saved game record")
    p.add_argument("--seed", type=int, default=None, help="seed of the computer's choices")
    p.set_defaults(func=run)


def start_session(
    args: argparse.Namespace, rules: AnyRules, sides: list[str], ask: Callable[[str], str]
) -> GameSession[Any, Any]:
    """A new session from --load, --position, --setup, a pie setup, or the standard start."""
    if args.load:
        record = GameRecord.load(args.load)
        return record.to_session()
    if args.position:
        return GameSession(rules, rules.parse_position(args.position))
    if args.setup:
        return GameSession(rules, rules.parse_position(args.setup))
    if rules.game == "dotdash":
        return GameSession(rules, pie_dialogue(args, rules, sides, ask))
    return GameSession(rules)


def pie_dialogue(
    args: argparse.Namespace, rules: AnyRules, sides: list[str], ask: Callable[[str], str]
) -> Any:
    """Dot Dash's pie setup. Two humans run the whole dialogue; against the computer the human
    places three stones and the computer chooses its colour, so `sides` is re-seated to match;
    two computers start from the fixed setup."""
    pie = importlib.import_module("boardlab.games.dotdash.pie")

    def say(text: str) -> None:
        console.print(text)

    humans = [s == "human" for s in sides]
    if all(humans):
        return pie.pie_setup(rules, ask, say, None)
    if not any(humans):
        return rules.start()
    level = next(s for s in sides if s != "human")
    agent = importlib.import_module("boardlab.ai.dotdash").pie_agent(
        rules, random.Random(args.seed)
    )
    result = pie.run_pie(rules, ask, say, agent, "chooser")
    sides[:] = ["human", "human"]
    sides[result.chooser_colour] = level
    return result.position


def run(args: argparse.Namespace) -> int:
    """The interactive loop: computers move on their turn, humans type moves or commands."""
    rules = rules_from_args(args)
    sides = sides_from_args(args, rules)

    def ask(prompt: str) -> str:
        return console.input(prompt)

    try:
        session = start_session(args, rules, sides, ask)
    except EOFError:
        return 0
    if args.load:
        rules = session.rules
    players = [computer(s, rules) for s in sides]
    rng = random.Random(args.seed)
    names = rules.player_names
    console.print(
        Text.assemble(
            (get_game(rules.game).title, "bold"),
            f" {rules.variant} {rules.size}×{rules.size}: {names[0]} {sides[0]}, "
            f"{names[1]} {sides[1]}. {help_text(rules, session.position)}",
        )
    )
    show = True
    while True:
        last = session.moves[-1] if session.moves else None
        if show:
            console.print(render(rules, session.position, last))
        show = True
        result = session.result
        if result is None and players[session.to_move] is not None:
            player = players[session.to_move]
            assert player is not None
            move = player.choose(rules, session.position, session.positions[:-1], rng)
            session.play(move)
            console.print(
                f"{names[1 - session.to_move]} ({player.name}) plays {rules.format_move(move)}"
            )
            continue
        if result is not None:
            console.print(
                Text.assemble((result.describe(names), "bold"), " — undo, save FILE or quit")
            )
        prompt = "> " if result is not None else f"{names[session.to_move]} to move> "
        try:
            line = console.input(prompt).strip()
        except EOFError:
            console.print()
            return 0
        if not line:
            show = False
            continue
        word, _, rest = line.partition(" ")
        command = word.lower()
        try:
            if command in ("quit", "exit", "q"):
                return 0
            if command in ("help", "?"):
                console.print(help_text(rules, session.position))
                show = False
            elif command == "moves":
                legal = session.legal_moves()
                console.print(" ".join(rules.format_move(m) for m in legal) or "no moves")
                show = False
            elif command == "undo":
                _undo(session, players)
            elif command == "redo":
                _redo(session, players)
            elif command == "save":
                if not rest.strip():
                    raise UnknownGameError("save needs a file name, e.g. save game.txt")
                who = {names[i]: sides[i] for i in (0, 1)}
                path = GameRecord.from_session(session, who).save(rest.strip())
                console.print(f"saved {path}")
                show = False
            else:
                session.play(line)
        except BoardLabError as exc:
            console.print(Text(" ".join(str(exc).split()), style="red"))
            show = False
        except OSError as exc:
            console.print(Text(f"cannot save: {exc.strerror or exc}", style="red"))
            show = False


def _undo(session: GameSession[Any, Any], players: list[Player | None]) -> None:
    """Take back moves until a human is to move again (or nothing is left)."""
    session.undo()
    while session.can_undo and players[session.to_move] is not None:
        session.undo()


def _redo(session: GameSession[Any, Any], players: list[Player | None]) -> None:
    """Replay moves taken back until a human is to move again (or none are left)."""
    session.redo()
    while session.can_redo and players[session.to_move] is not None:
        session.redo()
