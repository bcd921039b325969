"""`boardlab serve`: the web app on uvicorn (loopback unless told otherwise)."""

from __future__ import annotations

import argparse
import threading
import webbrowser
from pathlib import Path
from typing import Any

from boardlab.cli.common import UsageError, console, table_store


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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from boardlab.web import create_app

    if not 0 < args.port < 65536:
        raise UsageError(f"port must be 1-65535, not {args.port}")
    app = create_app(tables=table_store(args), warm=True)
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    url = f"http://{shown}:{args.port}/"
    console.print(f"BoardLab at [bold]{url}[/] (Ctrl-C to stop)")
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        console.print(f"[yellow]note:[/] listening on {args.host}, reachable from other machines")
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
