"""`boardlab engine`: a computer player behind a line protocol on stdin and stdout.

See docs/engine-protocol.md. Every answer is one line, flushed at once; a bad line gets
`error <message>` and the engine keeps running.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Hashable
from typing import Any, TextIO

from boardlab.cli.common import add_game_args, add_tables_arg, one_line, rules_from_args
from boardlab.core.errors import BoardLabError, GameOverError, NotationError
from boardlab.core.rules import Rules


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `engine` parser."""
    p = subparsers.add_parser(
        "engine",
        help="play moves for other programs over stdin/stdout",
        description="Line protocol: 'position <P> [moves <m> ...]' or 'position startpos', "
        "'go' (answers 'bestmove <move>'), 'isready' (answers 'readyok'), 'quit'.",
    )
    add_game_args(p)
    p.add_argument(
        "--level",
        default=None,
        help="player: a level of the game or random (default 3, or the game's strongest below)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the player's choices")
    add_tables_arg(p)
    p.set_defaults(func=run)


class Engine:
    """The protocol state: rules, player, current position and the positions before it."""

    def __init__(self, rules: Rules[Any, Any], level: str, seed: int, tables: Any = None) -> None:
        from boardlab.ai.base import make_player

        self.rules = rules
        self.player = make_player(level, rules, tables)
        self.rng = random.Random(seed)
        self.position: Hashable = rules.start()
        self.history: list[Hashable] = []

    def set_position(self, rest: str) -> None:
        """`position` arguments: 'startpos' or a position, optionally 'moves m1 m2 ...'."""
        text, _, moves_text = rest.partition(" moves ")
        text = text.strip()
        if text.endswith(" moves") or text == "moves":
            text = text.removesuffix("moves").strip()
        if not text:
            raise NotationError("position needs 'startpos' or a position")
        pos = self.rules.start() if text.lower() == "startpos" else self.rules.parse_position(text)
        history: list[Hashable] = []
        for token in moves_text.split():
            move = self.rules.parse_move(token)
            history.append(pos)
            pos = self.rules.play(pos, move)
        self.position, self.history = pos, history

    def go(self) -> str:
        """The player's move in the current position, as notation."""
        rules = self.rules
        if rules.outcome(self.position) is not None or not rules.legal_moves(self.position):
            raise GameOverError("the game is over: no move to play")
        rep = rules.repetition
        if rep is not None and self.history.count(self.position) + 1 >= rep:
            raise GameOverError("the game is over: drawn by repetition")
        move = self.player.choose(rules, self.position, self.history, self.rng, None)
        return rules.format_move(move)

    def handle(self, line: str) -> str | None:
        """The answer to one line (None for no answer); raises SystemExit on quit."""
        words = line.strip()
        if not words:
            return None
        command, _, rest = words.partition(" ")
        command = command.lower()
        if command == "quit":
            raise SystemExit(0)
        if command == "isready":
            return "readyok"
        if command == "startpos":
            self.set_position("startpos")
            return None
        if command == "position":
            self.set_position(rest)
            return None
        if command == "go":
            return f"bestmove {self.go()}"
        raise NotationError(f"unknown command {command!r} (position, go, isready, quit)")


def serve(engine: Engine, stdin: TextIO, stdout: TextIO) -> int:
    """Answer lines from `stdin` until 'quit' or end of input."""
    for line in stdin:
        try:
            answer = engine.handle(line)
        except SystemExit:
            return 0
        except (BoardLabError, ValueError) as exc:
            answer = f"error {one_line(exc)}"
        if answer is not None:
            stdout.write(answer + "\n")
            stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    """Start the engine on stdin and stdout."""
    from boardlab.ai.base import default_level
    from boardlab.cli.common import table_store
    from boardlab.core.registry import get_game

    rules = rules_from_args(args)
    level = default_level(get_game(rules.game)) if args.level is None else str(args.level)
    engine = Engine(rules, level, args.seed, table_store(args))
    return serve(engine, sys.stdin, sys.stdout)
