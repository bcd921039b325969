"""The shared-games schema (SQLAlchemy 2): matches, games, seats, moves and results.

A *match* is the series two people play through rematches; its people are numbered 0 (who
created the first game) and 1 (who was invited). Each *game* has two *seats*, one per colour;
a seat holds the SHA-256 of its secret token (the token itself is only ever in the link) and
which person sits there, so a rematch swaps colours by swapping the people, and so does the
pie's chooser taking the other colour. *Moves* are the
plies in order (the rules replay them); a *result* row is written when a game ends.

`Game.version` is the row's version, raised by every change: a move is accepted only by the
update that moves it from the version the mover saw to the next one, so two moves sent for one
position cannot both land, and a move sent to a game resigned meanwhile does not land either.
This module is the head revision; `migrations/versions` builds it step by step.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """Declarative base of the shared-games tables."""


class Match(Base):
    """A series of games between the same two people, colours alternating."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    games: Mapped[list[Game]] = relationship(back_populates="match", order_by="Game.number")


class Game(Base):
    """One shared game: the rules by name, its start, its status and version (`ply`)."""

    __tablename__ = "games"
    # revision 5: a client's open games are counted at every creation and rematch; by
    # address and status, so the count reads only those, not every game the address made
    __table_args__ = (Index("ix_games_creator_status", "creator_addr", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    number: Mapped[int] = mapped_column(Integer, default=1)  # 1st, 2nd... game of the match
    game: Mapped[str] = mapped_column(String(20))
    variant: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    start: Mapped[str | None] = mapped_column(String(400), nullable=True)
    status: Mapped[str] = mapped_column(String(12), index=True)  # waiting playing over expired
    ply: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    creator_addr: Mapped[str] = mapped_column(String(64))
    # revision 2: draw offers, clocks and rematches
    draw_offer: Mapped[int | None] = mapped_column(Integer, nullable=True)  # colour offering
    clock_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: no clock
    increment_ms: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    turn_started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    next_game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # revision 3: the setup stage (Dot Dash's pie). `placer` is the person who places the
    # stones (None: the game starts from `start` without one); `setup_stage` is "place" or
    # "choose" while the stage lasts, None once the chooser has taken a colour.
    setup_stage: Mapped[str | None] = mapped_column(String(8), nullable=True)
    placer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # revision 4: raised by every change of the row; an UPDATE names the version it read, so
    # a racing one changes nothing, and a process's copy in memory knows when it is stale
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012

    match: Mapped[Match] = relationship(back_populates="games")
    seats: Mapped[list[Seat]] = relationship(order_by="Seat.colour", cascade="all")
    moves: Mapped[list[MoveRow]] = relationship(order_by="MoveRow.ply", cascade="all")
    result: Mapped[Result | None] = relationship(cascade="all")


class Seat(Base):
    """One colour of one game: the hashed token of who may play it, and which person that is."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    colour: Mapped[int] = mapped_column(Integer, primary_key=True)  # player index 0 or 1
    person: Mapped[int] = mapped_column(Integer)  # 0 the match's creator, 1 the invited
    token_hash: Mapped[str] = mapped_column(String(64))
    joined_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    # revision 2: milliseconds left on this colour's clock (None: no clock)
    remaining_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MoveRow(Base):
    """The `ply`-th move of a game (0-based), in canonical notation."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_moves_game_ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(24))
    played_at: Mapped[float] = mapped_column(Float)


class Result(Base):
    """How a game ended (revision 2): winner colour or None, the reason and the record tag."""

    __tablename__ = "results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(20))
    tag: Mapped[str] = mapped_column(String(8))
    finished_at: Mapped[float] = mapped_column(Float)
