"""Live shared games kept in memory.

A process keeps each game it serves as a `LiveGame`: a plain copy of its row and seats, and the
rules' session replayed once, so a move appends to it instead of replaying the game. The
database stays the truth: every change raises the game's `version`, and a move is written by
`UPDATE games ... WHERE id = :id AND version = :seen`; when another process (or another
store on the same database) changed the game first, the update touches no row, the copy is
dropped and read again (the writer of moves: `boardlab.web.friends.groupcommit`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardlab.core.registry import AnyRules, get_game
from boardlab.core.session import GameSession
from boardlab.web.friends.models import Game
from boardlab.web.schemas import BoardFactsOut


@dataclass
class SeatView:
    """One seat, as read from the database."""

    colour: int
    person: int
    token_hash: str
    joined_at: float | None
    remaining_ms: int | None


@dataclass
class ResultView:
    """How a game ended, as read from the database."""

    winner: int | None
    reason: str
    tag: str


@dataclass
class GameView:
    """A game's row, its seats (by colour) and its result, detached from any database
    session."""

    id: str
    match_id: str
    number: int
    game: str
    variant: str
    size: int
    start: str | None
    status: str
    ply: int
    version: int
    created_at: float
    updated_at: float
    creator_addr: str
    draw_offer: int | None
    clock_ms: int | None
    increment_ms: int
    turn_started_at: float | None
    next_game_id: str | None
    setup_stage: str | None
    placer: int | None
    seats: list[SeatView]
    result: ResultView | None

    @classmethod
    def of(cls, game: Game) -> GameView:
        """The view of an ORM game (its seats and result loaded)."""
        seats = [
            SeatView(t.colour, t.person, t.token_hash, t.joined_at, t.remaining_ms)
            for t in sorted(game.seats, key=lambda t: t.colour)
        ]
        res = game.result
        return cls(
            id=game.id,
            match_id=game.match_id,
            number=game.number,
            game=game.game,
            variant=game.variant,
            size=game.size,
            start=game.start,
            status=game.status,
            ply=game.ply,
            version=game.version,
            created_at=game.created_at,
            updated_at=game.updated_at,
            creator_addr=game.creator_addr,
            draw_offer=game.draw_offer,
            clock_ms=game.clock_ms,
            increment_ms=game.increment_ms,
            turn_started_at=game.turn_started_at,
            next_game_id=game.next_game_id,
            setup_stage=game.setup_stage,
            placer=game.placer,
            seats=seats,
            result=None if res is None else ResultView(res.winner, res.reason, res.tag),
        )


Score = tuple[int, tuple[float, float]]  # games in the match, points of persons 0 and 1


@dataclass(eq=False)
class LiveGame:
    """A game in memory: its view, the replayed session and the match's score. `lock`
    serialises the changes of this game within the process."""

    view: GameView
    rules: AnyRules
    session: GameSession[Any, Any]
    score: Score
    lock: threading.Lock = field(default_factory=threading.Lock)
    # each ply of the session with its move and the position after it in notation: a render
    # formats only the plies added since the last one
    _texts: list[tuple[object, str, str]] = field(default_factory=list, repr=False)
    _moves: list[str] = field(default_factory=list, repr=False)  # the texts' moves
    _positions: list[str] = field(default_factory=list, repr=False)  # start, then each after
    _start: object = field(default=None, repr=False)  # the start `_positions[0]` was made of
    # the legal moves of one position by their notation (a render lists them; the next move
    # is most likely one of them)
    _legal: tuple[object, dict[str, Any]] | None = field(default=None, repr=False)
    # the game's `GameInfo.board_facts` (looked up once: the registry is searched by name)
    _facts: tuple[Callable[[Any, Any], Any] | None] | None = field(default=None, repr=False)
    _facts_of: tuple[Any, dict[str, Any]] | None = field(default=None, repr=False)

    def with_view(self, view: GameView, score: Score) -> LiveGame:
        """A copy of this ended game with its row and its match's score changed (a rematch
        links the next game, which the match counts): the same session (no move comes
        after the end) and its texts so far."""
        return LiveGame(
            view, self.rules, self.session, score,
            _texts=list(self._texts), _moves=list(self._moves),
            _positions=list(self._positions), _start=self._start, _legal=self._legal,
            _facts=self._facts, _facts_of=self._facts_of,
        )  # fmt: skip

    def facts(self) -> dict[str, Any] | None:
        """The board's facts in the current position as JSON values (None: the game declares
        none); checked against the schema only when they change."""
        if self._facts is None:
            self._facts = (get_game(self.rules.game).board_facts,)
        facts = self._facts[0]
        if facts is None:
            return None
        made = facts(self.rules, self.session.position)
        if self._facts_of is None or self._facts_of[0] != made:  # most moves change none
            out = BoardFactsOut.model_validate(made)
            self._facts_of = (made, out.model_dump(mode="json"))
        return self._facts_of[1]

    def notation(self) -> tuple[list[str], list[str]]:
        """The session's moves, and its positions (the start first), in notation (new lists:
        the copy kept here grows with the game)."""
        plies, cache = self.session.plies, self._texts
        same = len(cache)
        # a ply taken back is never played again as the same object (a redo makes a new
        # one), so when the newest kept ply is still in place, every kept ply is
        if not (same <= len(plies) and (same == 0 or plies[same - 1] is cache[-1][0])):
            same = 0
            for ply, kept in zip(plies, cache, strict=False):
                if kept[0] is not ply:
                    break
                same += 1
        start = self.session.start
        if self._start is not start:
            self._start = start
            self._positions[:] = [self.rules.format_position(start)]
        del cache[same:]  # plies taken back
        del self._moves[same:]
        del self._positions[same + 1 :]
        fmt, fmt_move = self.rules.format_position, self.rules.format_move
        for p in plies[same:]:
            kept = (p, fmt_move(p.move), fmt(p.after))
            cache.append(kept)
            self._moves.append(kept[1])
            self._positions.append(kept[2])
        return self._moves[:], self._positions[:]

    def legal(self) -> dict[str, Any]:
        """The legal moves of the current position by their notation, in the rules' order
        (empty when the game is over)."""
        position = self.session.position
        if self._legal is None or self._legal[0] is not position:
            fmt = self.rules.format_move
            moves = () if self.session.result is not None else self.rules.legal_moves(position)
            self._legal = (position, {fmt(m): m for m in moves})
        return self._legal[1]


class LiveGames:
    """The live games of one store, the most recently used kept (at most `capacity`; one
    that fell out is read again when next used). A finished game is not kept among them: no
    move will come, and a busy server finishes thousands of games an hour. Its id is
    remembered (the most recent `over_capacity`), so the clock watcher knows it needs no
    look, and the copies of the most recently ended `ended_capacity` are kept apart: the
    rematch that follows an ending, and the final state it pushes, need no replay of the
    game from the database."""

    def __init__(
        self, capacity: int = 4096, over_capacity: int = 16384, ended_capacity: int = 128
    ) -> None:
        self.capacity = capacity
        self.over_capacity = over_capacity
        self.ended_capacity = ended_capacity
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._over: OrderedDict[str, None] = OrderedDict()
        self._ended: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def is_over(self, game_id: str) -> bool:
        """True when the game is known to have ended (finished or expired)."""
        return game_id in self._over

    def retire(self, game_id: str, live: LiveGame | None = None) -> None:
        """The game has ended: forget its copy among the live games, remember that it is
        over, and keep `live` (its ended copy, when given) among the recently ended."""
        with self._lock:
            self._games.pop(game_id, None)
            self._over[game_id] = None
            self._over.move_to_end(game_id)
            while len(self._over) > self.over_capacity:
                self._over.popitem(last=False)
            if live is None or live.view.status in ("waiting", "playing"):
                self._ended.pop(game_id, None)
                return
            kept = self._ended.get(game_id)
            if kept is None or kept.view.version <= live.view.version:
                self._ended[game_id] = live
            self._ended.move_to_end(game_id)
            while len(self._ended) > self.ended_capacity:
                self._ended.popitem(last=False)

    def get(self, game_id: str) -> LiveGame | None:
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def ended(self, game_id: str) -> LiveGame | None:
        """The copy of a recently ended game, if it is still kept."""
        with self._lock:
            return self._ended.get(game_id)

    def put(self, live: LiveGame) -> LiveGame:
        """Keep `live`, unless a newer copy of the game is kept already, live or ended (a
        reader that read before a change may finish after the change's own copy is in); the
        copy kept."""
        if live.view.status not in ("waiting", "playing"):
            self.retire(live.view.id, live)
            return self.ended(live.view.id) or live
        with self._lock:
            kept = self._games.get(live.view.id)
            if kept is not None and kept.view.version > live.view.version:
                self._games.move_to_end(live.view.id)
                return kept
            ended = self._ended.get(live.view.id)
            if ended is not None and ended.view.version > live.view.version:
                return ended  # the game ended after this copy was read
            self._ended.pop(live.view.id, None)
            self._games[live.view.id] = live
            self._games.move_to_end(live.view.id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
            return live

    def drop(self, game_id: str, live: LiveGame | None = None) -> None:
        """Forget a game's copy, live or ended (only if it is still `live`, when given)."""
        with self._lock:
            for kept in (self._games, self._ended):
                if live is None or kept.get(game_id) is live:
                    kept.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
