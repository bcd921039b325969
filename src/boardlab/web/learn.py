"""Learning from the tables over HTTP: puzzles, a puzzle from a saved position, and game review,
with the two pages that use them (/puzzles and /review). Every answer is read from a complete
table; rules without one get a 404 naming the missing table. Puzzles, a puzzle and review
replay games or scan positions, so they go through the work gate's replay slots as state and
analysis do (routes.quick): past a client's share they are answered 429 at once, and they
never wait behind long computations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from boardlab.ai.ladder import ladder_intervals, ladder_ratings
from boardlab.ai.puzzles import KINDS, generate, make_puzzle
from boardlab.ai.review import review_game
from boardlab.core.errors import MissingTableError, UsageError
from boardlab.core.registry import AnyRules, games, make_rules
from boardlab.web import schemas as s
from boardlab.web.routes import COMPUTE_ERRORS, QUICK_ERRORS, quick
from boardlab.web.service import Service, replay, rules_of

STATIC = Path(__file__).parent / "static"
MAX_PUZZLES = 50
WEB_MAX_TRIES = 5000  # random positions one request may look at (bounds its time)

router = APIRouter(responses={400: {"model": s.ErrorOut}, 422: {"model": s.ErrorOut}})
# read from a complete table: a 404 names a table that is not built
LEARN_ERRORS = {**QUICK_ERRORS, 404: COMPUTE_ERRORS[404]}
PuzzleKind = Literal["win", "defend", "hold"]


class PuzzleOut(BaseModel):
    """One puzzle: the position, the one right move, its line, the wrong moves and how hard."""

    id: str
    game: str
    variant: str
    size: int
    kind: str
    fastest: bool
    position: str
    to_move: str
    value: str
    remoteness: int | None
    solution: str
    line: list[str]
    wrong: dict[str, str]
    tempting: int
    miss_rate: float
    rating: int


class PuzzlesOut(BaseModel):
    """Puzzles of one ruleset, reproducible from the seed."""

    seed: int
    puzzles: list[PuzzleOut]


class PuzzleRulesOut(BaseModel):
    """A variant with puzzles: its sizes, and which of them have a table ready (or built on
    the spot when asked)."""

    game: str
    variant: str
    players: tuple[str, str]
    sizes: list[int]
    ready: list[int]


class PuzzleRulesetsOut(BaseModel):
    """Every ruleset the tables cover."""

    rulesets: list[PuzzleRulesOut]


class LadderOut(BaseModel):
    """The measured ratings of the levels (random mover 0) on this game, variant and size,
    and each level's 95% interval where one was measured; empty where that board was not
    measured."""

    game: str
    variant: str
    size: int
    ratings: dict[str, int]
    intervals: dict[str, list[int]] = {}


class PositionSpec(s.RulesSpec):
    """A position of a ruleset, in notation."""

    position: str = Field(min_length=1, max_length=400)


class ReviewMoveOut(BaseModel):
    """One reviewed move: its mark, the values before and after, the best move and line."""

    ply: int
    number: int
    label: str
    first_player: bool
    side: str
    move: str
    position: str
    before: str
    before_remoteness: int | None
    after: str
    after_remoteness: int | None
    mark: str
    mistake: bool
    best: str
    best_remoteness: int | None
    better_line: list[str]


class ReviewOut(BaseModel):
    """A reviewed game: a summary line and every move."""

    summary: str
    mistakes: int
    first_mistake: int | None
    slower: int
    mistakes_by_side: dict[str, int]
    moves: list[ReviewMoveOut]


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _table(service: Service, rules: AnyRules) -> Any:
    """The rules' open table; a 400 for rules no table covers, a 404 for one not built."""
    if not service.tables.solvable(rules):
        raise UsageError(
            f"{rules.game} {rules.variant} {rules.size}×{rules.size} has no complete table, "
            "so it has no puzzles and no review"
        )
    table = service.tables.get(rules, build=True)
    if table is None:
        raise MissingTableError(
            f"the {rules.size}×{rules.size} {rules.variant} table is not built yet"
        )
    return table


@router.get("/api/ladder")
def ladder(
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=s.SIZE_MIN, le=s.SIZE_MAX)] = None,
) -> LadderOut:
    """Each level's rating (Bradley–Terry on the Elo scale, random mover 0) as measured on
    this very board; no ratings for a board that was not measured."""
    rules = rules_of(game, variant, size)
    found = ladder_ratings(rules.game, rules.variant, rules.size)
    spans = ladder_intervals(rules.game, rules.variant, rules.size)
    return LadderOut(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        ratings=found or {},
        intervals=spans or {},
    )


@router.get("/api/puzzles/rulesets")
def puzzle_rulesets(request: Request) -> PuzzleRulesetsOut:
    """The games, variants and sizes that have puzzles and review (the complete tables')."""
    store = _service(request).tables
    out = []
    for info in sorted(games().values(), key=lambda i: i.name):
        for v in info.variants:
            sizes = [n for n in v.sizes if store.solvable(make_rules(info.name, v.name, n))]
            if not sizes:
                continue
            ready = [
                n
                for n in sizes
                if store.builds_automatically(make_rules(info.name, v.name, n))
                or store.built(make_rules(info.name, v.name, n))
            ]
            out.append(
                PuzzleRulesOut(
                    game=info.name, variant=v.name, players=v.player_names, sizes=sizes, ready=ready
                )
            )
    return PuzzleRulesetsOut(rulesets=out)


@router.get("/api/puzzles", responses=LEARN_ERRORS)
async def puzzles(
    request: Request,
    game: Annotated[str, Query(max_length=20)] = "dodgem",
    variant: Annotated[str | None, Query(max_length=40)] = None,
    size: Annotated[int | None, Query(ge=s.SIZE_MIN, le=s.SIZE_MAX)] = None,
    count: Annotated[int, Query(ge=1, le=MAX_PUZZLES)] = 10,
    seed: Annotated[int, Query(ge=0, le=2**31)] = 0,
    kind: Annotated[list[PuzzleKind] | None, Query()] = None,
) -> PuzzlesOut:
    """`count` puzzles of the ruleset from `seed` (the same seed, the same puzzles), each
    checked against the table."""
    service = _service(request)
    rules = rules_of(game, variant, size)

    def work() -> PuzzlesOut:
        table = _table(service, rules)
        found = generate(
            rules, table, count, seed=seed, kinds=kind or KINDS, max_tries=WEB_MAX_TRIES
        )
        return PuzzlesOut(seed=seed, puzzles=[PuzzleOut(**p.as_dict()) for p in found])

    return await quick(request, work)


@router.post("/api/puzzle", responses=LEARN_ERRORS)
async def puzzle_of(spec: PositionSpec, request: Request) -> PuzzleOut:
    """The puzzle of one position (a position saved from a game), if exactly one move keeps
    its value; 400 when it is no puzzle."""
    service = _service(request)

    def work() -> PuzzleOut:
        rules = rules_of(spec.game, spec.variant, spec.size)
        table = _table(service, rules)
        position = rules.parse_position(spec.position)
        found = make_puzzle(rules, table, position)
        if found is None:
            raise UsageError("this position is no puzzle: more than one move keeps its value")
        return PuzzleOut(**found.as_dict())

    return await quick(request, work)


@router.post("/api/review", responses=LEARN_ERRORS)
async def review(spec: s.GameSpec, request: Request) -> ReviewOut:
    """Every move of the game marked by what it did to the value, with the best move beside
    it and a summary."""
    service = _service(request)

    def work() -> ReviewOut:
        rules, session = replay(spec)
        table = _table(service, rules)
        result = review_game(rules, table, session.start, session.moves)
        return ReviewOut(**result.as_dict())

    return await quick(request, work)


@router.get("/puzzles", include_in_schema=False)
def puzzles_page() -> FileResponse:
    """The Puzzles page."""
    return FileResponse(STATIC / "puzzles.html", headers={"Cache-Control": "no-cache"})


@router.get("/review", include_in_schema=False)
def review_page() -> FileResponse:
    """The Review page (the game comes in the link's hash, as on the main page)."""
    return FileResponse(STATIC / "review.html", headers={"Cache-Control": "no-cache"})
