"""Request and response bodies of the JSON API; every length is bounded."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from boardlab.ai.base import level_names
from boardlab.core.errors import UnknownGameError
from boardlab.core.registry import games, get_game

MAX_MOVES = 2000
MAX_PLAYOUT_PLIES = 1000


def size_bounds() -> tuple[int, int]:
    """The smallest and largest board size of the games installed (an outer bound; each
    request is then held to the sizes its own game and variant declare, see `declared`)."""
    sizes = [info.sizes for info in games().values()]
    return min(lo for lo, _ in sizes), max(hi for _, hi in sizes)


SIZE_MIN, SIZE_MAX = size_bounds()

ValueText = Literal["win", "loss", "draw"]
MoveText = Annotated[str, StringConstraints(min_length=1, max_length=24)]
Level = Annotated[str, StringConstraints(pattern=r"^(random|[1-9])$")]
TableState = Literal["ready", "missing", "building", "failed", "damaged"]
StopReason = Literal["plies", "time", "cancelled"]


class Strict(BaseModel):
    """Unknown fields are an error, so typos do not pass silently."""

    model_config = ConfigDict(extra="forbid")


def declared(
    game: str, variant: str | None, size: int | None, levels: tuple[str, ...] = ()
) -> None:
    """Hold a request to what its game declares (`GameInfo`): the variant's sizes and the
    game's levels; ValueError (a 422 answer) otherwise. An unknown game or variant is left
    to the service, which answers 400 with the known names."""
    try:
        info = get_game(game)
        var = info.variant(variant)
    except UnknownGameError:
        return
    if size is not None and size not in var.sizes:
        raise ValueError(f"size must be {var.size_span(' to ')} for {info.title} {var.name}")
    known = ["random", *level_names(info)]
    for level in levels:
        if level not in known:
            raise ValueError(f"level must be {' or '.join(known)} for {info.title}, not {level}")


class GameSpec(Strict):
    """A game to replay: rules by name, an optional start position and the moves so far."""

    game: str = Field("dodgem", min_length=1, max_length=20)
    variant: str | None = Field(None, min_length=1, max_length=40)
    size: int | None = Field(None, ge=SIZE_MIN, le=SIZE_MAX)
    start: str | None = Field(None, min_length=1, max_length=400)
    moves: list[MoveText] = Field(default_factory=list, max_length=MAX_MOVES)

    @model_validator(mode="after")
    def _as_declared(self) -> GameSpec:
        declared(self.game, self.variant, self.size, self._levels())
        return self

    def _levels(self) -> tuple[str, ...]:
        """The computer levels the request names (checked against its game's)."""
        return ()


class ExportRequest(GameSpec):
    """A game to write as a record, with who played each colour (e.g. {"blue": "human"})."""

    players: dict[
        Annotated[str, StringConstraints(max_length=20)],
        Annotated[str, StringConstraints(max_length=40)],
    ] = Field(default_factory=dict, max_length=2)


class MoveRequest(GameSpec):
    """Ask a computer player for a move in the replayed position."""

    level: Level = "4"
    seed: int = Field(0, ge=0, le=2**53)
    forced: bool = True

    def _levels(self) -> tuple[str, ...]:
        return (self.level,)


class PlayoutRequest(GameSpec):
    """Play the replayed game to its end between two computer players."""

    players: tuple[Level, Level] = ("4", "4")
    seed: int = Field(0, ge=0, le=2**53)
    max_plies: int = Field(400, ge=1, le=MAX_PLAYOUT_PLIES)

    def _levels(self) -> tuple[str, ...]:
        return self.players


class PieRequest(Strict):
    """Ask the computer for its part of a game's setup stage (Dot Dash's pie): `place` a
    setup, or `choose` a colour for the human's `setup`."""

    game: str = Field("dotdash", min_length=1, max_length=20)
    variant: str | None = Field(None, min_length=1, max_length=40)
    size: int | None = Field(None, ge=SIZE_MIN, le=SIZE_MAX)
    role: Literal["choose", "place"]
    setup: str | None = Field(None, min_length=1, max_length=400)
    level: Level = "2"
    seed: int = Field(0, ge=0, le=2**53)

    @model_validator(mode="after")
    def _game_has_a_setup_stage(self) -> PieRequest:
        info = get_game(self.game)
        if info.setup is None:
            raise ValueError(f"{info.title} has no setup stage")
        declared(self.game, self.variant, self.size, (self.level,))
        return self

    @model_validator(mode="after")
    def _setup_for_choose_only(self) -> PieRequest:
        if self.role == "choose" and self.setup is None:
            raise ValueError("role 'choose' needs the setup text to choose for")
        if self.role == "place" and self.setup is not None:
            raise ValueError("role 'place' takes no setup text (the computer places)")
        return self


class RulesSpec(Strict):
    """Rules by name only (for tables)."""

    game: str = Field("dodgem", min_length=1, max_length=20)
    variant: str | None = Field(None, min_length=1, max_length=40)
    size: int | None = Field(None, ge=SIZE_MIN, le=SIZE_MAX)

    @model_validator(mode="after")
    def _as_declared(self) -> RulesSpec:
        declared(self.game, self.variant, self.size)
        return self


class RecordText(Strict):
    """A game record as text, for import."""

    text: str = Field(min_length=1, max_length=40_000)


class ResultOut(BaseModel):
    """How the game ended."""

    winner: int | None
    reason: str
    tag: str


class FiveLineOut(BaseModel):
    """A credited five-in-a-row of Dot Dash: its player and its five points."""

    player: int
    points: list[str]


class BoardFactsOut(BaseModel):
    """Facts of the board the page draws: Dodgem's steps per player as (dfile, drank),
    forward first, and its exit edges; Dot Dash's fives, their lines and the reserves."""

    steps: list[list[list[int]]] | None = None
    exits: list[str] | None = None
    fives: list[int] | None = None
    lines: list[FiveLineOut] | None = None
    reserves: list[int | None] | None = None


def board_facts(rules: Any, position: Any) -> BoardFactsOut | None:
    """What the board shows beyond the stones and cars, as the game declares it
    (`GameInfo.board_facts`); None for a game that declares none."""
    facts = get_game(rules.game).board_facts
    return None if facts is None else BoardFactsOut.model_validate(facts(rules, position))


class StateOut(BaseModel):
    """The replayed game: current position, whose turn, legal moves and the result."""

    game: str
    variant: str
    size: int
    players: tuple[str, str]
    options: dict[str, str | int]
    start: str
    moves: list[str]
    positions: list[str]
    position: str
    to_move: int
    legal_moves: list[str]
    result: ResultOut | None
    facts: BoardFactsOut | None = None


class ForcedOut(BaseModel):
    """A forced win: the winner and the plies it takes against best defence."""

    winner: int
    plies: int


class MoveOut(BaseModel):
    """A computer's move and the game after it. For level 4 on Dodgem, `table` tells whether
    it played from the complete table ("ready") or by search, and `note` says why (a table
    that is missing or damaged: "table damaged: … rebuild it with: …")."""

    move: str
    player: str
    state: StateOut
    forced: ForcedOut | None
    table: Literal["ready", "missing", "building", "failed", "damaged", "unsolvable"] | None = None
    note: str | None = None


class PieOut(BaseModel):
    """The computer's part of the pie: the setup (its own or the checked one it was given),
    for `choose` the colour it took (0 red, 1 blue), and the game from that setup."""

    role: Literal["choose", "place"]
    player: str
    setup: str
    colour: int | None
    colour_name: str | None
    state: StateOut


class PlayoutOut(BaseModel):
    """A game played on by two computers. `complete` is false when it stopped early:
    `stopped` says why ("plies": max_plies reached, "time": the server's time limit for one
    playout, "cancelled"); post the moves back to go on from there."""

    moves: list[str]
    state: StateOut
    complete: bool = True
    stopped: StopReason | None = None


class MoveEvalOut(BaseModel):
    """One legal move with its value for the mover and its remoteness in plies."""

    move: str
    value: ValueText
    remoteness: int | None


class PlyValueOut(BaseModel):
    """The value of the position before ply `ply` (0: the start) for the side to move there."""

    ply: int
    to_move: int
    value: ValueText | None
    remoteness: int | None


class AnalysisOut(BaseModel):
    """Perfect-play values, or the reason they are unavailable."""

    available: bool
    reason: str | None = None
    table: str = "missing"
    value: ValueText | None = None
    remoteness: int | None = None
    to_move: int = 0
    moves: list[MoveEvalOut] = Field(default_factory=list)
    history: list[PlyValueOut] = Field(default_factory=list)
    forced: ForcedOut | None = None


class EstimateRequest(GameSpec):
    """A game whose current position to estimate. `quick` spends a quarter of the game's
    node budget: a review estimates every position of a game, so each must be brief."""

    quick: bool = False


class EstimateOut(BaseModel):
    """What the strongest search says of the position, for boards without a table: an
    estimate unless `proven` (a forced result `plies` plies long). `share` is the bar's
    share for the side to move, 0 to 1 (0.5 even); `line` the expected line from here."""

    to_move: int
    ply: int
    score: int
    share: float = Field(ge=0.0, le=1.0)
    depth: int
    nodes: int
    line: list[str]
    proven: bool
    plies: int | None = None


class TableOut(BaseModel):
    """Whether a tablebase exists, can be built, or is being built (with progress)."""

    ruleset: str
    solvable: bool
    state: Literal["ready", "missing", "building", "failed", "damaged", "unsolvable", "unavailable"]
    done: int = 0
    total: int = 0
    message: str | None = None
    phase: Literal["solving", "writing", "opening"] | None = None
    estimate_s: float | None = None
    # A table too big to build from the page (`buildable` false: its build takes more than a
    # few minutes here) says what it holds (`positions`), its disk, and the commands that
    # build or install it.
    buildable: bool = True
    estimate_measured: bool = False  # estimate_s from this machine's `solve --estimate`
    disk_bytes: int | None = None
    positions: int | None = None
    commands: list[str] = Field(default_factory=list)


class VariantOut(BaseModel):
    """A named variant with its colours (first player's first) and the sizes it is played
    on (`sizes` the smallest and largest, `size_list` every one; `published_size` the size
    of the published game, where it has one)."""

    name: str
    players: tuple[str, str]
    letters: str = ""
    sizes: tuple[int, int]
    size_list: list[int] = Field(default_factory=list)
    default_size: int
    published_size: int | None = None
    summary: str = ""


class GameOut(BaseModel):
    """A registered game, as it declares itself (`GameInfo`): `renderer` names the page's
    board renderer (`js/boards/<renderer>.js`), `table_level` the level that plays from
    complete tables, `action_ids` whether the game has stable action ids (OpenSpiel,
    PettingZoo)."""

    name: str
    title: str
    default_variant: str
    variants: list[VariantOut]
    levels: list[str] = Field(default_factory=lambda: ["random"])
    default_level: str = "random"
    setup: str | None = None
    tables: bool = False
    renderer: str | None = None
    table_level: int | None = None
    action_ids: bool = False


class GamesOut(BaseModel):
    """Every registered game and what the server can do right now."""

    games: list[GameOut]
    levels: list[str]
    features: dict[str, bool]


class RecordOut(BaseModel):
    """A parsed game record."""

    game: str
    variant: str
    size: int
    start: str | None
    moves: list[str]
    text: str


class ErrorOut(BaseModel):
    """Every 4xx and 5xx answer: a one-line message and the kind of error."""

    error: str
    kind: str
