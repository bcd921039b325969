"""The JSON API. Stateless: each request carries the game (rules, start, moves) and the server
replays it. Quick handlers are plain functions (FastAPI runs them in its thread pool); computer
moves run in worker threads under their own limit, so they never block the event loop nor
take every thread from the quick requests."""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Query, Request

from boardlab.web import records
from boardlab.web import schemas as s
from boardlab.web.service import Service, catalogue, replay, rules_of, state_out

router = APIRouter(
    prefix="/api", responses={400: {"model": s.ErrorOut}, 422: {"model": s.ErrorOut}}
)


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


@router.get("/games")
def list_games() -> s.GamesOut:
    """Registered games, variants, sizes, colours, and the computer levels available."""
    return catalogue()


@router.post("/state")
def game_state(spec: s.GameSpec) -> s.StateOut:
    """Replay a game and return its position, legal moves and result."""
    rules, session = replay(spec)
    return state_out(rules, session)


@router.post("/move")
async def computer_move(req: s.MoveRequest, request: Request) -> s.MoveOut:
    """The computer's move at a level (1-4, or random) in the replayed position."""
    service = _service(request)
    return await anyio.to_thread.run_sync(service.computer_move, req, limiter=service.limiter)


@router.post("/pie")
async def pie(req: s.PieRequest, request: Request) -> s.PieOut:
    """The computer's part of the Dot Dash pie setup: it places three stones, or it chooses a
    colour for the human's setup (the computer's level then plays that colour)."""
    service = _service(request)
    return await anyio.to_thread.run_sync(service.pie, req, limiter=service.limiter)


@router.post("/playout")
async def playout(req: s.PlayoutRequest, request: Request) -> s.PlayoutOut:
    """Two computer levels play the replayed game to its end."""
    service = _service(request)
    return await anyio.to_thread.run_sync(service.playout, req, limiter=service.limiter)


@router.post("/analysis")
def analysis(spec: s.GameSpec, request: Request) -> s.AnalysisOut:
    """Perfect-play values of the position, each legal move and each position of the game."""
    return _service(request).analysis(spec)


@router.get("/tables")
def table_status(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=s.SIZE_MIN, le=s.SIZE_MAX)] = None,
) -> s.TableOut:
    """Whether the tablebase for these rules is ready, missing, or being built."""
    return _service(request).table_status(rules_of(game, variant, size))


@router.post("/tables")
def build_table(spec: s.RulesSpec, request: Request) -> s.TableOut:
    """Start building the tablebase in the background; poll GET /api/tables for progress."""
    return _service(request).start_build(rules_of(spec.game, spec.variant, spec.size))


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
