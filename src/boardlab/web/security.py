"""What the server does before a request reaches the API: check the Host header (of WebSocket
handshakes too), refuse oversized bodies before anything parses them, cap one address's open
WebSockets, and add the security headers to every answer.

Plain ASGI middleware (no request objects), so a refused request costs almost nothing and an
oversized body is never held in memory: the declared length is checked first, and a body sent
without one is counted as it arrives and cut off at the limit.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.web.connections import RefusalLog, address_key

log = logging.getLogger("boardlab.web")

MAX_BODY_BYTES = 256 * 1024
WEBSOCKETS_PER_ADDRESS = 32  # open sockets of one address (IPv6: one /64)
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
LOCAL_CLIENTS = frozenset({"127.0.0.1", "::1", "localhost"})

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

_ABSOLUTE_PATH = re.compile(
    r"(?<![\w.~])(?:[A-Za-z]:)?[/\\](?:[^\s'\"/\\:;,]+[/\\])+([^\s'\"/\\:;,]+)"
)


def hide_paths(text: str) -> str:
    """`text` with every absolute file path shortened to its last part (the server's folders
    are nobody else's business): '/home/u/.local/tables/x.bltb: bad' -> 'x.bltb: bad'."""
    return _ABSOLUTE_PATH.sub(r"\1", text)


def error_body(message: str, kind: str) -> bytes:
    """The API's one error shape as JSON bytes."""
    return json.dumps({"error": message, "kind": kind}).encode()


async def send_error(send: Send, status: int, message: str, kind: str) -> None:
    """Answer with `{error, kind}` and the security headers, closing the connection's body."""
    body = error_body(message, kind)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def host_name(value: str) -> str:
    """The host part of a Host header value, lower case, without the port."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_hosts_for(bind: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """Localhost names, plus the address the server is bound to (unless it is a wildcard),
    plus any names given."""
    names = set(LOCAL_HOSTS)
    if bind and bind not in ("0.0.0.0", "::", ""):
        names.add(host_name(bind) if not bind.count(":") > 1 else f"[{bind}]")
        names.add(bind.lower())
    names.update(host_name(x) for x in extra if x)
    return frozenset(names)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class GuardMiddleware:
    """Host check, body limit and security headers around an ASGI app."""

    def __init__(
        self,
        app: ASGIApp,
        allowed_hosts: frozenset[str] | None = None,
        max_body: int = MAX_BODY_BYTES,
        websockets_per_address: int = WEBSOCKETS_PER_ADDRESS,
    ) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts  # None: any host ('*')
        self.max_body = max_body
        self.websockets_per_address = websockets_per_address
        self._sockets: dict[str, int] = {}  # open WebSockets per address key
        self._ws_log = RefusalLog("WebSocket")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self._host_allowed(scope):
            await send_error(
                send,
                400,
                "this server does not answer to that host name "
                "(start it with --allowed-host NAME to add one)",
                "HostNotAllowed",
            )
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            try:
                length = int(declared) if declared.strip().isdigit() else -1
            except ValueError:
                length = -1
            if length < 0:
                await send_error(send, 400, "bad Content-Length header", "BadRequest")
                return
            if length > self.max_body:
                await send_error(send, 413, self._too_large(), "BodyTooLarge")
                return

        head = scope["method"] == "HEAD"
        if head:  # HEAD is GET without the body, wherever GET is allowed
            scope = {**scope, "method": "GET"}
        received = 0
        too_large = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    too_large = True
                    raise _BodyTooLarge
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if too_large:
                # the app answered a body it could not read (e.g. FastAPI's 400): say why
                if not started:
                    started = True
                    await send_error(send, 413, self._too_large(), "BodyTooLarge")
                return
            if message["type"] == "http.response.start":
                started = True
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {h for h, _ in SECURITY_HEADERS}
                ]
                headers.extend(SECURITY_HEADERS)
                message = {**message, "headers": headers}
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await send_error(send, 413, self._too_large(), "BodyTooLarge")
        except Exception:
            if too_large:
                if not started:
                    await send_error(send, 413, self._too_large(), "BodyTooLarge")
                return
            # a bug, not bad input: logged here, one line of JSON for the client, and the
            # connection stays open (re-raising would make the server drop it)
            log.exception("internal error on %s %s", scope["method"], scope.get("path"))
            if not started:
                await send_error(
                    send, 500, "internal error (details are in the server's log)", "InternalError"
                )

    def _host_allowed(self, scope: Scope) -> bool:
        if self.allowed_hosts is None:
            return True
        return host_name(_header(scope, b"host") or "") in self.allowed_hosts

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The Host check as for HTTP, and a cap on one address's open sockets; refused
        before the handshake completes (the client sees 403)."""
        if not self._host_allowed(scope):
            self._ws_log.refused(_client_key(scope), "host name not allowed")
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
            return
        key = _client_key(scope)
        if self._sockets.get(key, 0) >= self.websockets_per_address:
            self._ws_log.refused(key, f"{self.websockets_per_address} sockets open, the limit")
            await send({"type": "websocket.close", "code": 1013, "reason": "too many sockets"})
            return
        self._sockets[key] = self._sockets.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self._sockets[key] - 1
            if left:
                self._sockets[key] = left
            else:
                del self._sockets[key]

    def _too_large(self) -> str:
        return f"request body over {self.max_body} bytes"


class _BodyTooLarge(Exception):
    """Raised from `receive` when the body passes the limit; the middleware answers 413."""


def _client_key(scope: Scope) -> str:
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


def is_local_client(scope: dict[str, Any] | Scope) -> bool:
    """True if the request comes from this machine (loopback address)."""
    client = scope.get("client")
    return client is not None and str(client[0]) in LOCAL_CLIENTS


MAX_FRAME_DEPTH = 8  # the sockets' messages are flat objects; nesting deeper is abuse


class BadFrame(Exception):
    """A WebSocket message refused by its type, size or depth: close with `code`."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text, counted without parsing it
    (strings skipped), so a hostile depth costs one pass, never the parser's recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def frame_text(message: Message, max_bytes: int, max_depth: int = MAX_FRAME_DEPTH) -> str:
    """The text of a received WebSocket message (not a disconnect), checked: a binary frame
    is refused with 1003, one over `max_bytes` with 1009, JSON nested deeper than
    `max_depth` with 1008 (`BadFrame`)."""
    text = message.get("text")
    if text is None:
        raise BadFrame(1003, "only text messages (JSON) are accepted")
    if len(text) > max_bytes or len(text.encode("utf-8", "replace")) > max_bytes:
        raise BadFrame(1009, f"messages are limited to {max_bytes} bytes")
    # fewer opening brackets than the bound cannot nest deeper (the common, cheap case)
    if text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth:
        raise BadFrame(1008, f"messages nest at most {max_depth} levels")
    return str(text)
