"""What the API does, free of HTTP: replay games, ask players, probe tables, build tables.

Every fact about a game (variants, sizes, colours, levels, setup stage, tables) comes from its
`GameInfo`; tables come from the `TableStore` the app was made with.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import anyio

from boardlab.ai.base import default_level, level_names, make_player
from boardlab.ai.forced import forced_result
from boardlab.core.errors import (
    BoardLabError,
    IllegalMoveError,
    MissingTableError,
    NotationError,
    UsageError,
)
from boardlab.core.outcome import Outcome
from boardlab.core.registry import AnyRules, games, get_game, make_rules
from boardlab.core.session import GameSession
from boardlab.solver import analyse
from boardlab.solver.store import TableStore, rules_key
from boardlab.web import schemas as s
from boardlab.web.facts import board_facts

Session = GameSession[Any, Any]


def rules_of(game: str, variant: str | None, size: int | None) -> AnyRules:
    """Rules by name; raises UnknownGameError with a one-line message."""
    return make_rules(game, variant, size)


def replay(spec: s.GameSpec) -> tuple[AnyRules, Session]:
    """A session holding the spec's start and moves; names the ply of a bad move."""
    rules = rules_of(spec.game, spec.variant, spec.size)
    start = rules.parse_position(spec.start) if spec.start else None
    session: Session = GameSession(rules, start)
    for i, text in enumerate(spec.moves):
        try:
            session.play(rules.parse_move(text))
        except NotationError as exc:
            raise NotationError(f"move {i + 1} ({text.strip()}): {exc}") from exc
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {i + 1} ({text.strip()}): {exc}") from exc
    return rules, session


def _value(v: object) -> s.ValueText:
    """A solver value as the API spells it."""
    text = str(v)
    if text not in ("win", "loss", "draw"):
        raise ValueError(f"unexpected value {text!r}")
    return cast(s.ValueText, text)


def result_out(outcome: Outcome | None) -> s.ResultOut | None:
    """The result as the API shows it."""
    if outcome is None:
        return None
    return s.ResultOut(winner=outcome.winner, reason=outcome.reason.value, tag=outcome.result_tag())


def state_out(rules: AnyRules, session: Session) -> s.StateOut:
    """Everything a front end needs to draw the game."""
    fmt = rules.format_position
    return s.StateOut(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        players=rules.player_names,
        options=dict(rules.options()),
        start=fmt(session.start),
        moves=[rules.format_move(m) for m in session.moves],
        positions=[fmt(p) for p in session.positions],
        position=fmt(session.position),
        to_move=session.to_move,
        legal_moves=[rules.format_move(m) for m in session.legal_moves()],
        result=result_out(session.result),
        facts=board_facts(rules, session.position),
    )


def catalogue() -> s.GamesOut:
    """The registered games with their variants, sizes, colours, levels and setup stage."""
    out = []
    all_levels: list[str] = []
    for info in games().values():
        variants = [
            s.VariantOut(
                name=v.name,
                players=v.player_names,
                letters=v.letters,
                sizes=v.size_range,
                size_list=list(v.sizes),
                default_size=v.default_size,
                published_size=v.published_size,
                summary=v.summary,
            )
            for v in info.variants
        ]
        levels = level_names(info)
        all_levels.extend(n for n in levels if n not in all_levels)
        out.append(
            s.GameOut(
                name=info.name,
                title=info.title,
                default_variant=info.default_variant,
                variants=variants,
                levels=["random", *levels],
                default_level=default_level(info),
                setup=None if info.setup is None else info.setup.name,
                tables=info.solver_adapter is not None,
            )
        )
    features = {"levels": bool(all_levels), "forced": True, "solver": True}
    return s.GamesOut(games=out, levels=sorted(all_levels) or ["random"], features=features)


class PlayerPool:
    """Up to `limit` instances of one computer player; each serves one request at a time
    (players keep search tables that are not shared between threads)."""

    def __init__(self, make: Callable[[], Any], limit: int = 4) -> None:
        self._make = make
        self._limit = limit
        self._free: queue.LifoQueue[Any] = queue.LifoQueue()
        self._count = 0
        self._lock = threading.Lock()

    def add(self, player: Any) -> None:
        """Put a ready-made player into the pool."""
        with self._lock:
            self._count += 1
        self._free.put(player)

    @contextmanager
    def player(self) -> Iterator[Any]:
        """Borrow an idle player, making one if under the limit, else wait for one."""
        try:
            p = self._free.get_nowait()
        except queue.Empty:
            with self._lock:
                create = self._count < self._limit
                if create:
                    self._count += 1
            if create:
                try:
                    p = self._make()
                except BaseException:
                    with self._lock:
                        self._count -= 1
                    raise
            else:
                p = self._free.get()
        try:
            yield p
        finally:
            self._free.put(p)


# Seconds a table takes to build on a 2-core machine with compiled code cached (README's
# measured figures, rounded up): the page says this before a build starts.
BUILD_ESTIMATE_S = {3: 1.0, 4: 1.0, 5: 30.0}


class Service:
    """Shared, thread-safe caches (players, the table store); never a game in play."""

    def __init__(self, tables: TableStore, compute_threads: int = 4) -> None:
        self.tables = tables
        # computer moves and playouts share this many worker threads
        self.limiter = anyio.CapacityLimiter(compute_threads)
        self._lock = threading.Lock()
        self._players: dict[tuple[str, str], PlayerPool] = {}
        self._phases: dict[str, str] = {}  # build phase per ruleset: solving, writing, opening

    # -- players ---------------------------------------------------------------------------
    def _pool(self, level: str, rules: AnyRules) -> PlayerPool:
        key = (level, rules_key(rules))
        with self._lock:
            pool = self._players.get(key)
        if pool is None:
            # raises, with the reason, for a level the game does not have
            first = make_player(level, rules, self.tables)
            fresh = PlayerPool(lambda: make_player(level, rules, self.tables))
            fresh.add(first)
            with self._lock:
                pool = self._players.setdefault(key, fresh)
        return pool

    def choose(self, rules: AnyRules, session: Session, level: str, rng: random.Random) -> Any:
        """A computer move for the side to move, from a pooled player of that level."""
        if session.is_over:
            raise IllegalMoveError("the game is over")
        history = session.positions[:-1]
        with self._pool(level, rules).player() as player:
            return player.choose(rules, session.position, history, rng)

    def computer_move(self, req: s.MoveRequest) -> s.MoveOut:
        """Replay, let the computer move, and report a forced win it sees."""
        rules, session = replay(req)
        rng = random.Random(f"{req.seed}:{len(session.moves)}")
        move = self.choose(rules, session, req.level, rng)
        session.play(move)
        forced = self.forced(rules, session) if req.forced else None
        return s.MoveOut(
            move=rules.format_move(move),
            player=req.level,
            state=state_out(rules, session),
            forced=forced,
        )

    def playout(self, req: s.PlayoutRequest) -> s.PlayoutOut:
        """Play on from the replayed position to the end (or max_plies) between two levels."""
        rules, session = replay(req)
        first = len(session.moves)
        while not session.is_over and len(session.moves) - first < req.max_plies:
            rng = random.Random(f"{req.seed}:{len(session.moves)}")
            session.play(self.choose(rules, session, req.players[session.to_move], rng))
        played = [rules.format_move(m) for m in session.moves[first:]]
        return s.PlayoutOut(moves=played, state=state_out(rules, session))

    def pie(self, req: s.PieRequest) -> s.PieOut:
        """The computer's side of the game's setup stage (Dot Dash's pie): place a setup, or
        choose a colour for the given one (checked by the game's setup rules)."""
        rules = rules_of(req.game, req.variant, req.size)
        stage = get_game(rules.game).setup
        if stage is None:
            raise UsageError(f"{get_game(rules.game).title} has no setup stage")
        agent = stage.agent(rules, random.Random(f"{req.seed}:pie:{req.role}"))
        colour: int | None = None
        if req.role == "place":
            position = stage.parse(rules, agent("place"))
        else:
            assert req.setup is not None  # the request model insists on it
            position = stage.parse(rules, req.setup)
            colour = stage.parse_choice(agent(f"choose {stage.describe(position)}"))
        session: Session = GameSession(rules, position)
        return s.PieOut(
            role=req.role,
            player=req.level,
            setup=stage.describe(position),
            colour=colour,
            colour_name=None if colour is None else rules.player_names[colour],
            state=state_out(rules, session),
        )

    def forced(self, rules: AnyRules, session: Session) -> s.ForcedOut | None:
        """A forced win from the current position, where the game's finder sees one."""
        if session.is_over:
            return None
        try:
            found = forced_result(
                rules, session.position, tuple(session.positions[:-1]), self.tables
            )
        except BoardLabError:
            return None
        if found is None:
            return None
        return s.ForcedOut(winner=int(found.winner), plies=int(found.plies))

    # -- tables ----------------------------------------------------------------------------
    def table_status(self, rules: AnyRules) -> s.TableOut:
        """Ready, missing, building (with progress), failed or unsolvable."""
        ruleset = rules_key(rules)
        store = self.tables
        if not store.solvable(rules):
            has_tables = get_game(rules.game).solver_adapter is not None
            return s.TableOut(
                ruleset=ruleset,
                solvable=False,
                state="unsolvable",
                message=(
                    f"no table for {rules.game} at size {rules.size}"
                    if has_tables
                    else f"the solver has no tables for {rules.game}"
                ),
            )
        job = store.progress(rules)
        if store.is_open(rules):
            return s.TableOut(ruleset=ruleset, solvable=True, state="ready")
        if job is not None and job.state in ("building", "failed"):
            return s.TableOut(
                ruleset=ruleset,
                solvable=True,
                state=job.state,  # type: ignore[arg-type]
                done=job.done,
                total=job.total,
                message=job.message,
                phase=self._phases.get(ruleset) if job.state == "building" else None,  # type: ignore[arg-type]
                estimate_s=BUILD_ESTIMATE_S.get(rules.size),
            )
        try:
            store.open(rules)
        except MissingTableError as exc:
            return s.TableOut(
                ruleset=ruleset,
                solvable=True,
                state="missing",
                message=str(exc),
                estimate_s=BUILD_ESTIMATE_S.get(rules.size),
            )
        return s.TableOut(ruleset=ruleset, solvable=True, state="ready")

    def table(self, rules: AnyRules) -> Any:
        """The open tablebase for these rules; raises MissingTableError."""
        return self.tables.open(rules)

    def start_build(
        self, rules: AnyRules, run: Callable[[Callable[[], None]], None] | None = None
    ) -> s.TableOut:
        """Start building a table in the background (one build at a time); idempotent."""
        status = self.table_status(rules)
        if status.state not in ("missing", "failed"):
            return status
        if self.tables.start_progress(rules) is None:  # a build is already under way
            return self.table_status(rules)

        key = rules_key(rules)
        self._phases[key] = "solving"
        job = self.tables.progress(rules)

        def writing(done: int, total: int) -> None:
            # the store counts solved slices; the written blocks are shown as their own
            # phase, and after the last one the table is checked and opened
            self._phases[key] = "writing" if done < total else "opening"
            if job is not None:
                job.done, job.total = int(done), int(total)

        def work() -> None:
            # a failure is recorded in the store's progress, which the page polls
            with contextlib.suppress(Exception):
                self.tables.build(rules, on_blocks=writing)

        if run is not None:
            run(work)
        else:
            threading.Thread(target=work, name=f"table-{rules_key(rules)}", daemon=True).start()
        return self.table_status(rules)

    # -- analysis --------------------------------------------------------------------------
    def analysis(self, spec: s.GameSpec) -> s.AnalysisOut:
        """Values of the position, of every legal move and of every position of the game."""
        rules, session = replay(spec)
        to_move = session.to_move
        status = self.table_status(rules)
        if status.state != "ready":
            reason = status.message or {
                "missing": "no table for this size yet",
                "building": "the table is being built",
            }.get(status.state, "no table for this size")
            return s.AnalysisOut(
                available=False,
                reason=reason,
                table=status.state,
                to_move=to_move,
                forced=self.forced(rules, session),
            )
        table = self.table(rules)
        history = []
        for i, pos in enumerate(session.positions):
            v, r = table.probe(pos)
            history.append(
                s.PlyValueOut(ply=i, to_move=rules.to_move(pos), value=_value(v), remoteness=r)
            )
        value: s.ValueText | None
        rem: int | None
        moves: list[s.MoveEvalOut] = []
        if session.is_over:
            outcome = session.result
            assert outcome is not None
            value, rem = _value(outcome.value_for(to_move)), 0
            history[-1] = s.PlyValueOut(
                ply=len(session.moves), to_move=to_move, value=value, remoteness=0
            )
        else:
            value, rem = history[-1].value, history[-1].remoteness
            for e in analyse(rules, table, session.position):
                moves.append(
                    s.MoveEvalOut(
                        move=rules.format_move(e.move),
                        value=_value(e.value),
                        remoteness=e.remoteness,
                    )
                )
        forced = None
        if value == "win" and rem is not None and not session.is_over:
            forced = s.ForcedOut(winner=to_move, plies=rem)
        elif value == "loss" and rem is not None and not session.is_over:
            forced = s.ForcedOut(winner=1 - to_move, plies=rem)
        return s.AnalysisOut(
            available=True,
            table="ready",
            value=value,
            remoteness=rem,
            to_move=to_move,
            moves=moves,
            history=history,
            forced=forced,
        )
