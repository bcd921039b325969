"""From `boardlab serve`'s start to level 4's first move played from the complete table, on a
fresh user data folder (no tables, no friends' database), for the classic 3×3 or 4×4 board.

The server is started with an empty `$BOARDLAB_TABLES` and user data folder; the script asks
for a level-4 move from the start position every 0.2 s until the answer says it came from
the table (`"table": "ready"`), prints the seconds since the server was started, and stops
the server. `--fresh-cache` empties the user cache folder too (compiled kernels), as on a
machine where BoardLab was just installed. Time the whole process from outside to compare
two versions of BoardLab:

    python benchmarks/serve_first_table_move.py --size 4
    PYTHONPATH=/path/to/other/checkout/src python benchmarks/serve_first_table_move.py --size 4
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ask(port: int, size: int) -> dict[str, object] | None:
    body = {"game": "dodgem", "variant": "classic", "size": size, "moves": [], "level": "4"}
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/move",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            answer: dict[str, object] = json.loads(resp.read())
            return answer
    except (OSError, urllib.error.URLError, ValueError):
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, choices=(3, 4), default=4)
    parser.add_argument("--limit", type=float, default=600.0, help="give up after this long")
    parser.add_argument(
        "--fresh-cache",
        action="store_true",
        help="an empty user cache folder too: compiled kernels are compiled again, as on a "
        "machine where BoardLab has just been installed",
    )
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="boardlab-first-move-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDLAB_")}
    env.update(BOARDLAB_TABLES=str(home / "tables"), XDG_DATA_HOME=str(home / "data"))
    if args.fresh_cache:
        env["XDG_CACHE_HOME"] = str(home / "cache")
        env.pop("NUMBA_CACHE_DIR", None)
    port = free_port()
    t0 = time.monotonic()
    server = subprocess.Popen(
        [sys.executable, "-m", "boardlab", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while time.monotonic() - t0 < args.limit:
            answer = ask(port, args.size)
            if answer is not None and answer.get("table") == "ready":
                took = time.monotonic() - t0
                print(f"{args.size}x{args.size}: {took:.2f} s to the first table move")
                return 0
            if server.poll() is not None:
                print("the server stopped", file=sys.stderr)
                return 1
            time.sleep(0.2)
        print(f"no table move within {args.limit:.0f} s", file=sys.stderr)
        return 1
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
