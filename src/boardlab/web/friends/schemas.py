"""Request and answer bodies of the shared-games API; every length is bounded."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
    """A new shared game: rules by name, the creator's colour, an optional clock.

    `pie` plays the game's setup stage (Dot Dash's pie rule) with the creator as the one who
    `place`s the stones or `choose`s the colour (or `random`); the chooser's colour then
    seats both players, so `colour` is left out. Without `pie` the game starts from the
    rules' fixed start."""

    game: str = Field("dodgem", min_length=1, max_length=20)
    variant: str | None = Field(None, min_length=1, max_length=40)
    size: int | None = Field(None, ge=s.SIZE_MIN, le=s.SIZE_MAX)
    colour: Literal["first", "second", "random"] = "first"
    clock: ClockSpec | None = None
    pie: Literal["place", "choose", "random"] | None = None

    @model_validator(mode="after")
    def _colour_or_pie(self) -> CreateRequest:
        if self.pie is not None and "colour" in self.model_fields_set:
            raise ValueError("with the pie the chooser takes a colour: leave out colour")
        return self


class MoveRequest(Strict):
    """A move for the position after `ply` plies (the mover's view of the game)."""

    move: str = Field(min_length=1, max_length=24)
    ply: int = Field(ge=0, le=s.MAX_MOVES)


class SetupRequest(Strict):
    """The setup stage: the placer's `place` with the setup text, or the chooser's `choose`
    with the colour taken (0 the first player's, 1 the second's)."""

    action: Literal["place", "choose"]
    setup: str | None = Field(None, min_length=1, max_length=400)
    colour: int | None = Field(None, ge=0, le=1)

    @model_validator(mode="after")
    def _what_each_action_needs(self) -> SetupRequest:
        if self.action == "place" and (self.setup is None or self.colour is not None):
            raise ValueError("place gives the setup text and no colour")
        if self.action == "choose" and (self.colour is None or self.setup is not None):
            raise ValueError("choose gives the colour and no setup")
        return self


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


class SetupOut(BaseModel):
    """The setup stage under way: `place` (the placer puts down the stones) or `choose` (the
    other person takes a colour); `placer` is that person (0 creator, 1 invited)."""

    stage: Literal["place", "choose"]
    placer: int


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
    setup: SetupOut | None = None  # the setup stage while it lasts (no move before it ends)
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
