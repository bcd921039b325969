"""A static file server on loopback for install tests: serves a folder with HTTP Range, can
cut a file's response after a given number of bytes, and logs what was asked."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote


class TableServer(ThreadingHTTPServer):
    """The server's state: the folder served, cuts to make, requests seen."""

    daemon_threads = True

    def __init__(self, root: Path, ranges: bool = True) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = root
        self.ranges = ranges  # False: ignore Range headers, as some servers do
        self.cuts: dict[str, list[int]] = {}  # path -> bytes to send before each cut, in turn
        self.log: list[tuple[str, str | None]] = []  # (path, Range header)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server: TableServer

    def do_GET(self) -> None:
        srv = self.server
        rng = self.headers.get("Range")
        srv.log.append((self.path, rng))
        path = srv.root / unquote(self.path.lstrip("/"))
        if not path.resolve().is_relative_to(srv.root.resolve()) or not path.is_file():
            self.send_error(404)
            return
        data = path.read_bytes()
        start = 0
        if rng and srv.ranges:
            start = int(rng.removeprefix("bytes=").split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        cuts = srv.cuts.get(self.path)
        if cuts:
            self.wfile.write(body[: cuts.pop(0)])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)  # the connection breaks half-way
            self.close_connection = True
            return
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(root: Path, ranges: bool = True) -> Iterator[TableServer]:
    """A running server for `root` on a free loopback port."""
    srv = TableServer(root, ranges)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join()
