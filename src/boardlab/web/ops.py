"""Operating a hosted server: health, readiness, Prometheus metrics, request ids and JSON logs,
and a database that cannot be reached answered 503 with Retry-After.

    GET /healthz   200 while the process runs (and which process answered)
    GET /readyz    200 once the database answers and the computer players' workers are up,
                   else 503 with what is not ready
    GET /metrics   Prometheus text: requests and latency by route (the computer players' time
                   is their routes' latency), moves stored and their commits, open sockets,
                   computer moves running, a table build running

With several worker processes each keeps its own counters; Prometheus's multiprocess mode is not
used: scrape each process through its own port, or read one process's share of the total.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import secrets
import sys
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from sqlalchemy import text
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
DB_RETRY_AFTER_S = 5


class Metrics:
    """The counters of one app (a registry of its own, so two apps in one test never mix)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "boardlab_requests", "HTTP requests", ["route", "method", "status"], registry=r
        )
        self.latency = Histogram(
            "boardlab_request_seconds", "HTTP request time", ["route"], registry=r
        )
        self.moves = Counter("boardlab_moves", "shared-game moves stored", registry=r)
        self.commits = Counter(
            "boardlab_move_commits", "group commits (moves stored together)", registry=r
        )
        self.events = Counter(
            "boardlab_events",
            "other processes' changes heard: applied to the copy in memory, read again, or "
            "not kept here",
            ["outcome"],
            registry=r,
        )
        self.sockets = Gauge("boardlab_open_sockets", "open shared-game sockets", registry=r)
        # the computer players' queue and time: the gate's threads in use, and the latency of
        # the routes that compute (/api/move, /api/playout...) above
        self.computing = Gauge(
            "boardlab_compute_in_use", "computer moves and playouts running", registry=r
        )
        self.building = Gauge("boardlab_table_building", "1 while a table build runs", registry=r)

    def stored(self, moves: int) -> None:
        self.moves.inc(moves)
        self.commits.inc()


class RequestIdFilter(logging.Filter):
    """Adds the request id of the current request to every log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id (and the error)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", REQUEST_ID.get()),
        }
        for key in ("method", "path", "status", "ms", "client"):
            if hasattr(record, key):
                out[key] = getattr(record, key)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(out)


_log_requests = False


def setup_json_logs() -> None:
    """Log JSON lines to stderr (the root logger, uvicorn's and BoardLab's), a line per
    request among them."""
    global _log_requests
    _log_requests = True
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # the access line below replaces it


access_log = logging.getLogger("boardlab.access")


def _route_of(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return str(path) if path else "unmatched"


class OpsMiddleware:
    """A request id for every request (the client's X-Request-ID if sane, else a new one),
    sent back in X-Request-ID; metrics by route; an access log line."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if 0 < len(given) <= 64 and given.isprintable() else secrets.token_hex(8)
        token = REQUEST_ID.set(rid)
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        if scope["type"] == "websocket":
            self.metrics.sockets.inc()
        try:
            await self.app(scope, receive, sending)
        finally:
            if scope["type"] == "websocket":
                self.metrics.sockets.dec()
            else:
                route = _route_of(scope)
                seconds = time.perf_counter() - started
                self.metrics.requests.labels(route, scope["method"], str(status)).inc()
                self.metrics.latency.labels(route).observe(seconds)
                if _log_requests:
                    access_log.info(
                        "%s %s %s",
                        scope["method"],
                        scope["path"],
                        status,
                        extra={
                            "method": scope["method"],
                            "path": scope["path"],
                            "status": status,
                            "ms": round(seconds * 1000, 1),
                        },
                    )
            REQUEST_ID.reset(token)


def install(app: FastAPI) -> Metrics:
    """Add /healthz, /readyz, /metrics, request ids, metrics and the database's 503 to `app`
    (after `app.state.friends`, `gate` and `service` are made)."""
    metrics = Metrics()
    app.state.metrics = metrics
    friends = app.state.friends
    friends.on_move = metrics.stored
    friends.on_event = lambda outcome: metrics.events.labels(outcome).inc()
    gate = app.state.gate
    metrics.computing.set_function(lambda: float(gate.in_use()))
    service = app.state.service
    metrics.building.set_function(lambda: 0.0 if service.building() is None else 1.0)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, object]:
        return {"status": "up", "process": os.getpid()}

    @app.get("/readyz", include_in_schema=False)
    def readyz() -> JSONResponse:
        problems = []
        try:
            with friends.open().read_engine.connect() as conn:
                conn.execute(text("SELECT version FROM games WHERE 1 = 0"))
        except Exception as exc:
            problems.append(f"database: {exc.__class__.__name__}")
        pool = gate.pool
        if pool is not None and not pool.alive():
            problems.append("computer players' workers: not running")
        if problems:
            return JSONResponse(
                {"status": "not ready", "problems": problems},
                status_code=503,
                headers={"Retry-After": str(DB_RETRY_AFTER_S)},
            )
        return JSONResponse({"status": "ready"})

    @app.get("/metrics", include_in_schema=False)
    def prometheus() -> PlainTextResponse:
        return PlainTextResponse(
            generate_latest(metrics.registry).decode(), media_type=CONTENT_TYPE_LATEST
        )

    async def database_down(request: Request, exc: Exception) -> JSONResponse:
        from boardlab.web.friends.trouble import serving_trouble

        logging.getLogger("boardlab.web").warning("database trouble: %s", exc.__class__.__name__)
        return JSONResponse(
            {"error": serving_trouble(exc), "kind": "DatabaseUnavailable"},
            status_code=503,
            headers={"Retry-After": str(DB_RETRY_AFTER_S)},
        )

    app.add_exception_handler(OperationalError, database_down)
    app.add_exception_handler(InterfaceError, database_down)
    app.add_exception_handler(PoolTimeoutError, database_down)
    app.add_middleware(OpsMiddleware, metrics=metrics)
    return metrics
