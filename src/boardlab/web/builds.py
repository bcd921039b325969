"""The tables as the page sees them: ready, missing, building (with progress and phase),
failed, damaged or unsolvable, what a build would cost, and the builds started from the page
(one at a time, in a process of their own, or in this process for embedding and tests). The
tables themselves are the `TableStore`'s."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardlab.core.errors import BoardLabError, CorruptTableError, MissingTableError
from boardlab.core.registry import AnyRules, get_game
from boardlab.solver.store import TableStore, rules_key, solver_view
from boardlab.web import schemas as s
from boardlab.web.limits import sigint_blocked
from boardlab.web.processes import BUILD_MESSAGE_BYTES, build_process, kill_group
from boardlab.web.security import hide_paths


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


# Seconds a table takes to build from the page on a 2-core machine, rounded up: the page
# says this before a build starts, then the time left from the build's own pace. A 5×5
# build from the page took 96 s (a fresh process that also loads its compiled kernels, on a
# server that is warming up), far more than the solve alone (README: about 14 s).
BUILD_ESTIMATE_S = {3: 1.0, 4: 1.0, 5: 100.0}


class TableBuilds:
    """The state of the tables of one `TableStore` and of the builds started from the page."""

    def __init__(self, tables: TableStore, *, allow_builds: bool = False) -> None:
        self.tables = tables
        self.allow_builds = allow_builds
        self._lock = threading.Lock()
        self._jobs: dict[str, TableJob] = {}

    def forget_table(self, rules: AnyRules) -> None:
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
        self.forget_table(rules)
        proc = ctx.Process(
            target=build_process,
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
        self.forget_table(rules)

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
            kill_group(job.process)
            job.process = None
        return self.table_status(rules)

    def close(self) -> None:
        """Stop any build and close open tables (server shutdown)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if job.process is not None:
                kill_group(job.process)
        self.tables.forget()
