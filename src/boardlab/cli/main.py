"""Entry point: builds the argument parser from the subcommand modules and maps errors to
one-line messages with exit status 2."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from boardlab import __version__
from boardlab.cli import (
    analyze,
    engine,
    league,
    perft,
    play,
    probe,
    puzzles,
    review,
    serve,
    solve,
    stats,
    tables,
    verify,
    watch,
)
from boardlab.cli.common import UsageError, err_console, error_text, one_line
from boardlab.core.registry import games

# Each module named here defines `register(subparsers)`, which adds its parser and sets
# `func` (args -> exit status) as a default.
MODULES: tuple[ModuleType, ...] = (
    serve,
    play,
    watch,
    perft,
    solve,
    probe,
    analyze,
    stats,
    verify,
    tables,
    engine,
    league,
    puzzles,
    review,
)
COMMANDS = tuple(m.__name__.rsplit(".", 1)[-1] for m in MODULES)


def titles() -> str:
    """The registered games' titles, e.g. 'Dodgem and Dot Dash'."""
    names = sorted(info.title for info in games().values())
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are `UsageError`s: one line and exit status 2, like
    every other usage error (argparse would print the usage block first)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every available subcommand."""
    parser = Parser(
        prog="boardlab",
        description=f"Play, solve and study {titles()}.",
    )
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from boardlab.core.errors import BoardLabError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        err_console.print(error_text(one_line(exc)), soft_wrap=True)
        return 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    import signal

    from boardlab.cli.common import catch_interrupts, catch_termination

    previous = catch_interrupts()
    previous_term = catch_termination()
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
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if previous_term is not None:
            signal.signal(signal.SIGTERM, previous_term)


def entry() -> int:
    """The `boardlab` command: `main`, then the objects left frozen for the interpreter's
    exit, whose last collection would otherwise walk every one of them (numba's type
    registries among them: about 0.2 s of each run of a command that loaded compiled code).
    Modules are still torn down and `atexit` functions run; only cyclic garbage left at
    the end is not collected, as the process ends anyway. Not for a caller that goes on
    (tests call `main`)."""
    status = main()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(entry())
