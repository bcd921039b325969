"""The JSON API. Stateless: each request carries the game (rules, start, moves) and the server
replays it. Everything that replays a game (state, analysis, records, computer moves,
playouts) goes through the work gate (web.limits): its own threads, a deadline, cancellation
when the client goes away, and a per-client share, so one client cannot starve the others."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import APIRouter, Query, Request

from boardlab.web import records
from boardlab.web import schemas as s
from boardlab.web.estimates import estimate_out
from boardlab.web.limits import Budget, WorkGate
from boardlab.web.security import is_local_client
from boardlab.web.service import Service, catalogue, replay, rules_of, state_out

_ERR: dict[str, object] = {"model": s.ErrorOut}
COMMON_ERRORS: dict[int | str, dict[str, object]] = {
    400: _ERR,
    413: {**_ERR, "description": "request body too large"},
    422: _ERR,
    500: {**_ERR, "description": "a bug (still one line of JSON)"},
}
COMPUTE_ERRORS: dict[int | str, dict[str, object]] = {
    404: {**_ERR, "description": "a table the request needs is not built"},
    429: {**_ERR, "description": "this client already has its share of the server busy"},
    503: {**_ERR, "description": "server busy, request cancelled, or the table is damaged"},
}
TABLE_ERRORS: dict[int | str, dict[str, object]] = {
    403: {**_ERR, "description": "table builds are off on this server"},
    409: {**_ERR, "description": "another table is being built"},
    503: {**_ERR, "description": "the table is damaged"},
}

router = APIRouter(prefix="/api", responses=COMMON_ERRORS)
T = TypeVar("T")


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _gate(request: Request) -> WorkGate:
    gate: WorkGate = request.app.state.gate
    return gate


@router.get("/games")
def list_games() -> s.GamesOut:
    """Registered games, variants, sizes, colours, and the computer levels available."""
    return catalogue()


QUICK_ERRORS: dict[int | str, dict[str, object]] = {
    429: COMPUTE_ERRORS[429],
    503: {**_ERR, "description": "server busy (or, for analysis, the table is damaged)"},
}


async def quick(request: Request, work: Callable[[], T]) -> T:
    """Replaying work (up to MAX_MOVES plies of a game sent by the client) through the work
    gate too, on its replay slots: one of the client's own and one of the gate's, so no
    client can fill the server with long replays while others wait, and replays never wait
    behind long computations."""
    gate = _gate(request)
    return await gate.run(request, gate.limits.move_seconds, lambda budget: work(), quick=True)


@router.post("/state", responses=QUICK_ERRORS)
async def game_state(spec: s.GameSpec, request: Request) -> s.StateOut:
    """Replay a game and return its position, legal moves and result."""

    def work() -> s.StateOut:
        rules, session = replay(spec)
        return state_out(rules, session)

    return await quick(request, work)


@router.post("/move", responses=COMPUTE_ERRORS)
async def computer_move(req: s.MoveRequest, request: Request) -> s.MoveOut:
    """The computer's move at a level (1-4, or random) in the replayed position. Level 4 on
    Dodgem says in `table` whether it played from a complete table, and why not in `note`."""
    service, gate = _service(request), _gate(request)
    heavy = req.level in ("3", "4")

    def move(budget: Budget) -> s.MoveOut:
        if gate.busy():  # others are waiting: the optional forced-win search is cut short
            return service.computer_move(req, budget, gate.limits.busy_forced_seconds)
        return service.computer_move(req, budget)

    return await gate.run(
        request,
        gate.limits.move_seconds,
        move,
        heavy=heavy,
        remote=("move", req.model_dump(), s.MoveOut.model_validate),
    )


@router.post("/pie", responses=COMPUTE_ERRORS)
async def pie(req: s.PieRequest, request: Request) -> s.PieOut:
    """The computer's part of the Dot Dash pie setup: it places three stones, or it chooses a
    colour for the human's setup (the computer's level then plays that colour)."""
    service, gate = _service(request), _gate(request)
    return await gate.run(
        request,
        gate.limits.move_seconds,
        lambda budget: service.pie(req),
        heavy=True,
        remote=("pie", req.model_dump(), s.PieOut.model_validate),
    )


@router.post("/playout", responses=COMPUTE_ERRORS)
async def playout(req: s.PlayoutRequest, request: Request) -> s.PlayoutOut:
    """Two computer levels play on from the replayed game, to its end or until `max_plies`
    or the server's time limit for one playout (then `complete` is false: post the moves
    back to go on). The answer comes by that limit even when one move runs past it (a
    search, or a first move that compiles its kernels): it then holds the moves played so
    far, and the move under way finishes in the background, its thread still counted."""
    service, gate = _service(request), _gate(request)
    seconds = gate.limits.playout_seconds
    played: list[str] = []
    work = asyncio.ensure_future(
        gate.run(
            request,
            seconds,
            lambda budget: service.playout(req, budget, played),
            heavy=True,
            remote=("playout", req.model_dump(), s.PlayoutOut.model_validate),
        )
    )
    try:
        return await asyncio.wait_for(asyncio.shield(work), seconds + PAGE_GRACE_S)
    except TimeoutError:
        work.add_done_callback(_forget)
        return await anyio.to_thread.run_sync(service.playout_page, req, list(played))


PAGE_GRACE_S = 0.25  # a playout's page is answered this long after its deadline at the latest


def _forget(task: asyncio.Future[Any]) -> None:
    """The outcome of work answered without it (its page went at the deadline)."""
    if not task.cancelled():
        task.exception()


@router.post("/analysis", responses=QUICK_ERRORS)
async def analysis(spec: s.GameSpec, request: Request) -> s.AnalysisOut:
    """Perfect-play values of the position, each legal move and each position of the game."""
    service = _service(request)
    return await quick(request, lambda: service.analysis(spec))


@router.post("/estimate", responses=COMPUTE_ERRORS)
async def estimate(spec: s.EstimateRequest, request: Request) -> s.EstimateOut:
    """What the strongest search says of the position within a node budget, where no
    complete table exists: a bar's share for the side to move, the depth reached, the
    expected line, and whether that is proven or an estimate. `quick`: a quarter of the
    budget (a review's look at each position of a game)."""
    return await _gate(request).run(
        request,
        _gate(request).limits.move_seconds,
        lambda budget: estimate_out(spec, budget),
        heavy=True,
        remote=("estimate", spec.model_dump(), s.EstimateOut.model_validate),
    )


@router.get("/tables", responses={503: TABLE_ERRORS[503]})
def table_status(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=s.SIZE_MIN, le=s.SIZE_MAX)] = None,
) -> s.TableOut:
    """Whether the tablebase for these rules is ready, missing, or being built."""
    return _service(request).builds.table_status(rules_of(game, variant, size))


@router.post("/tables", responses=TABLE_ERRORS)
def build_table(spec: s.RulesSpec, request: Request) -> s.TableOut:
    """Start building the tablebase in a separate process (one build at a time); poll GET
    /api/tables for progress. Only for local clients unless the server runs with
    --allow-builds."""
    service = _service(request)
    allowed = service.builds.allow_builds or is_local_client(request.scope)
    return service.builds.start_build(rules_of(spec.game, spec.variant, spec.size), allowed=allowed)


@router.delete("/tables", responses=TABLE_ERRORS)
def cancel_build(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=3, le=19)] = None,
) -> s.TableOut:
    """Cancel the build of this table (same rights as starting one)."""
    service = _service(request)
    if not (service.builds.allow_builds or is_local_client(request.scope)):
        from boardlab.web.builds import BuildsNotAllowedError

        raise BuildsNotAllowedError("table builds from the web are off on this server")
    return service.builds.cancel_build(rules_of(game, variant, size))


@router.post("/record/export", responses=QUICK_ERRORS)
async def export_record(req: s.ExportRequest, request: Request) -> s.RecordOut:
    """The game as record text."""
    return await quick(request, lambda: records.export_record(req))


@router.post("/record/import", responses=QUICK_ERRORS)
async def import_record(body: s.RecordText, request: Request) -> s.RecordOut:
    """Read record text (or its JSON form); every move is checked."""
    return await quick(request, lambda: records.import_record(body.text))


@router.get("/health")
async def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok"}
