"""Request and answer bodies of the shared-games API; every length is bounded."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from boardlab.web import schemas as s

Status = Literal["waiting", "playing", "over", "expired"]


class Strict(BaseModel):
    """Unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")


class ClockSpec(Strict):
    """Minutes per side and seconds added after each move."""

    minutes: float = Field(gt=0, le=180)
    increment: float = Field(0, ge=0, le=600)


class CreateRequest(Strict):
    """A new shared game: rules by name, the creator's colour, an optional clock."""

    game: str = Field("dodgem", min_length=1, max_length=20)
    variant: str | None = Field(None, min_length=1, max_length=40)
    size: int | None = Field(None, ge=s.SIZE_MIN, le=s.SIZE_MAX)
    colour: Literal["first", "second", "random"] = "first"
    clock: ClockSpec | None = None


class MoveRequest(Strict):
    """A move for the position after `ply` plies (the mover's view of the game)."""

    move: str = Field(min_length=1, max_length=24)
    ply: int = Field(ge=0, le=s.MAX_MOVES)


class DrawRequest(Strict):
    """Offer a draw, accept the other side's offer, or decline it."""

    action: Literal["offer", "accept", "decline"]


class SeatOut(BaseModel):
    """One colour: whether its player has opened the invitation, and who sits there."""

    colour: int
    person: int
    joined: bool


class ClockOut(BaseModel):
    """Milliseconds left per colour at `now`, the increment, and whose clock runs."""

    initial_ms: int
    increment_ms: int
    remaining_ms: tuple[int, int]
    running: int | None
    now: float


class MatchOut(BaseModel):
    """The series: games so far and points per person (0 creator, 1 invited)."""

    id: str
    games: int
    score: tuple[float, float]


class FriendStateOut(BaseModel):
    """A shared game as everyone may see it, plus `you` (colour) and `person` for a seat."""

    id: str
    number: int
    game: str
    variant: str
    size: int
    players: tuple[str, str]
    status: Status
    start: str
    moves: list[str]
    positions: list[str]
    position: str
    ply: int
    to_move: int
    legal_moves: list[str]
    result: s.ResultOut | None
    draw_offer: int | None
    clock: ClockOut | None
    seats: list[SeatOut]
    match: MatchOut
    next_game: str | None
    facts: s.BoardFactsOut | None = None
    updated_at: float = 0.0  # when the game last changed (server time)
    you: int | None = None
    person: int | None = None


class CreatedOut(BaseModel):
    """A new game: the creator's own seat token and the invitation's (shown once)."""

    id: str
    token: str
    invite_token: str
    colour: int
    state: FriendStateOut


class RematchOut(BaseModel):
    """The rematch's game id (the same tokens play it, colours swapped)."""

    id: str
