"""`boardlab tables`: digest, install, list and remove complete tables."""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    console,
    err_console,
    print_json,
    rules_from_args,
    table_store,
)
from boardlab.cli.solve import add_table_args, table_rules

LOG_EVERY = 10.0


def register(sub: Any) -> None:
    """Add the tables parser and its subcommands."""
    p: argparse.ArgumentParser = sub.add_parser(
        "tables",
        help="digest, install, list and remove complete tables",
        description="Work with complete tables as files: the digest that two builds of the "
        "same rules share, installing a table from a folder or a web server (checked before "
        "use), the installed tables, removing one.",
    )
    tsub = p.add_subparsers(dest="tables_command", metavar="SUBCOMMAND", required=True)

    d = tsub.add_parser(
        "digest",
        help="one SHA-256 over a table's values",
        description="Print the SHA-256 of a complete table's values in canonical order (the "
        "same however many workers built it and however often it was interrupted), check "
        "every block on the way, and compare it with the digest BoardLab publishes. Exit "
        "status 1 if they differ. The digest is kept in the table's digest.json.",
    )
    add_table_args(d)
    d.add_argument("--jobs", type=int, default=None, help="threads (default: the core count)")
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(func=run_digest)

    i = tsub.add_parser(
        "install",
        help="install a table from a folder or an http(s):// URL",
        description="Copy a complete table (its manifest.json and packs/) from a folder or a "
        "static web server, resuming an interrupted download; every pack's checksum and the "
        "table's digest are checked before it is put in place. A damaged or foreign table is "
        "refused and nothing is installed.",
    )
    i.add_argument("source", metavar="SOURCE", help="a table's folder or its URL")
    add_game_args(i, size_help="with --game/--variant: the size the table must be")
    add_tables_arg(i)
    i.add_argument(
        "--digest",
        default=None,
        metavar="SHA256",
        help="the digest the table must have (else the source's digest.json or the published one)",
    )
    i.add_argument("--force", action="store_true", help="replace a table already installed")
    i.add_argument("--jobs", type=int, default=None, help="threads for the digest")
    i.set_defaults(func=run_install)

    ls = tsub.add_parser(
        "list",
        help="the tables in the tables folder",
        description="Each table in the folder: ruleset, state, size on disk, digest (as last "
        "computed) and whether a complete verification passed.",
    )
    add_tables_arg(ls)
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(func=run_list)

    r = tsub.add_parser(
        "remove",
        help="remove a table",
        description="Remove a ruleset's table (complete or not) from the tables folder.",
    )
    r.add_argument(
        "ruleset", nargs="?", default=None, metavar="RULESET", help="a ruleset id, as listed"
    )
    add_game_args(r)
    add_tables_arg(r)
    r.set_defaults(func=run_remove)


Meter = Callable[[int, int], None]  # (done, total)


@contextmanager
def meters() -> Iterator[Callable[[str, str], Meter]]:
    """Progress on stderr of one or more steps, each counted in `unit` ("bytes" or a word
    such as "packs"): yields `meter(title, unit)`, which makes a step's callback. A rich bar
    per step with rate and time left on a terminal, else a line every LOG_EVERY seconds."""
    from boardlab.cli.common import check_interrupted, log_line

    def texts(done: int, total: int, unit: str, seconds: float) -> tuple[str, str, float]:
        rate = done / max(seconds, 1e-9)
        left = (total - done) / rate if rate > 0 else 0.0
        if unit == "bytes":
            return f"{done / 1e6:,.1f}/{total / 1e6:,.1f} MB", f"{rate / 1e6:.1f} MB/s", left
        return f"{done:,}/{total:,} {unit}", f"{rate:.1f} {unit}/s", left

    if not err_console.is_terminal:

        def plain(title: str, unit: str) -> Meter:
            state = {"t0": time.monotonic(), "last": time.monotonic(), "lines": 0.0}

            def line(done: int, total: int) -> None:
                check_interrupted()
                now = time.monotonic()
                if now - state["last"] < LOG_EVERY and (done < total or not state["lines"]):
                    return  # a line every LOG_EVERY seconds, and a last one if any came before
                state["last"] = now
                state["lines"] += 1
                amount, speed, left = texts(done, total, unit, now - state["t0"])
                log_line(f"{title}: {amount}, {speed}, {left:.0f} s left")

            return line

        yield plain
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[amount]} {task.fields[speed]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err_console) as bar:

        def rich_meter(title: str, unit: str) -> Meter:
            task = bar.add_task(title, total=None, amount="", speed="", visible=False)
            t0 = time.monotonic()

            def update(done: int, total: int) -> None:
                check_interrupted()
                amount, speed, _ = texts(done, total, unit, time.monotonic() - t0)
                bar.update(
                    task, completed=done, total=total, amount=amount, speed=speed, visible=True
                )

            return update

        yield rich_meter


def run_digest(args: argparse.Namespace) -> int:
    """Compute, print and keep the digest; compare it with the published one."""
    from boardlab.solver.api import require_game, table_path
    from boardlab.solver.digest import table_digest, write_record
    from boardlab.solver.published import PUBLISHED

    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    rules = table_rules(args)
    game = require_game(_view(rules))
    folder = table_path(game, args.tables)
    with meters() as meter:
        digest = table_digest(
            game, folder, args.jobs, meter(f"digest of {game.ruleset_id}", "packs")
        )
    with contextlib.suppress(OSError):  # a read-only folder: the digest is printed anyway
        write_record(folder, digest)
    published = PUBLISHED.get(digest.ruleset)
    agrees = None if published is None else published == digest.sha256
    if args.json:
        print_json({**digest.as_dict(), "folder": str(folder), "published": agrees})
    else:
        console.print(f"{digest.sha256}  {digest.ruleset}", soft_wrap=True)
        if agrees is True:
            err_console.print("the published digest: the same")
        elif agrees is False:
            err_console.print(f"the published digest differs: {published}")
    return 1 if agrees is False else 0


def _view(rules: Any) -> Any:
    from boardlab.solver.store import solver_view

    return solver_view(rules)


def run_install(args: argparse.Namespace) -> int:
    """Install the table at SOURCE."""
    from boardlab.solver.api import default_tables_dir
    from boardlab.solver.install import install, open_source

    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    expect = None
    if args.variant is not None or args.size is not None:
        view = _view(rules_from_args(args))
        if view is None:
            raise UsageError(table_store(args).unsolvable_reason(rules_from_args(args)) or "")
        expect = str(view.ruleset_id)
    tables = args.tables if args.tables is not None else default_tables_dir()
    source = open_source(args.source)
    with meters() as meter:
        done = install(
            source,
            tables,
            expect_ruleset=expect,
            digest=args.digest,
            force=args.force,
            on_bytes=meter(f"fetching {args.source}", "bytes"),
            on_check=meter("checking the digest", "packs"),
            jobs=args.jobs,
        )
    rate = done.fetched / max(done.seconds, 1e-9) / 1e6
    console.print(
        f"installed {done.digest.ruleset} in {done.path} ({done.bytes:,} bytes, "
        f"{done.fetched:,} of them fetched by this run; {done.seconds:.1f} s with the checks, "
        f"{rate:.1f} MB/s)",
        soft_wrap=True,
    )
    said = " and ".join(done.checked_against)
    verb = "say" if len(done.checked_against) > 1 else "says"
    console.print(f"digest {done.digest.sha256}, as {said} {verb}", soft_wrap=True)
    return 0


def table_rows(tables: Path) -> list[dict[str, Any]]:
    """What `list` shows of each folder in `tables`."""
    from boardlab.solver.digest import read_record
    from boardlab.solver.folder import read_manifest
    from boardlab.solver.published import PUBLISHED

    rows: list[dict[str, Any]] = []
    try:
        entries = sorted(p for p in tables.iterdir() if p.is_dir())
    except FileNotFoundError:
        return rows
    for path in entries:
        name = path.name
        if name.startswith(".install-"):
            rows.append(
                {
                    "ruleset": name.removeprefix(".install-"),
                    "state": "install stopped (run it again to resume)",
                    "bytes": _disk(path),
                    "digest": None,
                    "published": None,
                    "verified": None,
                    "folder": str(path),
                }
            )
            continue
        if name.startswith("."):
            continue
        manifest = read_manifest(path)
        if manifest is None:
            continue
        record = read_record(path)
        digest = record.sha256 if record is not None else None
        published = PUBLISHED.get(str(manifest.get("ruleset")))
        rows.append(
            {
                "ruleset": str(manifest.get("ruleset", name)),
                "state": "complete" if manifest.get("complete") else "incomplete",
                "bytes": _disk(path),
                "digest": digest,
                "published": None if digest is None or published is None else digest == published,
                "verified": _verified(path, manifest),
                "folder": str(path),
            }
        )
    return rows


def human_bytes(n: int) -> str:
    """A size in kB, MB or GB (powers of ten, as disks are sold)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n} B"


def _disk(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _verified(path: Path, manifest: dict[str, Any]) -> str:
    """What the verifier's record says of the table (see `recorded_verdict`)."""
    from boardlab.solver.verify import recorded_verdict

    packs = manifest.get("pack_tiers")
    return recorded_verdict(path, packs if isinstance(packs, dict) else ())


def run_list(args: argparse.Namespace) -> int:
    """Print the tables of the folder."""
    from boardlab.solver.api import default_tables_dir

    tables = args.tables if args.tables is not None else default_tables_dir()
    rows = table_rows(tables)
    if args.json:
        print_json({"folder": str(tables), "tables": rows})
        return 0
    if not rows:
        console.print(f"no tables in {tables}", soft_wrap=True)
        return 0
    lines = [("ruleset", "state", "size", "digest", "verified")]
    for row in rows:
        digest = row["digest"]
        text = "not computed (boardlab tables digest)" if digest is None else digest
        if row["published"] is True:
            text += " (the published digest)"
        elif row["published"] is False:
            text += " (NOT the published digest)"
        size = human_bytes(row["bytes"])
        lines.append((row["ruleset"], row["state"], size, text, row["verified"] or ""))
    widths = [max(len(line[k]) for line in lines) for k in range(4)]
    console.print(f"tables in {tables}:", soft_wrap=True)
    for line in lines:
        cells = [
            c.rjust(w) if k == 2 else c.ljust(w)
            for k, (c, w) in enumerate(zip(line[:4], widths, strict=True))
        ]
        console.print("  ".join([*cells, line[4]]).rstrip(), soft_wrap=True)
    return 0


def run_remove(args: argparse.Namespace) -> int:
    """Remove one table."""
    from boardlab.solver.api import default_tables_dir
    from boardlab.solver.install import remove

    tables = args.tables if args.tables is not None else default_tables_dir()
    if args.ruleset is not None:
        if args.variant is not None or args.size is not None:
            raise UsageError("give a RULESET or --game/--variant/--size, not both")
        ruleset = args.ruleset
        if "/" in ruleset or ruleset.startswith(".") or not ruleset.strip():
            raise UsageError(f"{ruleset!r} is not a ruleset id")
    else:
        if args.size is None:
            raise UsageError("name the table: a RULESET, or --size (with --game/--variant)")
        view = _view(rules_from_args(args))
        if view is None:
            raise UsageError(table_store(args).unsolvable_reason(rules_from_args(args)) or "")
        ruleset = str(view.ruleset_id)
    path = remove(tables, ruleset)
    console.print(f"removed {path}")
    return 0
