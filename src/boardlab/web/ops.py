"""Operating a hosted server: health, readiness, Prometheus metrics, request ids and JSON logs,
and a database that cannot be reached answered 503 with Retry-After.

    GET /healthz   200 while the process runs (and which process answered)
    GET /readyz    200 once the database answers and the computer players' workers are up,
                   else 503 with what is not ready
    GET /metrics   Prometheus text: requests and latency by route (the computer players' time
                   is their routes' latency), moves stored and their commits, open sockets,
                   computer moves running, a table build running

With several worker processes (`boardlab serve --workers N`) the figures are the whole
server's: prometheus-client's multiprocess mode, each process writing its values to files in a
private folder that `serve` makes and removes ($PROMETHEUS_MULTIPROC_DIR); a scrape, answered
by any process, sums the counters and histograms of every process (also of ones that have
exited), and the gauges of the living ones.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import os
import re
import secrets
import sys
import time
from collections.abc import Callable
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
    multiprocess,
    values,
)
from sqlalchemy import text
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
DB_RETRY_AFTER_S = 5


MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's own name for the folder
SAMPLE_EVERY_S = 1.0  # how often a process writes the gauges it reads from its own state


def shared_folder() -> str | None:
    """The folder of the processes' values when prometheus-client runs in multiprocess mode
    (it chooses when first imported, from $PROMETHEUS_MULTIPROC_DIR), else None."""
    if values.ValueClass is values.MutexValue:
        return None
    return os.environ.get(MULTIPROCESS_ENV) or None


def forget_exited(folder: str) -> None:
    """Drop the live gauges of processes that no longer run (a worker killed and started
    again by the supervisor); their counters stay, as part of the server's totals."""
    for name in os.listdir(folder):
        m = re.fullmatch(r"gauge_live\w+?_(\d+)\.db", name)
        if m is None:
            continue
        pid = int(m.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:
            pass  # alive, under another user


class Metrics:
    """The counters of one app (a registry of its own, so two apps in one test never mix;
    in multiprocess mode the values go to the shared folder, see the module's note)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.folder = shared_folder()
        self._samplers: list[tuple[Gauge, Callable[[], float]]] = []
        self._sampling: asyncio.Task[None] | None = None
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
        self.sockets = Gauge(
            "boardlab_open_sockets",
            "open shared-game sockets",
            registry=r,
            multiprocess_mode="livesum",
        )
        # the computer players' queue and time: the gate's threads in use, and the latency of
        # the routes that compute (/api/move, /api/playout...) above
        self.computing = Gauge(
            "boardlab_compute_in_use",
            "computer moves and playouts running",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.building = Gauge(
            "boardlab_table_building",
            "1 while a table build runs",
            registry=r,
            multiprocess_mode="livemax",
        )

    def stored(self, moves: int) -> None:
        self.moves.inc(moves)
        self.commits.inc()

    def watch(self, gauge: Gauge, read: Callable[[], float]) -> None:
        """`gauge` follows `read()`: read at each scrape in one process; in multiprocess mode
        written every `SAMPLE_EVERY_S` by each process (a scrape reaches one process only)."""
        if self.folder is None:
            gauge.set_function(read)
        else:
            self._samplers.append((gauge, read))

    def sample(self) -> None:
        """Write the watched gauges now (multiprocess mode)."""
        for gauge, read in self._samplers:
            gauge.set(read())

    def ensure_sampling(self) -> None:
        """Start writing the watched gauges in this process's event loop (multiprocess
        mode; once)."""
        if self._samplers and (self._sampling is None or self._sampling.done()):
            self._sampling = asyncio.get_running_loop().create_task(self._sample_often())

    async def _sample_often(self) -> None:
        while True:
            try:
                self.sample()
            except Exception:  # a figure missing for a second must not stop the others
                logging.getLogger("boardlab.web").warning("metrics", exc_info=True)
            await asyncio.sleep(SAMPLE_EVERY_S)

    def exposition(self) -> bytes:
        """The Prometheus text: this registry's, or every process's in multiprocess mode."""
        if self.folder is None:
            return generate_latest(self.registry)
        self.sample()
        forget_exited(self.folder)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=self.folder)  # type: ignore[no-untyped-call]
        return generate_latest(registry)


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
        self.metrics.ensure_sampling()
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
            # a socket's messages go straight out: no status or header of theirs is kept
            await self.app(scope, receive, sending if scope["type"] == "http" else send)
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
    metrics.watch(metrics.computing, lambda: float(gate.in_use()))
    service = app.state.service
    metrics.watch(metrics.building, lambda: 0.0 if service.builds.building() is None else 1.0)

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
        return PlainTextResponse(metrics.exposition().decode(), media_type=CONTENT_TYPE_LATEST)

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
