"""Shared games in a database: create, join, the setup stage (Dot Dash's pie), move, resign,
draw, rematch, clocks, expiry.

Every move is checked by the registered rules (`GameInfo` via `boardlab.core.registry`): the
store keeps notation, never a second copy of the rules. A game being played stays in memory
(`live.LiveGame`: its row and the session replayed once), so a move is checked by appending it
to that session; `Game.version` tells whether the copy is still the database's. A move carries
the ply it was made for; of two moves sent for one position exactly one is stored and the
other is refused (`StaleMoveError`). Moves are written by one thread, many games' moves to a
commit (`groupcommit.GroupCommitter`), and every change is committed before it is answered, so an
acknowledged move survives a crash.

A game with a setup stage begins with it: one person places the stones (`setup_stage`
"place"), the other takes a colour ("choose"), and the seats follow that choice. No move, draw
offer or clock runs before it ends; resigning during it aborts the game.

Its parts: `storecore` (errors, limits, sessions, reading and rendering), `moves` (playing),
`clock` and `views` (clock arithmetic, what a seat sees), `housekeeping` (flags on time,
idle expiry, counts), and here creating, joining, the setup stage, resigning, draws and
rematches.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from boardlab.core.errors import IllegalMoveError, NotationError, UsageError
from boardlab.core.registry import get_game, make_rules
from boardlab.core.session import GameSession
from boardlab.web.friends import clock, views
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.batch import Batch
from boardlab.web.friends.housekeeping import StoreHousekeeping
from boardlab.web.friends.live import GameView, LiveGame, SeatView
from boardlab.web.friends.models import Game, Match, Seat
from boardlab.web.friends.storecore import (
    OPEN,
    FriendError,
    FriendLimits,
    NoSuchGameError,
    Played,
    SeatError,
    StaleMoveError,
    TooManyGamesError,
    _changes,
    _new_id,
    _new_token,
    hash_token,
)

# the store's errors, limits and results are imported from here, with the store
__all__ = [
    "OPEN",
    "FriendError",
    "FriendLimits",
    "FriendStore",
    "NoSuchGameError",
    "Played",
    "SeatError",
    "StaleMoveError",
    "TooManyGamesError",
    "hash_token",
]


OPEN_COUNTS = "open games"  # the key of a transaction's counts in its session's `info`


def counted(db: Session, client: str) -> None:
    """One more open game of `client` in this transaction's counts (see `_check_bounds`)."""
    counts: dict[str, int] = db.info.setdefault(OPEN_COUNTS, {})
    for key in ("", client):
        if key in counts:
            counts[key] += 1


class FriendStore(StoreHousekeeping):
    """The shared games of one database (thread-safe: each call is one transaction)."""

    # -- reading ---------------------------------------------------------------------------
    def state(self, game_id: str, token: str | None = None) -> fs.FriendStateOut:
        """The game as a spectator sees it; with a valid seat token, as that seat sees it
        (an invalid token is refused rather than silently shown the spectator's view)."""
        for _ in range(2):
            live = self._live_game(game_id)
            with live.lock:
                game = live.view
                seat = self._seat_view(game, token) if token else None
                mover = live.session.to_move
                left = clock.left(game, self.now(), mover)
                if left is None or game.status != "playing" or left[mover] > 0:
                    return views.render(live, self.now(), seat)
            self.flag_if_due(game_id)  # the running clock is out: end the game, then read
        raise AssertionError("unreachable: a flagged game is no longer playing")

    # -- creating and joining --------------------------------------------------------------
    def create(
        self,
        req: fs.CreateRequest,
        client: str = "unknown",
        rng: Callable[[int], int] = secrets.randbelow,
    ) -> fs.CreatedOut:
        """A new game (and match); the creator's seat is taken at once. Written with the
        other games created meanwhile, in one transaction (`batch.Batcher`)."""
        change = self._creation(req, client, rng)
        return Batch[fs.CreatedOut](self.batcher).submit(change).result()

    async def create_async(
        self,
        req: fs.CreateRequest,
        client: str = "unknown",
        rng: Callable[[int], int] = secrets.randbelow,
    ) -> fs.CreatedOut:
        """`create` for a caller in an event loop: no thread waits for the commit."""
        change = self._creation(req, client, rng)
        return await Batch[fs.CreatedOut](self.batcher).submit_async(change)

    def _creation(
        self, req: fs.CreateRequest, client: str, rng: Callable[[int], int]
    ) -> Callable[[Session], fs.CreatedOut]:
        """The request checked and the seats' tokens drawn; the change that writes the game
        (after checking the bounds on open games in its transaction)."""
        rules = make_rules(req.game, req.variant, req.size)  # checks game, variant, size
        if req.clock is not None and req.clock.minutes * 60 < 1:
            raise UsageError("a clock needs at least one second")
        client = client[:64]
        placer = None
        if req.pie is not None:
            if get_game(rules.game).setup is None:
                raise UsageError(f"{get_game(rules.game).title} has no setup stage: leave out pie")
            placer = {"place": 0, "choose": 1}.get(req.pie)
            if placer is None:
                placer = rng(2)
            colour = 0  # for now: the chooser's colour seats both
        else:
            chosen = {"first": 0, "second": 1}.get(req.colour)
            colour = rng(2) if chosen is None else chosen
        token, invite = _new_token(), _new_token()
        clock_ms = None if req.clock is None else round(req.clock.minutes * 60_000)
        increment_ms = 0 if req.clock is None else round(req.clock.increment * 1000)

        def write(db: Session) -> fs.CreatedOut:
            self._check_bounds(db, client)
            now = self.now()
            match = Match(id=_new_id(), created_at=now)
            game = Game(
                id=_new_id(),
                match_id=match.id,
                number=1,
                game=rules.game,
                variant=rules.variant,
                size=rules.size,
                start=None,
                status="waiting",
                ply=0,
                created_at=now,
                updated_at=now,
                creator_addr=client,
                clock_ms=clock_ms,
                increment_ms=increment_ms,
                setup_stage=None if placer is None else "place",
                placer=placer,
                moves=[],  # known empty: rendering it asks the database nothing
                result=None,
            )
            db.add(match)
            db.add(game)
            game.seats = [
                Seat(
                    colour=c,
                    person=0 if c == colour else 1,
                    token_hash=hash_token(token if c == colour else invite),
                    joined_at=now if c == colour else None,
                    remaining_ms=clock_ms,
                )
                for c in (0, 1)
            ]
            state = self._out(db, game, game.seats[colour], score=(1, (0.0, 0.0)))
            counted(db, client)
            return fs.CreatedOut(
                id=game.id, token=token, invite_token=invite, colour=colour, state=state
            )

        return write

    def _check_bounds(self, db: Session, client: str) -> None:
        """TooManyGamesError when the server or `client` has its most open games. The counts
        are read from the database once a transaction (a batch of creations asks once, not
        once a game) and kept up to date by `counted` for the games it adds."""
        lim = self.limits
        counts: dict[str, int] = db.info.setdefault(OPEN_COUNTS, {})
        if "" not in counts:
            counts[""] = int(
                db.scalar(select(func.count()).select_from(Game).where(Game.status.in_(OPEN))) or 0
            )
        if counts[""] >= lim.open_total:
            raise TooManyGamesError(
                f"the server has {lim.open_total} open shared games, its limit: try later"
            )
        if client not in counts:
            counts[client] = int(
                db.scalar(
                    select(func.count())
                    .select_from(Game)
                    .where(Game.status.in_(OPEN), Game.creator_addr == client)
                )
                or 0
            )
        if counts[client] >= lim.open_per_client:
            raise TooManyGamesError(
                f"you have {lim.open_per_client} open shared games, the limit per address: "
                "finish or resign one first",
                scope=client,
            )

    def join(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        """Take one's seat (opening the invitation); the game starts once both have. A seat
        already taken (every reconnecting socket says hello again) only reads the game."""
        live = self._live_game(game_id)
        with live.lock:
            seat = self._seat_view(live.view, token)
            if seat.joined_at is not None:
                return views.render(live, self.now(), seat)
        return self._join(game_id, token)

    @_changes
    def _join(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            now = self.now()
            if seat.joined_at is None:
                seat.joined_at = now
                game.updated_at = now
                if game.status == "waiting" and all(t.joined_at is not None for t in game.seats):
                    game.status = "playing"
                    # the clocks start with the first move's turn, after any setup stage
                    game.turn_started_at = now if game.setup_stage is None else None
            return self._out(db, game, seat)

    @_changes
    def resign(self, game_id: str, token: str | None) -> fs.FriendStateOut:
        """The seat's player resigns (also before the friend has joined: then it aborts)."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            now = self.now()
            if game.status == "waiting" or (game.status == "playing" and game.setup_stage):
                clock.finish(game, None, "aborted", now)  # before the first move: no result
            else:
                self._check_playing(game)
                clock.settle(game, now, lambda: self._to_move(game))
                if game.status == "playing":
                    clock.finish(game, 1 - seat.colour, "resignation", now)
            db.flush()
            return self._out(db, game, seat)

    @_changes
    def draw(self, game_id: str, token: str | None, action: str) -> fs.FriendStateOut:
        """Offer a draw, accept the other side's offer (the game is drawn) or decline it."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            self._check_playing(game)
            self._check_setup_done(game)
            now = self.now()
            clock.settle(game, now, lambda: self._to_move(game))
            if game.status != "playing":
                return self._out(db, game, seat)
            other = 1 - seat.colour
            if action == "offer":
                if game.draw_offer == other:  # both offered: agreed
                    clock.finish(game, None, "agreement", now)
                else:
                    game.draw_offer = seat.colour
            elif action == "accept":
                if game.draw_offer != other:
                    raise IllegalMoveError("there is no draw offer to accept")
                clock.finish(game, None, "agreement", now)
            elif action == "decline":
                if game.draw_offer != other:
                    raise IllegalMoveError("there is no draw offer to decline")
                game.draw_offer = None
            else:
                raise UsageError(f"unknown draw action {action!r}")
            game.updated_at = now
            db.flush()
            return self._out(db, game, seat)

    @_changes
    def rematch(self, game_id: str, token: str | None) -> fs.RematchOut:
        """The next game of the match, colours swapped, the same tokens (asking twice, or
        both players asking, gives the same game). A game with a setup stage has it again,
        the other person placing."""
        ended = self.live.ended(game_id)
        if ended is not None and ended.view.next_game_id is None:
            made = self._rematch_of_copy(ended, token)
            if made is not None:
                return made
        with self._tx() as db:
            game = self._load(db, game_id, moves=False)  # the ended copy has them, or none
            seat = self._seat_of(game, token)
            if game.status in OPEN:
                raise IllegalMoveError("a rematch follows a finished game")
            if game.next_game_id is not None:
                return fs.RematchOut(id=game.next_game_id)
            ended = self.live.ended(game_id)
            if ended is not None and ended.view.version != game.version:
                ended = None
            self._check_bounds(db, game.creator_addr)
            now = self.now()
            placer = None if game.placer is None else 1 - game.placer
            nxt = Game(
                id=_new_id(),
                match_id=game.match_id,
                number=game.number + 1,
                game=game.game,
                variant=game.variant,
                size=game.size,
                start=game.start if placer is None else None,
                status="playing",
                ply=0,
                created_at=now,
                updated_at=now,
                creator_addr=game.creator_addr,
                clock_ms=game.clock_ms,
                increment_ms=game.increment_ms,
                turn_started_at=now if placer is None else None,
                setup_stage=None if placer is None else "place",
                placer=placer,
                moves=[],  # known empty: its copy in memory is made without asking
                result=None,
            )
            db.add(nxt)
            nxt.seats = [
                Seat(
                    colour=1 - old.colour,
                    person=old.person,
                    token_hash=old.token_hash,
                    joined_at=now,
                    remaining_ms=game.clock_ms,
                )
                for old in sorted(game.seats, key=lambda t: 1 - t.colour)
            ]
            game.next_game_id = nxt.id
            game.updated_at = now
            del seat
            db.flush()
            # both games in memory once committed: the ended one's final state now links
            # the next, which its players open at once
            if ended is not None:
                count, points = ended.score
                score = (count + 1, points)
                self._made.live = ended.with_view(GameView.of(game), score)
            else:
                score = self._score(db, game.match_id)
            r = self._replay(nxt)
            self._made.others.append(LiveGame(GameView.of(nxt), r.rules, r.session, score))
            return fs.RematchOut(id=nxt.id)

    def _rematch_of_copy(self, ended: LiveGame, token: str | None) -> fs.RematchOut | None:
        """`rematch` made from the ended game's copy in memory: its row is changed only if it
        is still at the copy's version, and the next game is written without the ORM (a
        busy server makes one a few seconds per hundred players), in the group commit's
        next transaction. None: the row changed meanwhile (the caller reads it again)."""
        old = ended.view
        self._seat_view(old, token)  # a seat's token asks, or SeatError
        now = self.now()
        placer = None if old.placer is None else 1 - old.placer
        seats = [
            SeatView(1 - t.colour, t.person, t.token_hash, now, old.clock_ms)
            for t in sorted(old.seats, key=lambda t: 1 - t.colour)
        ]
        nxt = GameView(
            id=_new_id(), match_id=old.match_id, number=old.number + 1, game=old.game,
            variant=old.variant, size=old.size, start=old.start if placer is None else None,
            status="playing", ply=0, version=1, created_at=now, updated_at=now,
            creator_addr=old.creator_addr, draw_offer=None, clock_ms=old.clock_ms,
            increment_ms=old.increment_ms, turn_started_at=now if placer is None else None,
            next_game_id=None, setup_stage=None if placer is None else "place", placer=placer,
            seats=seats, result=None,
        )  # fmt: skip
        games, seat_rows = Game.metadata.tables["games"], Seat.metadata.tables["seats"]

        def link(db: Session) -> bool:
            conn = db.connection()
            linked = conn.execute(
                update(games)
                .where(
                    games.c.id == old.id,
                    games.c.version == old.version,
                    games.c.next_game_id.is_(None),
                )
                .values(next_game_id=nxt.id, updated_at=now, version=old.version + 1)
            )
            if linked.rowcount != 1:
                return False
            self._check_bounds(db, old.creator_addr)
            row = {k: v for k, v in vars(nxt).items() if k not in ("seats", "result")}
            conn.execute(insert(games).values(**row))
            conn.execute(
                insert(seat_rows),
                [{"game_id": nxt.id, **vars(t)} for t in seats],
            )
            counted(db, old.creator_addr)
            return True

        # written with the moves of other games (one commit, and no write lock of its own
        # for the moves to wait behind)
        if not self.committer.submit_change(link).result():
            return None
        count, points = ended.score
        score = (count + 1, points)
        linked_view = replace(
            old,
            next_game_id=nxt.id,
            updated_at=now,
            version=old.version + 1,
            seats=[replace(t) for t in old.seats],
        )
        self._made.live = ended.with_view(linked_view, score)
        start = ended.rules.parse_position(nxt.start) if nxt.start else None
        session: GameSession[Any, Any] = GameSession(ended.rules, start)
        self._made.others.append(LiveGame(nxt, ended.rules, session, score))
        return fs.RematchOut(id=nxt.id)

    # -- the setup stage -------------------------------------------------------------------
    @_changes
    def setup(self, game_id: str, token: str | None, req: fs.SetupRequest) -> fs.FriendStateOut:
        """The placer places the setup (checked by the game's setup rules), then the other
        person takes a colour: the seats follow (the chooser's token plays that colour) and the
        setup's side to move starts, its clock running."""
        with self._tx() as db:
            game = self._load(db, game_id)
            seat = self._seat_of(game, token)
            self._check_playing(game)
            stage = get_game(game.game).setup
            if game.setup_stage is None or stage is None or game.placer is None:
                raise IllegalMoveError("this game has no setup stage under way")
            placing = seat.person == game.placer
            now = self.now()
            if req.action == "place":
                if not placing:
                    raise SeatError("your friend places the stones; you choose the colour")
                if game.setup_stage != "place":
                    raise IllegalMoveError("the stones are placed: a colour is to be chosen")
                assert req.setup is not None  # the request model insists on it
                rules = make_rules(game.game, game.variant, game.size)
                try:
                    position = stage.parse(rules, req.setup)
                except NotationError as exc:
                    raise NotationError(f"{req.setup.strip()[:60]}: {exc}") from None
                game.start = rules.format_position(position)
                game.setup_stage = "choose"
            else:
                if placing:
                    raise SeatError("your friend chooses the colour; you placed the stones")
                if game.setup_stage != "choose":
                    raise IllegalMoveError("the stones are not placed yet")
                assert req.colour is not None  # the request model insists on it
                if seat.colour != req.colour:  # the people change seats, tokens with them
                    a, b = game.seats
                    a.person, b.person = b.person, a.person
                    a.token_hash, b.token_hash = b.token_hash, a.token_hash
                    a.joined_at, b.joined_at = b.joined_at, a.joined_at
                    seat = game.seats[req.colour]
                game.setup_stage = None
                game.turn_started_at = now
            game.updated_at = now
            db.flush()
            return self._out(db, game, seat)

    # -- housekeeping ----------------------------------------------------------------------
