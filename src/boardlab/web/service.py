"""What the API does, free of HTTP: replay games, ask players, probe tables, build tables.

Every fact about a game (variants, sizes, colours, levels, setup stage, tables) comes from its
`GameInfo`; tables come from the `TableStore` the app was made with.
"""

from __future__ import annotations

import importlib
import os
import queue
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from boardlab.ai.base import default_level, level_names, make_player
from boardlab.ai.forced import DEFAULT_BUDGET, forced_result
from boardlab.core.errors import (
    BoardLabError,
    CorruptTableError,
    IllegalMoveError,
    MissingTableError,
    NotationError,
    UsageError,
)
from boardlab.core.outcome import Outcome
from boardlab.core.registry import AnyRules, games, get_game, make_rules
from boardlab.core.session import GameSession
from boardlab.solver import analyse
from boardlab.solver.store import TableStore, rules_key, solver_view
from boardlab.web import schemas as s
from boardlab.web.limits import Budget, sigint_blocked
from boardlab.web.security import hide_paths

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
        facts=s.board_facts(rules, session.position),
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
                renderer=info.renderer,
                table_level=info.table_level,
                action_ids=info.codec is not None,
            )
        )
    features = {"levels": bool(all_levels), "forced": True, "solver": True}
    return s.GamesOut(games=out, levels=sorted(all_levels) or ["random"], features=features)


SEARCH_TABLE_ENTRIES = 50_000  # search-table entries a pooled player keeps between requests
MAX_POOLS = 8  # (level, ruleset) pools kept; the least recently used one goes first


def trim_player(player: Any, entries: int | None = None) -> None:
    """Bound what an idle player keeps (its search tables), if it knows how."""
    trim = getattr(player, "trim", None)
    if callable(trim):
        trim(SEARCH_TABLE_ENTRIES if entries is None else entries)


class PlayerPool:
    """Up to `limit` instances of one computer player; each serves one request at a time
    (players keep search tables that are not shared between threads). A player going back
    to the pool is trimmed to a bounded search table."""

    def __init__(self, make: Callable[[], Any], limit: int = 2) -> None:
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
            trim_player(p)
            self._free.put(p)


@dataclass
class TableJob:
    """A tablebase being built in a separate process."""

    state: str = "building"
    done: int = 0
    total: int = 0
    message: str | None = None
    process: Any = None  # multiprocessing.Process while building
    counters: Any = None  # shared (done, total, phase as an index into PHASES)
    failure: Any = None  # shared bytes: the build's one-line error
    phase: str | None = None  # solving, writing (blocks of the file), opening


PHASES = ("solving", "writing", "opening")


class BuildsNotAllowedError(BoardLabError):
    """Table builds were asked of a server that does not allow them (HTTP 403)."""


class BuildBusyError(BoardLabError):
    """Another table is being built; one build runs at a time (HTTP 409)."""


def _set_parent_death_signal(parent: int | None = None) -> None:
    """Make this (worker) process end when the process that started it dies, so that no
    worker outlives a killed server. A watcher thread checks the parent id (Linux's
    PR_SET_PDEATHSIG would fire when the starting *thread* ends, which in a server is any
    time). Builds use `_reap_group_with_parent` instead."""
    import os

    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:  # the parent died while this process was starting
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _reap_group_with_parent(parent: int) -> None:
    """Fork a small watcher that kills this process group once the process that started
    this one is gone. A watcher thread alone is not enough for a build: compiled kernels
    hold the interpreter lock for seconds at a time, so the thread could not run."""
    import os
    import signal

    leader = os.getpid()
    if os.getppid() != parent:  # the server died while this process was starting
        os._exit(1)
    if os.fork() != 0:
        return
    try:  # the watcher: nothing but a loop reading the leader's parent id
        while True:
            time.sleep(0.5)
            try:
                with open(f"/proc/{leader}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                break  # the build has ended and was reaped
            if fields[0] == b"Z":
                break  # the build has ended
            if int(fields[1]) != parent:
                os.killpg(leader, signal.SIGKILL)  # the server is gone: end the build (and us)
    finally:
        os._exit(0)


def _build_process(
    game: str,
    variant: str | None,
    size: int | None,
    tables: str | None,
    counters: Any,
    message: Any,
    server: int,
) -> None:
    """Entry point of a build process: its own process group, killed with its parent; a
    failure is written to `message` as one line (no traceback on the server's stderr)."""
    import os
    import sys

    os.setpgrp()
    _reap_group_with_parent(server)
    with suppress(OSError):
        os.nice(10)  # a build never slows the server's answers

    def progress(done: int, total: int) -> None:
        counters[0], counters[1] = int(done), int(total)

    def blocks(done: int, total: int) -> None:
        # the written blocks are their own phase; after the last, the table is opened
        counters[0], counters[1] = int(done), int(total)
        counters[2] = 1 if done < total else 2

    try:
        solver = importlib.import_module("boardlab.solver.api")
        rules = rules_of(game, variant, size)
        folder = Path(tables) if tables else None
        try:
            solver.ensure_table(rules, folder, on_progress=progress, jobs=1, on_blocks=blocks)
        except CorruptTableError:  # a damaged file: build it again over it
            counters[2] = 0
            solver.run_build(rules, folder, 1, on_progress=progress, on_blocks=blocks)
    except Exception as exc:
        text = hide_paths(" ".join(str(exc).split()) or exc.__class__.__name__)
        message.value = text.encode("utf-8", "replace")[: BUILD_MESSAGE_BYTES - 1]
        sys.exit(1)


BUILD_MESSAGE_BYTES = 400


def _kill_group(proc: Any) -> None:
    """SIGTERM, then SIGKILL, to a build process and every process it started."""
    import os
    import signal

    pid = proc.pid
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
        if not proc.is_alive():
            break
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
        with suppress(ProcessLookupError):
            os.kill(pid, sig)
        proc.join(timeout=wait)


# Seconds a table takes to build from the page on a 2-core machine, rounded up: the page
# says this before a build starts, then the time left from the build's own pace. A 5×5
# build from the page took 96 s (a fresh process that also loads its compiled kernels, on a
# server that is warming up), far more than the solve alone (README: about 14 s).
BUILD_ESTIMATE_S = {3: 1.0, 4: 1.0, 5: 100.0}


class Service:
    """Shared, thread-safe caches (players, the table store); never a game in play."""

    def __init__(
        self,
        tables: TableStore,
        *,
        allow_builds: bool = False,
        max_pools: int = MAX_POOLS,
    ) -> None:
        self.tables = tables
        self.allow_builds = allow_builds
        self._lock = threading.Lock()
        self._players: OrderedDict[tuple[str, str], PlayerPool] = OrderedDict()
        self._max_pools = max(1, max_pools)
        self._jobs: dict[str, TableJob] = {}
        self._phases: dict[str, str] = {}  # kept for the page's phase field

    # -- players ---------------------------------------------------------------------------
    def _pool(self, level: str, rules: AnyRules) -> PlayerPool:
        def make() -> Any:
            player = make_player(level, rules, self.tables)
            if hasattr(player, "build_small"):
                player.build_small = False  # level 4 never builds inside a move request
            return player

        key = (level, rules_key(rules))
        with self._lock:
            pool = self._players.get(key)
            if pool is not None:
                self._players.move_to_end(key)
        if pool is None:
            first = make()  # raises, with the reason, for an unknown level
            fresh = PlayerPool(make)
            fresh.add(first)
            with self._lock:
                pool = self._players.setdefault(key, fresh)
                self._players.move_to_end(key)
                while len(self._players) > self._max_pools:
                    # players borrowed from a dropped pool finish their request and go
                    self._players.popitem(last=False)
        return pool

    def drop_players(self) -> None:
        """Forget every player pool (players busy now finish their request and go)."""
        with self._lock:
            self._players.clear()

    def pool_count(self) -> int:
        """How many player pools are kept now (bounded by `max_pools`)."""
        with self._lock:
            return len(self._players)

    def choose(
        self,
        rules: AnyRules,
        session: Session,
        level: str,
        rng: random.Random,
        budget: Budget | None = None,
    ) -> Any:
        """A computer move for the side to move, from a pooled player of that level."""
        if session.is_over:
            raise IllegalMoveError("the game is over")
        if budget is not None:
            budget.check()
        history = session.positions[:-1]
        with self._pool(level, rules).player() as player:
            try:
                return player.choose(rules, session.position, history, rng)
            except CorruptTableError:
                self._forget_table(rules)
                raise

    def _level4_table(self, rules: AnyRules, level: str) -> tuple[s.TableState | None, str | None]:
        """For a move of the level that plays from tables (`GameInfo.table_level`): the
        table's state and, unless it is ready, a note."""
        table_level = get_game(rules.game).table_level
        if table_level is None or level != str(table_level):
            return None, None
        status = self.table_status(rules)
        if status.state == "ready":
            return "ready", None
        if status.state == "damaged":
            return "damaged", f"level {level} played by search: {status.message}"
        if status.state in ("missing", "building", "failed"):
            return (
                status.state,
                f"level {level} played by search: no complete table for these rules",
            )
        return None, None

    def computer_move(
        self,
        req: s.MoveRequest,
        budget: Budget | None = None,
        forced_seconds: float = DEFAULT_BUDGET,
    ) -> s.MoveOut:
        """Replay, let the computer move, and report a forced win it sees (a proof search
        of at most `forced_seconds`: the server passes less when it is busy)."""
        rules, session = replay(req)
        rng = random.Random(f"{req.seed}:{len(session.moves)}")
        table, note = self._level4_table(rules, req.level)
        move = self.choose(rules, session, req.level, rng, budget)
        session.play(move)
        forced = None
        if req.forced and (budget is None or not budget.exhausted()):
            forced = self.forced(rules, session, forced_seconds)
        return s.MoveOut(
            move=rules.format_move(move),
            player=req.level,
            state=state_out(rules, session),
            forced=forced,
            table=table,
            note=note,
        )

    def playout(
        self,
        req: s.PlayoutRequest,
        budget: Budget | None = None,
        progress: list[str] | None = None,
    ) -> s.PlayoutOut:
        """Play on from the replayed position to the end, `max_plies` or the budget's end
        (then `complete` is false: post the moves back to go on from there). Each move is
        also appended to `progress` as it is played (the route answers from there when a
        move runs past the deadline)."""
        rules, session = replay(req)
        first = len(session.moves)
        stopped: s.StopReason | None = None
        while not session.is_over and len(session.moves) - first < req.max_plies:
            if budget is not None and budget.exhausted():
                stopped = "cancelled" if budget.cancel.is_set() else "time"
                break
            rng = random.Random(f"{req.seed}:{len(session.moves)}")
            move = self.choose(rules, session, req.players[session.to_move], rng)
            session.play(move)
            if progress is not None:
                progress.append(rules.format_move(move))
        if stopped is None and not session.is_over:
            stopped = "plies"
        played = [rules.format_move(m) for m in session.moves[first:]]
        return s.PlayoutOut(
            moves=played,
            state=state_out(rules, session),
            complete=session.is_over,
            stopped=stopped,
        )

    @staticmethod
    def playout_page(req: s.PlayoutRequest, played: list[str]) -> s.PlayoutOut:
        """A playout's page cut at its deadline: the moves `played` by then (complete is
        false, stopped "time"; the client posts them back to go on)."""
        rules, session = replay(req.model_copy(update={"moves": [*req.moves, *played]}))
        return s.PlayoutOut(
            moves=played,
            state=state_out(rules, session),
            complete=session.is_over,
            stopped=None if session.is_over else "time",
        )

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

    def forced(
        self, rules: AnyRules, session: Session, seconds: float = DEFAULT_BUDGET
    ) -> s.ForcedOut | None:
        """A forced win from the current position, where the game's finder sees one within
        `seconds` of proof search (a table, when one is open, answers at once)."""
        if session.is_over:
            return None
        try:
            found = forced_result(
                rules, session.position, tuple(session.positions[:-1]), self.tables, seconds
            )
        except BoardLabError:
            return None
        if found is None:
            return None
        return s.ForcedOut(winner=int(found.winner), plies=int(found.plies))

    # -- tables ----------------------------------------------------------------------------
    def _forget_table(self, rules: AnyRules) -> None:
        """Drop a table found damaged, here and in the players' cache, so that the next
        request opens the file again (e.g. once it has been rebuilt)."""
        self.tables.forget(rules)

    def table_status(self, rules: AnyRules) -> s.TableOut:
        """Ready, missing, building (with progress), failed, damaged or unsolvable."""
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
        with self._lock:
            job = self._jobs.get(ruleset)
        if store.is_open(rules):
            return s.TableOut(ruleset=ruleset, solvable=True, state="ready")
        if job is not None:
            self._poll(job)
            here = job.counters is None and job.state == "building" and job.phase == "solving"
            progress = store.progress(rules) if here else None
            if progress is not None:  # a build in this process: the store counts the slices
                job.done, job.total = progress.done, progress.total
            if job.state in ("building", "failed"):
                return s.TableOut(
                    ruleset=ruleset,
                    solvable=True,
                    state=job.state,  # type: ignore[arg-type]
                    done=job.done,
                    total=job.total,
                    message=job.message,
                    phase=job.phase if job.state == "building" else None,  # type: ignore[arg-type]
                    **self._build_cost(rules),
                )
        try:
            self.table(rules)
        except MissingTableError as exc:
            return s.TableOut(
                ruleset=ruleset,
                solvable=True,
                state="missing",
                message=hide_paths(str(exc)),
                **self._build_cost(rules),
            )
        except CorruptTableError as exc:
            return s.TableOut(
                ruleset=ruleset,
                solvable=True,
                state="damaged",
                message=f"table damaged: {hide_paths(str(exc))}",
                **self._build_cost(rules),
            )
        return s.TableOut(ruleset=ruleset, solvable=True, state="ready")

    def _build_cost(self, rules: AnyRules) -> dict[str, Any]:
        """What a build of these (solvable) rules would take, as TableOut fields: a board
        built in a few minutes gets its page estimate; a bigger one is not `buildable` from
        the page and names what it is, its time and disk here, and the commands to run."""
        from boardlab.solver.api import rebuild_command, require_game
        from boardlab.solver.buildcost import build_cost

        game = require_game(solver_view(rules))
        cost = build_cost(game, self.tables.folder)
        if cost.page_buildable:
            small = BUILD_ESTIMATE_S.get(rules.size)
            return {
                "estimate_s": small if small is not None else cost.seconds,
                "estimate_measured": cost.measured and small is None,
                "disk_bytes": cost.disk_bytes,
            }
        return {
            "buildable": False,
            "estimate_s": cost.seconds,
            "estimate_measured": cost.measured,
            "disk_bytes": cost.disk_bytes,
            "positions": cost.positions,
            "commands": [
                rebuild_command(rules),
                f"boardlab tables install FOLDER-OR-URL/{game.ruleset_id}",
            ],
        }

    def table(self, rules: AnyRules) -> Any:
        """The open tablebase for these rules; raises MissingTableError or CorruptTableError
        (also for a file that cannot be read at all)."""
        try:
            return self.tables.open(rules)
        except OSError as exc:
            from boardlab.solver.api import rebuild_command

            raise CorruptTableError(
                f"cannot read the table ({exc.strerror or exc.__class__.__name__}); rebuild it "
                f"with: {rebuild_command(rules)} --force"
            ) from None

    def _poll(self, job: TableJob) -> None:
        """Update a build job from its process (progress, and how it ended)."""
        if job.counters is not None:
            job.done, job.total = int(job.counters[0]), int(job.counters[1])
            job.phase = PHASES[min(max(int(job.counters[2]), 0), 2)]
        proc = job.process
        if job.state != "building" or proc is None or proc.is_alive():
            return
        proc.join(timeout=0)
        if job.state == "building":
            if proc.exitcode == 0:
                job.state = "ready"
            else:
                job.state = "failed"
                told = bytes(job.failure.value).decode("utf-8", "replace") if job.failure else ""
                job.message = told or f"the build stopped (exit status {proc.exitcode})"
        job.process = None

    def building(self) -> str | None:
        """The ruleset being built now, if any."""
        with self._lock:
            jobs = list(self._jobs.items())
        for key, job in jobs:
            self._poll(job)
            if job.state == "building":
                return key
        return None

    def start_build(
        self,
        rules: AnyRules,
        allowed: bool | None = None,
        run: Callable[[Callable[[], None]], None] | None = None,
    ) -> s.TableOut:
        """Start building a table in a separate process (one build at a time); idempotent
        for the table being built. `allowed` overrides the server's --allow-builds; `run`
        (for embedding and tests) runs the build in this process instead: run(work)."""
        if not (self.allow_builds if allowed is None else allowed):
            raise BuildsNotAllowedError(
                "table builds from the web are off on this server (start it with "
                "--allow-builds, or build with `boardlab solve` on the server)"
            )
        status = self.table_status(rules)
        if status.state not in ("missing", "failed", "damaged"):
            return status
        if not status.buildable:
            raise BuildsNotAllowedError(
                f"this table takes about {status.estimate_s or 0:,.0f} s to build here, too long "
                f"for the page: build it with `{status.commands[0]}` or install it with "
                f"`{status.commands[1]}`"
            )
        key = rules_key(rules)
        other = self.building()
        if other is not None and other != key:
            raise BuildBusyError(f"another table is being built ({other}); try again later")
        if run is not None:
            return self._build_here(rules, run)
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        counters = ctx.Array("q", 3, lock=False)
        message = ctx.Array("c", BUILD_MESSAGE_BYTES, lock=False)
        job = TableJob(counters=counters, failure=message)
        self._forget_table(rules)
        proc = ctx.Process(
            target=_build_process,
            args=(
                rules.game,
                rules.variant,
                rules.size,
                str(self.tables.folder),
                counters,
                message,
                os.getpid(),
            ),
            name=f"boardlab-build-{key}",
            daemon=True,
        )
        with self._lock:
            self._jobs[key] = job
        with sigint_blocked():  # Ctrl-C is the server's to handle: it stops the build
            proc.start()
        job.process = proc
        return self.table_status(rules)

    def _build_here(self, rules: AnyRules, run: Callable[[Callable[[], None]], None]) -> s.TableOut:
        """The build in this process, through the table store, with the same job record."""
        key = rules_key(rules)
        job = TableJob(phase="solving")
        with self._lock:
            self._jobs[key] = job
        self._forget_table(rules)

        def slices(done: int, total: int) -> None:
            job.done, job.total = int(done), int(total)

        def blocks(done: int, total: int) -> None:
            job.phase = "writing" if done < total else "opening"
            job.done, job.total = int(done), int(total)

        def work() -> None:
            try:
                self.tables.build(rules, on_progress=slices, on_blocks=blocks)
            except Exception as exc:
                job.state, job.message = "failed", hide_paths(" ".join(str(exc).split()))
            else:
                job.state = "ready"

        run(work)
        return self.table_status(rules)

    def cancel_build(self, rules: AnyRules) -> s.TableOut:
        """Stop the build of these rules' table (its whole process group)."""
        key = rules_key(rules)
        with self._lock:
            job = self._jobs.get(key)
        if job is not None and job.state == "building" and job.process is not None:
            job.state = "failed"
            job.message = "the build was cancelled"
            _kill_group(job.process)
            job.process = None
        return self.table_status(rules)

    def close(self) -> None:
        """Stop any build and close open tables (server shutdown)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if job.process is not None:
                _kill_group(job.process)
        self.tables.forget()

    # -- analysis --------------------------------------------------------------------------
    def analysis(self, spec: s.GameSpec) -> s.AnalysisOut:
        """Values of the position, of every legal move and of every position of the game."""
        rules, session = replay(spec)
        try:
            return self._analysis(rules, session)
        except CorruptTableError:
            self._forget_table(rules)  # the next request opens the file again
            raise

    def _analysis(self, rules: AnyRules, session: Session) -> s.AnalysisOut:
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
