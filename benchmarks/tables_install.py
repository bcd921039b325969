"""Install time of a table over loopback HTTP: `boardlab tables install URL` as a whole process
(download, every pack's checksum, the digest, the rename), against a plain download of the
same files.

The table (5×5 classic by default: solved into a temporary folder first unless --table names
a built one) is served by a static file server with Range support in this process. Each run
installs into a fresh folder; the figures are wall seconds and MB/s of table bytes.

    python benchmarks/tables_install.py [--table DIR] [--repeat 3] [--serve]

`--serve` only serves the table and prints its URL until interrupted (to time the command
with another tool).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _machine import header


class RangeHandler(SimpleHTTPRequestHandler):
    """Static files, with `Range: bytes=N-` answered 206 (what `install` resumes with)."""

    def send_head(self):  # type: ignore[no-untyped-def]
        rng = self.headers.get("Range")
        path = Path(self.translate_path(self.path))
        if not rng or not path.is_file():
            return super().send_head()
        start = int(rng.removeprefix("bytes=").split("-")[0])
        size = path.stat().st_size
        fh = open(path, "rb")  # noqa: SIM115 (closed by the base class after copying)
        fh.seek(start)
        self.send_response(206)
        self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.send_header("Content-Length", str(size - start))
        self.end_headers()
        return fh

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(root: Path) -> tuple[ThreadingHTTPServer, str]:
    handler = lambda *a, **k: RangeHandler(*a, directory=str(root), **k)  # noqa: E731
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    host, port = srv.server_address[:2]
    return srv, f"http://{host!s}:{port}/"


def boardlab(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "boardlab", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=True)


def plain_download(url: str, names: list[str], into: Path) -> None:
    for name in names:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(url + name) as resp, open(target, "wb") as out:
            shutil.copyfileobj(resp, out, 1 << 20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", type=Path, default=None, help="a built table's folder")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--serve", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        table = args.table
        if table is None:
            print(f"solving {args.variant} {args.size}×{args.size} first ...", file=sys.stderr)
            boardlab(
                "solve", "--variant", args.variant, "--size", str(args.size),
                "--tables", str(work / "built"),
            )  # fmt: skip
            table = next((work / "built").iterdir())
        source = work / "source" / table.name
        shutil.copytree(table, source)  # digest.json is written into the copy
        boardlab(
            "tables", "digest", "--variant", args.variant, "--size", str(args.size),
            "--tables", str(source.parent),
        )  # fmt: skip
        srv, url = serve(source)
        if args.serve:
            print(url, flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                return
        files = sorted(str(p.relative_to(source)) for p in source.rglob("*") if p.is_file())
        size = sum((source / f).stat().st_size for f in files)
        print(header("tables install over loopback HTTP"))
        print(f"{table.name}: {len(files)} files, {size:,} bytes")
        installs, plains = [], []
        for k in range(args.repeat):
            t0 = time.perf_counter()
            boardlab("tables", "install", url, "--tables", str(work / f"installed{k}"))
            installs.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            plain_download(url, files, work / f"plain{k}")
            plains.append(time.perf_counter() - t0)
        srv.shutdown()
        for label, times in (("boardlab tables install", installs), ("plain download", plains)):
            med = statistics.median(times)
            print(
                f"{label:>24}: median {med:.2f} s ({size / med / 1e6:.1f} MB/s), "
                f"min {min(times):.2f} s, max {max(times):.2f} s over {len(times)} runs"
            )


if __name__ == "__main__":
    main()
