"""Limits on open connections, enforced in uvicorn's protocol objects, before any request is
read: a cap per client address (IPv6 counted per /64) and a cap in all, kept below the
process's open-file limit, and a deadline for a request's headers.

A connection past a cap gets a short 503 with `Retry-After` and is closed at once; a
connection that has not sent a complete request head within `header_timeout` seconds (when it
is new, or idle after an answer) is closed. Refusals are logged one line per address per
minute (`RefusalLog`), never one per socket. `boardlab serve` passes the classes made by
`protocols()` to uvicorn as its HTTP and WebSocket protocols.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import resource
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

log = logging.getLogger("boardlab.web")

FILE_RESERVE = 256  # descriptors kept free of connections: database, tables, worker pipes
MOST_CONNECTIONS = 16_384


def address_key(host: str) -> str:
    """The unit a per-address limit counts: the address itself for IPv4 (and anything that
    is not an address), its /64 network for IPv6 (one host commonly holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RefusalLog:
    """Log refusals at most once per address (key) and `every` seconds, with the count of
    refusals since that key's last line. Remembers at most `keep` keys: past that, the key
    refused least recently is forgotten (it logs again on its next refusal), so an address
    that keeps being refused stays known and keeps to one line a minute. `clock` gives the
    time in seconds (monotonic by default; tests pass their own)."""

    def __init__(
        self,
        what: str,
        every: float = 60.0,
        keep: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.every, self.keep, self.clock = what, every, max(1, keep), clock
        # key -> (time of its last line, refusals since); least recently refused first
        self._last: dict[str, tuple[float, int]] = {}

    def __len__(self) -> int:
        return len(self._last)

    def refused(self, key: str, reason: str) -> None:
        now = self.clock()
        at, count = self._last.pop(key, (-self.every - 1.0, 0))
        count += 1
        if now - at < self.every:
            self._last[key] = (at, count)  # back in, as the most recently refused
            return
        while len(self._last) >= self.keep:
            del self._last[next(iter(self._last))]
        self._last[key] = (now, 0)
        log.warning("%s refused from %s: %s (%d in the last minute)", self.what, key, reason, count)


def raise_file_limit(wanted: int = MOST_CONNECTIONS + FILE_RESERVE) -> int:
    """Raise the soft limit on open files towards `wanted` (never above the hard limit);
    the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return MOST_CONNECTIONS + FILE_RESERVE if soft == resource.RLIM_INFINITY else soft


def total_for(file_limit: int) -> int:
    """The total cap of connections that leaves `FILE_RESERVE` descriptors free."""
    return max(8, min(MOST_CONNECTIONS, file_limit - FILE_RESERVE))


@dataclass
class ConnectionLimits:
    """Settings of the connection guard."""

    per_address: int = 64
    total: int = 768
    header_timeout: float = 10.0
    retry_after: int = 10


_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: application/json\r\n"
    b"retry-after: %d\r\n"
    b"connection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)


class ConnectionGuard:
    """Counts the open connections per address and in all (one event loop: no locks)."""

    def __init__(self, limits: ConnectionLimits | None = None) -> None:
        self.limits = limits or ConnectionLimits()
        self._of: dict[int, str] = {}  # id(transport) -> address key
        self._per: dict[str, int] = {}
        self.log = RefusalLog("connections")

    def open_count(self, key: str | None = None) -> int:
        """Open connections, in all or of one address key."""
        return len(self._of) if key is None else self._per.get(key, 0)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; False (and nothing counted) when a cap is reached, after
        answering 503 and closing it."""
        peer = transport.get_extra_info("peername")
        key = address_key(str(peer[0])) if isinstance(peer, tuple) and peer else "local"
        lim = self.limits
        reason = None
        if len(self._of) >= lim.total:
            reason = f"the server holds {lim.total} connections, its limit"
        elif self._per.get(key, 0) >= lim.per_address:
            reason = f"{lim.per_address} connections open from this address, the limit"
        if reason is not None:
            self.log.refused(key, reason)
            body = b'{"error": "too many connections: try again shortly", "kind": "Busy"}'
            # uvloop's transports are not asyncio's classes: ask for the methods themselves
            stream: Any = transport
            try:
                if hasattr(stream, "write"):
                    stream.write(_REFUSAL % (lim.retry_after, len(body), body))
                stream.close()
            except Exception:  # the peer may already be gone
                if hasattr(stream, "abort"):
                    stream.abort()
            return False
        self._of[id(transport)] = key
        self._per[key] = self._per.get(key, 0) + 1
        return True

    def release(self, transport: asyncio.BaseTransport | None) -> None:
        """Uncount a connection (again: nothing)."""
        if transport is None:
            return
        key = self._of.pop(id(transport), None)
        if key is not None:
            left = self._per.get(key, 1) - 1
            if left > 0:
                self._per[key] = left
            else:
                self._per.pop(key, None)


def protocols(guard: ConnectionGuard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes, with `guard`'s caps and header
    deadline (pass them as `uvicorn.run(http=..., ws=...)`)."""
    base: Any = AutoHTTPProtocol
    ws_base: Any = AutoWebSocketsProtocol
    assert ws_base is not None, "the websockets package is a dependency"

    class GuardedHTTP(base):  # type: ignore[misc]
        _refused = False
        _timer: asyncio.TimerHandle | None = None
        _armed_for: Any = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            if not guard.admit(transport):
                self._refused = True
                return
            self._arm()

        def _arm(self) -> None:
            """Close the connection unless a new request's head arrives in time."""
            if self._timer is None:
                self._armed_for = self.cycle
                self._timer = self.loop.call_later(
                    guard.limits.header_timeout, self._header_deadline
                )

        def _header_deadline(self) -> None:
            self._timer = None
            transport = self.transport
            if transport is None or transport.is_closing():
                return
            if transport.get_protocol() is not self:  # upgraded to a WebSocket
                return
            if self.cycle is self._armed_for and (
                self.cycle is None or self.cycle.response_complete
            ):
                transport.close()  # no request head in time

        def on_response_complete(self) -> None:
            if self._timer is not None:  # answered: uvicorn's keep-alive timer takes over
                self._timer.cancel()
                self._timer = None
            super().on_response_complete()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self.cycle is None or self.cycle.response_complete:
                self._arm()  # the bytes of a next request: its head has a deadline too
            super().data_received(data)

        def handle_websocket_upgrade(self, *event: Any) -> None:  # h11's takes its event
            super().handle_websocket_upgrade(*event)
            # The connection is the WebSocket protocol's from here on, and this one hears
            # no more of it: no `connection_lost`, where uvicorn drops its parser. That
            # parser refers back to this protocol, a cycle holding the transport and with
            # it the socket's whole state until the collector's next full pass (a busy
            # server closes thousands of sockets a minute), so it is broken here, and the
            # head deadline's timer (which would hold this protocol too) stopped.
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if hasattr(self, "parser"):  # httptools' protocol (h11's keeps no such cycle)
                self.parser = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            transport = self.transport
            if not self._refused and transport is not None and transport.get_protocol() is self:
                guard.release(transport)
            super().connection_lost(exc)

    class GuardedWebSocket(ws_base):  # type: ignore[misc]
        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)
            # websockets' protocol keeps its parser, a generator that refers back to it,
            # suspended for good once the connection is gone: closing it ends that cycle,
            # so the socket's state is freed now rather than at the collector's next pass
            parser = getattr(getattr(self, "conn", None), "parser", None)
            if isinstance(parser, Generator):
                parser.close()

    return GuardedHTTP, GuardedWebSocket


LIMITS_ENV = "BOARDLAB_CONNECTIONS"  # the limits `boardlab serve` hands its server processes


class ProcessGuard(ConnectionGuard):
    """The guard of one server process: its limits come from $BOARDLAB_CONNECTIONS, which
    `boardlab serve` sets before uvicorn starts (each process counts its own connections, so
    with N workers the caps hold per process)."""

    def __init__(self) -> None:
        super().__init__()
        self._loaded = False

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        if not self._loaded:
            raw = os.environ.get(LIMITS_ENV)
            if raw:
                self.limits = ConnectionLimits(**json.loads(raw))
            self._loaded = True
        return super().admit(transport)


# the protocol classes `boardlab serve` names to uvicorn by import path, so that every
# worker process builds its own guard
ProcessHTTP, ProcessWebSocket = protocols(ProcessGuard())
