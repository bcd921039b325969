"""`boardlab serve`: the web app on uvicorn (loopback unless told otherwise)."""

from __future__ import annotations

import argparse
import re
import threading
import webbrowser
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
        help="shared games' SQLAlchemy URL (default: an SQLite file in the user data folder)",
    )
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
    import uvicorn
    from rich.text import Text

    from boardlab.web import create_app
    from boardlab.web.connections import (
        ConnectionGuard,
        ConnectionLimits,
        protocols,
        raise_file_limit,
        total_for,
    )
    from boardlab.web.limits import WorkLimits

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
    check_bind(args.host, args.port)
    if not 1 <= args.max_body <= 64 * 1024:
        raise UsageError(f"--max-body must be 1-65536 kB, not {args.max_body}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be 1-64, not {args.threads}")
    if not 1 <= args.per_client <= args.threads:
        raise UsageError(f"--per-client must be 1 to --threads ({args.threads})")
    from boardlab.web.friends.db import make_engine
    from boardlab.web.friends.store import FriendLimits

    if args.database:  # a bad URL or a missing folder: one line, before anything starts
        make_engine(args.database).dispose()

    limits = FriendLimits(
        idle_expiry_s=args.idle_expiry * 3600,
        invite_expiry_s=args.invite_expiry * 3600,
        retain_s=args.retain_days * 86400,
    )
    hosts = [*args.allowed_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)  # the address it listens on is a name it answers to
    app = create_app(
        tables=table_store(args),
        allow_builds=args.allow_builds,
        allowed_hosts=hosts,
        max_body=args.max_body * 1024,
        limits=WorkLimits(threads=args.threads, per_client=args.per_client, processes=True),
        warm=True,
    )
    # shared games: migrate now, so a bad database fails before serving (in one line)
    store = open_database(app.state.friends.configure(args.database, limits))
    console.print(Text("shared games in " + store.engine.url.render_as_string(hide_password=True)))
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
    guard = ConnectionGuard(
        ConnectionLimits(
            per_address=args.connections_per_address, total=total_for(raise_file_limit())
        )
    )
    http, ws = protocols(guard)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        http=http,  # connection caps and a deadline for request heads
        ws=ws,
        ws_max_size=limits.message_bytes,  # larger WebSocket messages are refused unread
    )
    return 0


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


def open_database(friends: Any) -> Any:
    """Open (and migrate) the shared games' database; trouble is one UsageError line."""
    from boardlab.web.friends.db import default_database_url
    from boardlab.web.friends.trouble import database_path, database_trouble

    try:
        return friends.open()
    except Exception as exc:
        message = database_trouble(exc, database_path(friends.database or default_database_url()))
        if message is None:
            raise
        raise UsageError(message) from None
