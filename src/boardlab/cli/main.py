"""Entry point: builds the argument parser from the subcommand modules and maps errors to
one-line messages with exit status 2."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from boardlab import __version__
from boardlab.cli.common import err_console, error_text, one_line

# Each module in boardlab.cli named here defines `register(subparsers)`, which adds its parser
# and sets `func` (args -> exit status) as a default.
COMMANDS = (
    "serve",
    "play",
    "watch",
    "perft",
    "solve",
    "probe",
    "analyze",
    "stats",
    "verify",
    "engine",
    "league",
)


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="boardlab",
        description="Play, solve and study Dodgem and Dot Dash.",
    )
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"boardlab.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"boardlab.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from boardlab.core.errors import BoardLabError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
        return status
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except (BoardLabError, OSError) as exc:
        err_console.print(error_text(one_line(exc)), soft_wrap=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
