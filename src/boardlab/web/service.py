"""What the API does, free of HTTP: replay games, ask players, probe tables, build tables.

Pieces that may be absent (levels, forced-win search, the solver) are imported lazily, so the
server always starts and reports what it cannot do instead of failing.
"""

from __future__ import annotations

import importlib
import os
import queue
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import anyio

from boardlab.core.errors import (
    BoardLabError,
    IllegalMoveError,
    MissingTableError,
    NotationError,
    UnknownGameError,
)
from boardlab.core.outcome import Outcome
from boardlab.core.registry import AnyRules, games, make_rules
from boardlab.core.session import GameSession
from boardlab.web import schemas as s
from boardlab.web.facts import board_facts

Session = GameSession[Any, Any]


def optional_module(name: str) -> ModuleType | None:
    """The module, or None when that piece of BoardLab is not installed yet."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def solver_module() -> ModuleType | None:
    """The solver package if it offers what the web app calls, else None."""
    mod = optional_module("boardlab.solver")
    needed = ("solvable", "open_table", "ensure_table", "analyse")
    if mod is None or not all(hasattr(mod, name) for name in needed):
        return None
    return mod


def forced_module() -> ModuleType | None:
    """The forced-win finder if present, else None."""
    mod = optional_module("boardlab.ai.dodgem.forced")
    return mod if mod is not None and hasattr(mod, "forced_result") else None


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
    """The registered games with their variants, and which optional features are present."""
    out = []
    for info in games().values():
        variants = []
        for v in info.variants:
            rules = info.rules(v, None)
            lo, hi = info.variant_sizes.get(v, info.sizes)
            variants.append(
                s.VariantOut(
                    name=v, players=rules.player_names, sizes=(lo, hi), default_size=rules.size
                )
            )
        out.append(
            s.GameOut(
                name=info.name,
                title=info.title,
                default_variant=info.default_variant,
                variants=variants,
            )
        )
    has_levels = optional_module("boardlab.ai.dodgem.levels") is not None
    features = {
        "levels": has_levels,
        "forced": forced_module() is not None,
        "solver": solver_module() is not None,
    }
    levels = ["1", "2", "3", "4"] if has_levels else ["random"]
    return s.GamesOut(games=out, levels=levels, features=features)


def rules_key(rules: AnyRules) -> str:
    """A text key for caches: game plus every option."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(rules.options().items()))
    return f"{rules.game}:{opts}"


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


@dataclass
class TableJob:
    """A tablebase being built in a background thread."""

    state: str = "building"
    done: int = 0
    total: int = 0
    message: str | None = None
    phase: str = "solving"  # then "writing" the file, then "opening" it


# Seconds a table takes to build on a 2-core machine with compiled code cached (README's
# measured figures, rounded up): the page says this before a build starts.
BUILD_ESTIMATE_S = {3: 1.0, 4: 1.0, 5: 30.0}


class Service:
    """Shared, thread-safe caches (players, open tables, build jobs); never a game in play."""

    def __init__(self, tables: Path | None = None, compute_threads: int = 4) -> None:
        self.tables = tables
        # computer moves and playouts share this many worker threads
        self.limiter = anyio.CapacityLimiter(compute_threads)
        self._lock = threading.Lock()
        self._players: dict[tuple[str, str], PlayerPool] = {}
        self._open: dict[str, Any] = {}
        self._jobs: dict[str, TableJob] = {}
        self._build_lock = threading.Lock()

    # -- players ---------------------------------------------------------------------------
    def _pool(self, level: str, rules: AnyRules) -> PlayerPool:
        from boardlab.ai.base import make_player

        key = (level, rules_key(rules))
        with self._lock:
            pool = self._players.get(key)
        if pool is None:
            first = make_player(level, rules)  # raises, with the reason, for an unknown level
            fresh = PlayerPool(lambda: make_player(level, rules))
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
        """The computer's side of the Dot Dash pie: place a setup, or choose a colour for the
        given one (checked: three stones, one of one colour and two of the other)."""
        from boardlab.ai.dotdash.players import pie_agent
        from boardlab.games.dotdash.pie import parse_colour, pie_position
        from boardlab.games.dotdash.rules import DotDashRules

        rules = rules_of(req.game, req.variant, req.size)
        if not isinstance(rules, DotDashRules):
            raise UnknownGameError(f"{rules.game} has no pie setup")
        agent = pie_agent(rules, random.Random(f"{req.seed}:pie:{req.role}"))
        colour: int | None = None
        if req.role == "place":
            position = pie_position(rules, agent("place"))
        else:
            assert req.setup is not None  # the request model insists on it
            position = pie_position(rules, req.setup)
            colour = parse_colour(agent(f"choose {position.setup_text()}"))
        session: Session = GameSession(rules, position)
        return s.PieOut(
            role=req.role,
            player=req.level,
            setup=position.setup_text(),
            colour=colour,
            colour_name=None if colour is None else rules.player_names[colour],
            state=state_out(rules, session),
        )

    def forced(self, rules: AnyRules, session: Session) -> s.ForcedOut | None:
        """A forced win from the current position, if the forced-win finder is present."""
        mod = forced_module()
        if mod is None or session.is_over:
            return None
        try:
            found = mod.forced_result(rules, session.position, tuple(session.positions[:-1]))
        except BoardLabError:
            return None
        if found is None:
            return None
        return s.ForcedOut(winner=int(found.winner), plies=int(found.plies))

    # -- tables ----------------------------------------------------------------------------
    def _solver(self) -> ModuleType | None:
        return solver_module()

    def table_status(self, rules: AnyRules) -> s.TableOut:
        """Ready, missing, building (with progress), failed or unsolvable."""
        ruleset = rules_key(rules)
        solver = self._solver()
        if solver is None:
            return s.TableOut(
                ruleset=ruleset,
                solvable=False,
                state="unavailable",
                message="the solver is not installed",
            )
        if rules.game != "dodgem" or not solver.solvable(rules):
            return s.TableOut(
                ruleset=ruleset,
                solvable=False,
                state="unsolvable",
                message=(
                    f"no table for {rules.game} at size {rules.size}"
                    if rules.game == "dodgem"
                    else f"the solver has no tables for {rules.game}"
                ),
            )
        with self._lock:
            job = self._jobs.get(ruleset)
            if ruleset in self._open:
                return s.TableOut(ruleset=ruleset, solvable=True, state="ready")
        if job is not None and job.state in ("building", "failed"):
            return s.TableOut(
                ruleset=ruleset,
                solvable=True,
                state=job.state,  # type: ignore[arg-type]
                done=job.done,
                total=job.total,
                message=job.message,
                phase=job.phase,  # type: ignore[arg-type]
                estimate_s=BUILD_ESTIMATE_S.get(rules.size),
            )
        try:
            self.table(rules)
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
        key = rules_key(rules)
        with self._lock:
            table = self._open.get(key)
        if table is not None:
            return table
        solver = self._solver()
        if solver is None:
            raise MissingTableError("the solver is not installed")
        table = solver.open_table(rules, self.tables)
        with self._lock:
            return self._open.setdefault(key, table)

    def start_build(
        self, rules: AnyRules, run: Callable[[Callable[[], None]], None] | None = None
    ) -> s.TableOut:
        """Start building a table in the background (one build at a time); idempotent."""
        status = self.table_status(rules)
        if status.state not in ("missing", "failed"):
            return status
        key = rules_key(rules)
        with self._lock:
            if key in self._jobs and self._jobs[key].state == "building":
                return self.table_status(rules)
            job = TableJob()
            self._jobs[key] = job

        def work() -> None:
            solver = self._solver()
            assert solver is not None

            def progress(done: int, total: int, *_: int) -> None:
                job.done, job.total = int(done), int(total)

            def writing(done: int, total: int) -> None:
                job.phase, job.done, job.total = "writing", int(done), int(total)

            try:
                with self._build_lock:
                    api = optional_module("boardlab.solver.api")
                    build = getattr(api, "build_table", None)
                    if build is not None:
                        # solving and then writing, each with its progress, to the very end
                        jobs = 1 if rules.size < 5 else min(2, os.cpu_count() or 1)
                        build(rules, self.tables, jobs, on_slices=progress, on_blocks=writing)
                    else:
                        solver.ensure_table(
                            rules, self.tables, progress=False, on_progress=progress
                        )
                job.phase = "opening"
                self.table(rules)
                job.state = "ready"
            except Exception as exc:  # report any failure to the page rather than lose it
                job.state = "failed"
                job.message = " ".join(str(exc).split()) or exc.__class__.__name__

        if run is not None:
            run(work)
        else:
            threading.Thread(target=work, name=f"table-{key}", daemon=True).start()
        return self.table_status(rules)

    # -- analysis --------------------------------------------------------------------------
    def analysis(self, spec: s.GameSpec) -> s.AnalysisOut:
        """Values of the position, of every legal move and of every position of the game."""
        rules, session = replay(spec)
        to_move = session.to_move
        solver = self._solver()
        status = self.table_status(rules)
        if solver is None or status.state != "ready":
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
            for e in solver.analyse(rules, table, session.position):
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
