"""Shared pieces of the subcommands: game options read from the registered games, rules and
table stores from arguments, progress bars, one-line errors."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.text import Text

from boardlab.core.errors import UsageError
from boardlab.core.registry import AnyRules, games, make_rules

# markup off: text from users, files and exceptions is printed as it is, never read as
# rich markup (styled output uses Text objects)
console = Console(highlight=False, markup=False)
err_console = Console(stderr=True, highlight=False, markup=False)

# Set by Ctrl-C during a command. Python raises KeyboardInterrupt wherever the main thread
# is, and one raised inside a finaliser (a Dask future's __del__) is printed and dropped;
# long work calls `check_interrupted()` between its steps, so a dropped one still stops it.
_interrupted = threading.Event()


def _on_sigint(_signum: int, _frame: Any) -> None:
    _interrupted.set()
    raise KeyboardInterrupt


def catch_interrupts() -> Any:
    """Make Ctrl-C stick for the command about to run (main thread, default handler only);
    returns the handler to put back afterwards (None when nothing was changed)."""
    _interrupted.clear()
    return _catch(signal.SIGINT, signal.default_int_handler)


def catch_termination() -> Any:
    """Make SIGTERM (`kill`, a service manager stopping the command) end the command as Ctrl-C
    does, so that its cleanup runs and what it finished is kept; returns the handler to put
    back afterwards (None when nothing was changed: not the main thread, or a handler that is
    not the default)."""
    return _catch(signal.SIGTERM, signal.SIG_DFL)


def _catch(signum: int, default: Any) -> Any:
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signum)
    if previous is not default:
        return None
    signal.signal(signum, _on_sigint)
    return previous


def log_line(text: str) -> None:
    """One line of plain progress on stderr, written whole: `print` writes the text and its
    newline apart, and Ctrl-C between the two would run the next message onto the line."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def check_interrupted() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came during this command, even if it was dropped."""
    if _interrupted.is_set():
        raise KeyboardInterrupt


DEFAULT_GAME = "dodgem"

__all__ = [
    "DEFAULT_GAME",
    "UsageError",
    "add_game_args",
    "add_tables_arg",
    "console",
    "err_console",
    "fail",
    "log_line",
    "one_line",
    "print_json",
    "rules_from_args",
    "table_store",
]


def _number(text: str, kind: type[int] | type[float]) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def fraction(text: str) -> float:
    """An argparse type: a number in (0, 1]."""
    value = _number(text, float)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, not {text}")
    return value


def bounded(
    kind: type[int] | type[float], low: float, high: float | None = None, *, open_low: bool = False
) -> Callable[[str], Any]:
    """An argparse type: an int or float in [low, high] (high None: no upper bound;
    `open_low`: above `low`, not equal to it); nan and inf are refused."""

    def convert(text: str) -> Any:
        value = _number(text, kind)
        if (value <= low if open_low else value < low) or (high is not None and value > high):
            shown = f"above {low:g}" if open_low else f"at least {low:g}"
            most = "" if high is None else f" and at most {high:g}"
            raise argparse.ArgumentTypeError(f"must be {shown}{most}, not {text}")
        return value

    convert.__name__ = kind.__name__  # argparse names the type in its messages
    return convert


def cores() -> int:
    """This machine's cores (those this process may use)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def physical_memory_gib() -> float:
    """This machine's memory in GiB (inf when unknown)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    except (ValueError, OSError, AttributeError):
        return math.inf


def games_help() -> str:
    """The registered games, e.g. 'dodgem or dotdash'."""
    names = sorted(games())
    return " or ".join(names) if len(names) < 3 else ", ".join(names)


def variants_help() -> str:
    """Every game's variants, the default marked."""
    parts = []
    for info in sorted(games().values(), key=lambda i: i.name):
        names = ", ".join(
            f"{v} (default)" if v == info.default_variant else v for v in info.variant_names
        )
        parts.append(f"{info.title}: {names}")
    return "; ".join(parts)


def sizes_help() -> str:
    """Every game's board sizes per variant where they differ, with the published size."""
    parts = []
    for info in sorted(games().values(), key=lambda i: i.name):
        texts: dict[str, list[str]] = {}
        for v in info.variants:
            texts.setdefault(v.sizes_text(), []).append(v.name)
        if len(texts) == 1:
            parts.append(f"{info.title} {next(iter(texts))}")
        else:
            parts.extend(f"{info.title} {'/'.join(n)} {t}" for t, n in texts.items())
    return "; ".join(parts)


def add_game_args(parser: argparse.ArgumentParser, size_help: str | None = None) -> None:
    """--game, --variant and --size, as every game command takes them; the help texts come
    from the registered games."""
    parser.add_argument(
        "--game", default=DEFAULT_GAME, help=f"game: {games_help()} (default {DEFAULT_GAME})"
    )
    parser.add_argument("--variant", default=None, help=f"variant: {variants_help()}")
    parser.add_argument(
        "--size", type=int, default=None, help=size_help or f"board size: {sizes_help()}"
    )


def add_tables_arg(parser: argparse.ArgumentParser) -> None:
    """--tables DIR, the folder of complete tables."""
    parser.add_argument(
        "--tables",
        type=Path,
        default=None,
        metavar="DIR",
        help="tablebase folder (default $BOARDLAB_TABLES or the user data folder)",
    )


def table_store(args: argparse.Namespace) -> Any:
    """The `TableStore` of the --tables folder (the default folder without one)."""
    from boardlab.solver.store import TableStore

    return TableStore(getattr(args, "tables", None))


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
