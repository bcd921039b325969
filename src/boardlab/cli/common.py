"""Shared pieces of the subcommands: game options, rules from arguments, one-line errors."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from rich.console import Console
from rich.text import Text

from boardlab.core.errors import BoardLabError
from boardlab.core.registry import AnyRules, make_rules

# markup off: text from users, files and exceptions is printed as it is, never read as
# rich markup (styled output uses Text objects)
console = Console(highlight=False, markup=False)
err_console = Console(stderr=True, highlight=False, markup=False)


class UsageError(BoardLabError):
    """A command-line argument that makes no sense; exit status 2."""


def add_game_args(parser: argparse.ArgumentParser, size_help: str | None = None) -> None:
    """--game, --variant and --size, as every game command takes them."""
    parser.add_argument("--game", default="dodgem", help="game: dodgem or dotdash (default dodgem)")
    parser.add_argument(
        "--variant",
        default=None,
        help="variant: classic, blocked-loses, misere, piecepack for Dodgem "
        "(default classic); standard, frozen, capture for Dot Dash",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=None,
        help=size_help
        or "board size (Dodgem 3-8, default 4; Piecepack 6; Dot Dash 7-19, default 13)",
    )


def rules_from_args(args: argparse.Namespace) -> AnyRules:
    """The rules named by --game, --variant and --size; raises BoardLabError."""
    return make_rules(args.game, args.variant, args.size)


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2."""
    err_console.print(error_text(message), soft_wrap=True)
    raise SystemExit(2)


def error_text(message: str) -> Text:
    """`error: message` with the label in bold red and the message as plain text."""
    return Text.assemble(("error:", "bold red"), " ", message)


def one_line(exc: BaseException) -> str:
    """An exception as one line of text for a user."""
    text = str(exc).strip() or exc.__class__.__name__
    return " ".join(text.split())


def print_json(obj: Any) -> None:
    """Write JSON to stdout as plain text (no colour, no wrapping)."""
    import json

    sys.stdout.write(json.dumps(obj) + "\n")
