"""The JSON API. Stateless: each request carries the game (rules, start, moves) and the server
replays it. Quick handlers are plain functions (FastAPI runs them in its thread pool); computer
moves and playouts go through the work gate (web.limits): their own threads, a deadline,
cancellation when the client goes away, and a per-client share, so one client cannot starve
the others."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from boardlab.web import records
from boardlab.web import schemas as s
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


@router.post("/state")
def game_state(spec: s.GameSpec) -> s.StateOut:
    """Replay a game and return its position, legal moves and result."""
    rules, session = replay(spec)
    return state_out(rules, session)


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
    back to go on)."""
    service, gate = _service(request), _gate(request)
    return await gate.run(
        request,
        gate.limits.playout_seconds,
        lambda budget: service.playout(req, budget),
        heavy=True,
        remote=("playout", req.model_dump(), s.PlayoutOut.model_validate),
    )


@router.post("/analysis", responses={503: TABLE_ERRORS[503]})
def analysis(spec: s.GameSpec, request: Request) -> s.AnalysisOut:
    """Perfect-play values of the position, each legal move and each position of the game."""
    return _service(request).analysis(spec)


@router.get("/tables", responses={503: TABLE_ERRORS[503]})
def table_status(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=s.SIZE_MIN, le=s.SIZE_MAX)] = None,
) -> s.TableOut:
    """Whether the tablebase for these rules is ready, missing, or being built."""
    return _service(request).table_status(rules_of(game, variant, size))


@router.post("/tables", responses=TABLE_ERRORS)
def build_table(spec: s.RulesSpec, request: Request) -> s.TableOut:
    """Start building the tablebase in a separate process (one build at a time); poll GET
    /api/tables for progress. Only for local clients unless the server runs with
    --allow-builds."""
    service = _service(request)
    allowed = service.allow_builds or is_local_client(request.scope)
    return service.start_build(rules_of(spec.game, spec.variant, spec.size), allowed=allowed)


@router.delete("/tables", responses=TABLE_ERRORS)
def cancel_build(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=3, le=19)] = None,
) -> s.TableOut:
    """Cancel the build of this table (same rights as starting one)."""
    service = _service(request)
    if not (service.allow_builds or is_local_client(request.scope)):
        from boardlab.web.service import BuildsNotAllowedError

        raise BuildsNotAllowedError("table builds from the web are off on this server")
    return service.cancel_build(rules_of(game, variant, size))


@router.post("/record/export")
def export_record(req: s.ExportRequest) -> s.RecordOut:
    """The game as record text."""
    return records.export_record(req)


@router.post("/record/import")
def import_record(body: s.RecordText) -> s.RecordOut:
    """Read record text (or its JSON form); every move is checked."""
    return records.import_record(body.text)


@router.get("/health")
async def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok"}
