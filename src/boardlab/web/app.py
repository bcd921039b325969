"""The FastAPI application: the JSON API under /api and the static single-page app at /."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from boardlab import __version__
from boardlab.core.errors import BoardLabError, MissingTableError
from boardlab.core.registry import games
from boardlab.solver.store import TableStore
from boardlab.web.learn import router as learn_router
from boardlab.web.routes import router
from boardlab.web.service import Service
from boardlab.web.warmup import start_warm_up

STATIC = Path(__file__).parent / "static"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg")))
    return _one_line("; ".join(parts)) or "invalid request"


def create_app(tables: TableStore | Path | None = None, warm: bool = False) -> FastAPI:
    """A new app; `tables` is its table store, or the folder of one (None: the default
    folder); `warm` loads the computer players' kernels in the background (`boardlab serve`
    does)."""
    app = FastAPI(
        title="BoardLab",
        version=__version__,
        description="Play, watch and analyse Dodgem: positions and moves in canonical notation.",
    )
    # Load the game registry now, in one thread: the first lookups of concurrent requests
    # could otherwise race on the registry's lazy loading.
    games()
    store = tables if isinstance(tables, TableStore) else TableStore(tables)
    app.state.service = Service(store)
    if warm:
        start_warm_up(app.state.service)
    app.include_router(router)
    app.include_router(learn_router)  # puzzles and review, with their pages

    @app.exception_handler(BoardLabError)
    async def boardlab_error(request: Request, exc: BoardLabError) -> JSONResponse:
        status = 404 if isinstance(exc, MissingTableError) else 400
        return JSONResponse(
            {
                "error": _one_line(str(exc)) or exc.__class__.__name__,
                "kind": exc.__class__.__name__,
            },
            status_code=status,
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": _validation_message(exc), "kind": "ValidationError"}, status_code=422
        )

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        # a bug, not bad input: still one line of JSON rather than a bare 500 page
        return JSONResponse(
            {
                "error": f"internal error: {_one_line(str(exc)) or exc.__class__.__name__}",
                "kind": "InternalError",
            },
            status_code=500,
        )

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
