"""Playing a shared game: a move checked against the game's session in memory and written
by the group committer (many games' moves to a commit), the slow path through a full
transaction when a clock has run out, and catching up with moves another process stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from boardlab.core.errors import IllegalMoveError, NotationError
from boardlab.web.friends import clock, views
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.groupcommit import MoveWrite
from boardlab.web.friends.live import GameView, LiveGame, ResultView
from boardlab.web.friends.models import Game, MoveRow, Seat
from boardlab.web.friends.storecore import (
    _RELOAD,
    _SLOW,
    OPEN,
    Played,
    SeatError,
    StaleMoveError,
    StoreCore,
    _Prepared,
    log,
)


class StoreMoves(StoreCore):
    """The store's moves (see the module docstring)."""

    # -- playing ---------------------------------------------------------------------------
    def move(self, game_id: str, token: str | None, move: str, ply: int) -> fs.FriendStateOut:
        """Play `move` for the seat of `token` in the position after `ply` plies (checked
        against the game in memory, written by the group commit)."""
        return self.play(game_id, token, move, ply).state

    def play(self, game_id: str, token: str | None, move: str, ply: int) -> Played:
        """`move`, with the write that stored it (for the other processes' copies)."""
        for attempt in range(3):
            live = self._live_game(game_id, check=attempt > 0)
            with live.lock:
                if self.live.get(game_id) is not live:
                    continue  # replaced while this thread waited
                out = self._move_live(live, token, move, ply, first=attempt == 0)
            if out is _SLOW:
                break
            if out is _RELOAD:
                self.live.drop(game_id, live)
                continue
            assert isinstance(out, Played)
            return out
        try:
            return Played.of(self._move_slow(game_id, token, move, ply))
        finally:
            self.live.drop(game_id)

    async def move_async(
        self, game_id: str, token: str | None, move: str, ply: int
    ) -> Played | None:
        """`play` in the event loop, awaiting the group commit instead of holding a thread,
        when the game is in memory and free; None: not possible now, call `play` in a
        thread."""
        live = self.live.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        try:
            if self.live.get(game_id) is not live:
                return None
            prep = self._prepare_move(live, token, move, ply, first=True)
            if not isinstance(prep, _Prepared):
                out = prep
            else:
                try:
                    # a mover who leaves cancels only its wait: the write goes on, and the
                    # copy in memory is dropped below (read again when next used)
                    stored = await self.committer.submit_async(prep.write)
                except BaseException:
                    self._abandon(live, prep)
                    raise
                out = self._settle(live, prep, stored)
        finally:
            live.lock.release()
        if out is _RELOAD:
            self.live.drop(game_id, live)
        return out if isinstance(out, Played) else None

    def _move_live(
        self, live: LiveGame, token: str | None, move: str, ply: int, first: bool
    ) -> object:
        """The move on the game in memory (its lock held): Played, or _RELOAD or _SLOW."""
        prep = self._prepare_move(live, token, move, ply, first)
        if not isinstance(prep, _Prepared):
            return prep
        try:
            stored = self.committer.submit(prep.write).result()
        except BaseException:
            self._abandon(live, prep)
            raise
        return self._settle(live, prep, stored)

    def _abandon(self, live: LiveGame, prep: _Prepared) -> None:
        """The write failed or its outcome is unknown: forget the game in memory."""
        live.session.undo()
        self.live.drop(live.view.id, live)

    def _settle(self, live: LiveGame, prep: _Prepared, stored: bool) -> object:
        """The game in memory after the write: the move applied (Played), or _RELOAD."""
        if not stored:
            live.session.undo()
            return _RELOAD  # another process or store changed the game first
        views.apply(live, prep.write)
        played = Played(views.public(live, self.now()), prep.seat, prep.write)
        if live.view.status not in OPEN:
            self.live.retire(live.view.id, live)  # the move ended it
        return played

    def catch_up(self, game_id: str, version: int | None, note: Any = None) -> LiveGame | None:
        """Bring the game in memory up to `version` (another process's change): a move's
        `note` (`MoveWrite.note`) is applied to a copy exactly one version behind; a copy
        that is behind otherwise, or a change that is not a move, is dropped (read again
        when next used). The copy, now at `version` or newer; None when there is none (or
        it is busy). Never waits: the event loop calls it."""
        live = self.live.get(game_id)
        if live is None:
            return None
        if not live.lock.acquire(blocking=False):
            self.live.drop(game_id, live)  # a change of this process is under way: read again
            return None
        try:
            have = live.view.version
            if version is not None and have >= version:
                return live  # this copy has it already
            if version is None or note is None or have != version - 1:
                self.live.drop(game_id, live)
                return None
            try:
                write = MoveWrite.from_note(game_id, have, note)
                if write.ply != live.view.ply:
                    raise ValueError(f"the move is for ply {write.ply}, not {live.view.ply}")
                live.session.play(live.legal().get(write.move) or live.rules.parse_move(write.move))
            except (ValueError, IndexError) as exc:  # NotationError and IllegalMoveError too
                log.warning("shared games: read %s again: %s", game_id, exc)
                self.live.drop(game_id, live)
                return None
            views.apply(live, write)
            if live.view.status not in OPEN:
                self.live.retire(game_id, live)  # the move ended it (the caller renders it once)
            return live
        finally:
            live.lock.release()

    def render(self, live: LiveGame) -> views.Public | None:
        """The state every viewer sees of a game in memory; None when a change of it is
        under way (never waits)."""
        if not live.lock.acquire(blocking=False):
            return None
        try:
            return views.public(live, self.now())
        finally:
            live.lock.release()

    def _prepare_move(
        self, live: LiveGame, token: str | None, move: str, ply: int, first: bool
    ) -> object:
        """The move checked and played on the session in memory: a _Prepared write, or
        _RELOAD or _SLOW; the rules' and the seat's errors are raised."""
        game, session, rules = live.view, live.session, live.rules
        try:
            seat = self._seat_view(game, token)
            self._check_playing(game)
        except (SeatError, IllegalMoveError):
            if first:  # this copy may be behind the database (a join, the setup's seats)
                return _RELOAD
            raise
        now = self.now()
        left = clock.left(game, now, session.to_move)
        if left is not None and game.status == "playing" and left[session.to_move] <= 0:
            return _SLOW  # the flag fell before the move came
        if ply != game.ply:
            if first and ply > game.ply:
                return _RELOAD  # this copy may be behind the database
            raise StaleMoveError(f"the game is at ply {game.ply}, not {ply}: the board has changed")
        if first and (game.setup_stage is not None or session.to_move != seat.colour):
            return _RELOAD  # refused below, unless this copy is behind
        self._check_setup_done(game)
        if session.to_move != seat.colour:  # a seat moves only for itself: 403
            names = rules.player_names
            raise SeatError(
                f"this link's seat is {names[seat.colour]}; it is {names[session.to_move]}'s turn"
            )
        try:
            # a legal move's canonical text is looked up (the last render listed them)
            m = live.legal().get(move) or rules.parse_move(move)
            session.play(m)
        except NotationError as exc:
            raise NotationError(f"{move.strip()[:24]}: {exc}") from None
        values: dict[str, Any] = {
            "updated_at": now,
            "draw_offer": None,
            "status": game.status,
            "turn_started_at": game.turn_started_at,
        }
        remaining = None
        if left is not None and game.turn_started_at is not None:
            remaining = left[seat.colour] + game.increment_ms
            values["turn_started_at"] = now
        outcome = session.result
        result = None
        if outcome is not None:
            w = outcome.winner
            tag = "1/2-1/2" if w is None else ("1-0" if w == 0 else "0-1")
            result = ResultView(w, outcome.reason.value, tag)
            values.update(status="over", turn_started_at=None)
        write = MoveWrite(
            game.id, game.version, ply, rules.format_move(m), now, values,
            None if remaining is None else seat.colour, remaining, result,
        )  # fmt: skip
        return _Prepared(write, seat)

    def _move_slow(self, game_id: str, token: str | None, move: str, ply: int) -> fs.FriendStateOut:
        """The move in one transaction of its own (when the mover's clock may have run out)."""
        flagged = False
        try:
            with self._tx() as db:
                game = self._load(db, game_id)
                seat = self._seat_of(game, token)
                self._check_playing(game)
                clock.settle(game, self.now(), lambda: self._to_move(game))
                flagged = game.status != "playing"  # the flag fell before the move came
                if not flagged:
                    return self._play(db, game, seat, move, ply)
        except (StaleDataError, IntegrityError):
            raise StaleMoveError("another move for this position was accepted first") from None
        raise IllegalMoveError("the game is over: the clock ran out")

    def _play(self, db: Session, game: Game, seat: Seat, move: str, ply: int) -> fs.FriendStateOut:
        """The move's checks and its rows (inside the caller's transaction): the slow path."""
        if ply != game.ply:
            raise StaleMoveError(f"the game is at ply {game.ply}, not {ply}: the board has changed")
        self._check_setup_done(game)
        r = self._replay(game)
        if r.session.to_move != seat.colour:  # a seat moves only for itself: 403
            names = r.rules.player_names
            raise SeatError(
                f"this link's seat is {names[seat.colour]}; it is {names[r.session.to_move]}'s turn"
            )
        try:
            m = r.rules.parse_move(move)
            r.session.play(m)
        except NotationError as exc:
            raise NotationError(f"{move.strip()[:24]}: {exc}") from None
        now = self.now()
        clock.run(game, seat, now)
        if game.status != "playing":  # the flag fell before the move arrived
            return self._out(db, game, seat)
        game.moves.append(MoveRow(ply=ply, move=r.rules.format_move(m), played_at=now))
        game.ply = ply + 1
        game.updated_at = now
        game.draw_offer = None
        outcome = r.session.result
        if outcome is not None:
            clock.finish(game, outcome.winner, outcome.reason.value, now)
        db.flush()
        return self._out(db, game, seat)

    @staticmethod
    def _check_setup_done(game: Game | GameView) -> None:
        if game.setup_stage == "place":
            raise IllegalMoveError("the setup comes first: the stones are still to be placed")
        if game.setup_stage == "choose":
            raise IllegalMoveError("the setup comes first: a colour is still to be chosen")

    @staticmethod
    def _check_playing(game: Game | GameView) -> None:
        if game.status == "waiting":
            raise IllegalMoveError("the game starts when your friend opens the invitation")
        if game.status != "playing":
            raise IllegalMoveError("the game is over")
