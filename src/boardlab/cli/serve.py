"""`boardlab serve`: the web app on uvicorn (loopback unless told otherwise)."""

from __future__ import annotations

import argparse
import contextlib
import re
import threading
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boardlab.cli.common import UsageError, console, table_store

MAX_BODY_KB = 256


def register(subparsers: Any) -> None:
    """Add the `serve` parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="play, watch and analyse in the browser", description=__doc__
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument(
        "--tables", type=Path, default=None, help="tablebase folder (default: user data)"
    )
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="shared games' database: sqlite:///FILE or postgresql://USER@HOST/DB (default: an "
        "SQLite file in the user data folder)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes behind the port (PostgreSQL only beyond 1; default 1)",
    )
    p.add_argument(
        "--events",
        metavar="URL",
        default=None,
        help="carry shared-game events between processes over Redis (redis://HOST:6379/0); "
        "default with PostgreSQL: its LISTEN/NOTIFY",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="a proxy's address whose X-Forwarded-For names the client (repeatable; "
        "default 127.0.0.1)",
    )
    p.add_argument("--log-json", action="store_true", help="log JSON lines with a request id")
    p.add_argument(
        "--idle-expiry",
        metavar="HOURS",
        type=float,
        default=168.0,
        help="unfinished shared games untouched this long expire (default 168)",
    )
    p.add_argument(
        "--invite-expiry",
        metavar="HOURS",
        type=float,
        default=6.0,
        help="a shared game whose invitation nobody opened expires after this (default 6)",
    )
    p.add_argument(
        "--retain-days",
        metavar="DAYS",
        type=float,
        default=30.0,
        help="finished and expired shared games are deleted after this (default 30)",
    )
    p.add_argument(
        "--connections-per-address",
        metavar="N",
        type=int,
        default=64,
        help="open connections one client address may hold (IPv6: one /64; default 64)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides localhost and --host (repeatable; "
        "'*' for any, e.g. behind a proxy that checks it)",
    )
    p.add_argument(
        "--allow-builds",
        action="store_true",
        help="let every client start table builds (default: only clients on this machine)",
    )
    p.add_argument(
        "--max-body",
        type=int,
        default=MAX_BODY_KB,
        metavar="KB",
        help=f"largest request body in kB (default {MAX_BODY_KB})",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=4,
        help="threads for computer moves and playouts, all clients together (default 4)",
    )
    p.add_argument(
        "--per-client",
        type=int,
        default=2,
        help="of those, how many one client may use at once (default 2)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import json
    import os

    import uvicorn
    from rich.text import Text

    from boardlab.web.connections import LIMITS_ENV, ConnectionLimits, raise_file_limit, total_for
    from boardlab.web.server import ENV, ServeSettings, protocol_options

    if not 0 < args.port < 65536:
        raise UsageError(f"port must be 1-65535, not {args.port}")
    for name, value, most in (
        ("--idle-expiry", args.idle_expiry, 24 * 365.0),
        ("--invite-expiry", args.invite_expiry, 24 * 365.0),
        ("--retain-days", args.retain_days, 36_500.0),
    ):
        if not 0 < value <= most:  # also refuses nan and inf
            raise UsageError(f"{name} must be above 0 and at most {most:g}, not {value}")
    if not 1 <= args.connections_per_address <= 100_000:
        raise UsageError("--connections-per-address must be 1-100000")
    if not 1 <= args.max_body <= 64 * 1024:
        raise UsageError(f"--max-body must be 1-65536 kB, not {args.max_body}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be 1-64, not {args.threads}")
    if not 1 <= args.per_client <= args.threads:
        raise UsageError(f"--per-client must be 1 to --threads ({args.threads})")
    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers must be 1-64, not {args.workers}")
    check_bind(args.host, args.port)
    from boardlab.web.friends import db as dbmod
    from boardlab.web.friends.events import make_bus
    from boardlab.web.friends.store import FriendLimits

    database = args.database or dbmod.default_database_url()
    if args.workers > 1 and dbmod.is_sqlite(database):
        raise UsageError(
            "--workers above 1 needs PostgreSQL (--database postgresql://...): SQLite's games "
            "live in one process's memory and its events reach no other process"
        )
    if args.events:
        try:
            make_bus(args.events, database)
        except (ValueError, ImportError) as exc:
            raise UsageError(f"--events: {exc}") from None
    # a bad URL, a missing folder or a damaged database: one line, before anything starts;
    # then migrate, once, before any worker process opens the database
    shown_db = migrate_database(database)
    console.print(Text("shared games in " + shown_db))

    limits = FriendLimits(
        idle_expiry_s=args.idle_expiry * 3600,
        invite_expiry_s=args.invite_expiry * 3600,
        retain_s=args.retain_days * 86400,
    )
    hosts = [*args.allowed_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)  # the address it listens on is a name it answers to
    tables = table_store(args).folder
    settings = ServeSettings(
        tables=None if tables is None else str(tables),
        database=database,
        allow_builds=args.allow_builds,
        allowed_hosts=hosts,
        max_body=args.max_body * 1024,
        threads=args.threads,
        per_client=args.per_client,
        workers=args.workers,
        events=args.events,
        log_json=args.log_json,
        friend_limits={
            "idle_expiry_s": limits.idle_expiry_s,
            "invite_expiry_s": limits.invite_expiry_s,
            "retain_s": limits.retain_s,
        },
    )
    os.environ[ENV] = settings.to_env()
    # connection caps and a deadline for request heads, counted by each server process
    connection_limits = ConnectionLimits(
        per_address=args.connections_per_address, total=total_for(raise_file_limit())
    )
    os.environ[LIMITS_ENV] = json.dumps(connection_limits.__dict__)
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    url = f"http://{shown}:{args.port}/"
    console.print(Text.assemble("BoardLab at ", (url, "bold"), " (Ctrl-C to stop)"))
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        console.print(
            Text.assemble(
                ("note:", "yellow"),
                f" listening on {args.host}, reachable from other machines; answering to "
                f"host names: localhost, {', '.join(hosts) or '(none added)'}",
            )
        )
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    with metrics_folder(args.workers):
        uvicorn.run(
            "boardlab.web.server:app_from_env",
            factory=True,
            workers=args.workers,
            host=args.host,
            port=args.port,
            log_level="warning",
            **protocol_options(limits.message_bytes),
            forwarded_allow_ips=args.trusted_proxy or None,
            timeout_graceful_shutdown=20,  # SIGTERM: running requests get this long to end
        )
    return 0


@contextlib.contextmanager
def metrics_folder(workers: int) -> Iterator[None]:
    """With several worker processes, a private folder where each writes its metrics, so
    that /metrics answers for the whole server (prometheus-client's multiprocess mode, set
    by $PROMETHEUS_MULTIPROC_DIR before the workers start); removed when serving ends."""
    import os
    import tempfile

    from boardlab.web.ops import MULTIPROCESS_ENV

    if workers < 2:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="boardlab-metrics-") as folder:
        os.environ[MULTIPROCESS_ENV] = folder
        try:
            yield
        finally:
            del os.environ[MULTIPROCESS_ENV]


def migrate_database(database: str) -> str:
    """Open and migrate the shared games' database; its URL without the password. Trouble
    (corrupt, truncated, read-only, from a newer version) is one UsageError line."""
    from boardlab.web.friends import db as dbmod
    from boardlab.web.friends.trouble import database_path, database_trouble

    try:
        engine = dbmod.make_engine(database)
        try:
            dbmod.upgrade(engine)
            return engine.url.render_as_string(hide_password=True)
        finally:
            engine.dispose()
    except UsageError:
        raise
    except Exception as exc:
        message = database_trouble(exc, database_path(database))
        if message is None:
            raise
        raise UsageError(message) from None


def check_bind(host: str, port: int) -> None:
    """Refuse, in one line and at once, an address this machine cannot listen on (a dotted
    quad out of range is not looked up as a host name)."""
    import ipaddress
    import socket

    if re.fullmatch(r"[\d.]+", host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise UsageError(f"--host {host!r} is not an IPv4 address") from None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"--host {host!r}: cannot resolve it ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise UsageError(
                f"cannot listen on {host} port {port}: {exc.strerror or exc}"
            ) from None
