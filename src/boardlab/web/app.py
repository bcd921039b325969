"""The FastAPI application: the JSON API under /api and the static single-page app at /.

Every answer outside 2xx has one shape, `{"error": one line, "kind": name}`: the API's own
errors, validation and parse errors, 404, 405 (with the path's full `Allow`), 413 and 500.
What the server protects against is described in the README ("Exposing the server on a
network").
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Mount

from boardlab import __version__
from boardlab.core.errors import BoardLabError, CorruptTableError, MissingTableError
from boardlab.core.registry import games
from boardlab.solver.store import TableStore
from boardlab.web.builds import BuildBusyError, BuildsNotAllowedError
from boardlab.web.friends.api import install as install_friends
from boardlab.web.learn import router as learn_router
from boardlab.web.limits import (
    CancelledError,
    ServerBusyError,
    TooManyRequestsError,
    WorkGate,
    WorkLimits,
)
from boardlab.web.ops import install as install_ops
from boardlab.web.routes import router
from boardlab.web.security import (
    MAX_BODY_BYTES,
    GuardMiddleware,
    allowed_hosts_for,
    hide_paths,
)
from boardlab.web.service import Service
from boardlab.web.warmup import start_warm_up
from boardlab.web.workers import WorkerPool

STATIC = Path(__file__).parent / "static"

STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (MissingTableError, 404),
    (CorruptTableError, 503),
    (BuildsNotAllowedError, 403),
    (BuildBusyError, 409),
    (TooManyRequestsError, 429),
    (ServerBusyError, 503),
    (CancelledError, 503),
)
HTTP_KINDS = {
    400: "BadRequest",
    404: "NotFound",
    405: "MethodNotAllowed",
    413: "BodyTooLarge",
    415: "UnsupportedMediaType",
}


def _one_line(text: str) -> str:
    return hide_paths(" ".join(text.split()))


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg")))
    return _one_line("; ".join(parts)) or "invalid request"


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route accepts at this path (HEAD wherever GET is)."""
    path = request.url.path
    methods: set[str] = set()
    for route in (*router.routes, *request.app.router.routes):
        regex = getattr(route, "path_regex", None)
        route_methods = getattr(route, "methods", None)
        if route_methods is None and isinstance(route, Mount):  # static files: GET only
            route_methods = {"GET"}
        if regex is not None and route_methods and regex.match(path):
            methods.update(route_methods)
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


def create_app(
    tables: TableStore | Path | str | None = None,
    *,
    allow_builds: bool = False,
    allowed_hosts: Iterable[str] | None = None,
    max_body: int = MAX_BODY_BYTES,
    limits: WorkLimits | None = None,
    warm: bool = False,
) -> FastAPI:
    """A new app; `tables` is its table store, or the folder of one (None: the default
    folder).

    `allowed_hosts`: Host header names answered besides the localhost names ("*": any);
    `allow_builds`: table builds for every client (else for local clients only);
    `max_body`: the request-body limit in bytes; `limits`: the work gate's settings;
    `warm`: load the computer players' kernels in the background (`boardlab serve` does)."""

    if isinstance(tables, TableStore):
        store = tables
    else:
        store = TableStore(None if tables is None else Path(tables))
    work = limits or WorkLimits()
    pool = (
        WorkerPool(max(1, min(work.heavy_threads, work.threads)), store.folder)
        if work.processes
        else None
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if pool is not None:  # start the workers in the background, not delaying the start
            threading.Thread(target=pool.warm_up, name="warm-up", daemon=True).start()
        yield
        app.state.friends.close()  # the moves waiting are written before the process ends
        if pool is not None:
            pool.close()
        app.state.service.close()  # stop a build in progress, close tables

    app = FastAPI(
        lifespan=lifespan,
        title="BoardLab",
        version=__version__,
        description="Play, watch and analyse Dodgem and Dot Dash: positions and moves in "
        "canonical notation. Errors are always {error, kind}.",
        docs_url=None,  # the interactive pages load scripts from a CDN: off
        redoc_url=None,
    )
    # Load the game registry now, in one thread: the first lookups of concurrent requests
    # could otherwise race on the registry's lazy loading.
    games()
    app.state.service = Service(store, allow_builds=allow_builds)
    app.state.gate = WorkGate(work, pool)
    if warm:
        start_warm_up(app.state.service)
    app.include_router(router)
    install_friends(app)  # shared games (/friend, /api/friends): app.state.friends.configure
    app.include_router(learn_router)  # puzzles and review, with their pages
    install_ops(app)  # /healthz, /readyz, /metrics, request ids, the database's 503
    extra = list(allowed_hosts or ())
    hosts = None if "*" in extra else allowed_hosts_for(None, extra)
    app.add_middleware(GuardMiddleware, allowed_hosts=hosts, max_body=max_body)

    @app.exception_handler(BoardLabError)
    async def boardlab_error(request: Request, exc: BoardLabError) -> JSONResponse:
        status = next((code for cls, code in STATUS if isinstance(exc, cls)), 400)
        message = _one_line(str(exc)) or exc.__class__.__name__
        if isinstance(exc, CorruptTableError) and not message.startswith("table damaged"):
            message = f"table damaged: {message}"
        headers = {"Retry-After": "2"} if status in (429, 503) else None
        return JSONResponse(
            {"error": message, "kind": exc.__class__.__name__},
            status_code=status,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        if any(err.get("type") == "json_invalid" for err in exc.errors()):
            return JSONResponse(
                {"error": "the body is not valid JSON", "kind": "BadJSON"}, status_code=422
            )
        return JSONResponse(
            {"error": _validation_message(exc), "kind": "ValidationError"}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        status = exc.status_code
        if status == 404:
            message = f"no such page: {request.url.path[:200]}"
        elif status == 405:
            allow = _allowed_methods(request)
            headers["Allow"] = ", ".join(allow)
            shown = f" (allowed: {', '.join(allow)})" if allow else ""
            message = f"{request.method} is not allowed here{shown}"
        elif status == 400 and str(exc.detail).startswith("There was an error parsing"):
            message = "the body could not be read (not UTF-8 JSON?)"
        else:
            message = _one_line(str(exc.detail))
        kind = HTTP_KINDS.get(status, "HTTPError")
        return JSONResponse({"error": message, "kind": kind}, status_code=status, headers=headers)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
