"""`TableStore`: the folder of complete tables, the tables open in it, and the builds under way.

One store is made by whoever runs BoardLab (a CLI command from its `--tables` option, the web
app at start) and handed to everything that reads tables: the computer players, forced
results, the web service. Nothing finds tables through the environment at run time; the
user's `$BOARDLAB_TABLES` only chooses the default folder.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardLabError, CorruptTableError, MissingTableError
from boardlab.core.outcome import Value
from boardlab.core.registry import AnyRules, GameInfo, games, get_game
from boardlab.solver import api

AUTO_BUILD_MAX_SIZE = 4
"""Boards up to this size build their tables on the spot when a player or a command needs
one (seconds); larger ones are built only on request (`boardlab solve`, the web app's button)."""

Progress = Callable[[int, int], None]

BUNDLED_TABLES = Path(__file__).resolve().parents[1] / "data" / "tables"
"""Tables shipped inside the package (the small classic boards, a few hundred kB), so that
level 4, analysis and puzzles are ready on a fresh machine. They are never opened or written
in place: the first use installs one into the user's folder through `boardlab tables
install`'s checked path (every pack's checksum and the published digest)."""


def bundled_table(ruleset: str, bundled: Path | None = None) -> Path | None:
    """The shipped table folder of a ruleset, or None when the package has none."""
    folder = (bundled if bundled is not None else BUNDLED_TABLES) / ruleset
    return folder if (folder / "manifest.json").is_file() else None


@dataclass
class BuildProgress:
    """A build in this store: `building`, `ready` or `failed`, with slices done and total."""

    state: str = "building"
    done: int = 0
    total: int = 0
    message: str | None = None


def tables_help() -> str:
    """The games with tables and what the solver covers of each, for help texts: e.g.
    'Dodgem classic, blocked-loses, misere on 3×3 to 5×5'."""
    parts = [f"{info.title} {coverage(info)}" for info in games().values() if coverage(info)]
    return "; ".join(parts) or "none"


def rules_key(rules: AnyRules) -> str:
    """A text key for a ruleset: game plus every option."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(rules.options().items()))
    return f"{rules.game}:{opts}"


def solver_view(rules: AnyRules) -> Any | None:
    """What the solver builds and reads the tables of `rules` through: the game's declared
    `GameInfo.solver_adapter` applied to them, or None when the game has none or the adapter
    does not cover these rules. This is the one place the table code learns about a game."""
    adapter = get_game(rules.game).solver_adapter
    return None if adapter is None else adapter(rules)


def _solver_rules(rules: AnyRules) -> Any:
    """The solver's view of rules it covers; MissingTableError where it has none."""
    view = solver_view(rules)
    if view is None:
        raise MissingTableError(f"the solver has no tables for {rules.game} {rules.variant}")
    return view


@functools.lru_cache(maxsize=32)
def coverage(info: GameInfo) -> str:
    """Which of a game's declared variants and sizes the solver covers, for help texts and
    messages: e.g. 'classic, blocked-loses, misere on 3×3 to 5×5' ('' for none)."""
    if info.solver_adapter is None:
        return ""
    by_sizes: dict[tuple[int, ...], list[str]] = {}
    for v in info.variants:
        sizes: list[int] = []
        for n in v.sizes:
            view = info.solver_adapter(info.rules(v.name, n))
            if view is not None and api.solvable(view):
                sizes.append(n)
        if sizes:
            by_sizes.setdefault(tuple(sizes), []).append(v.name)
    parts = []
    for covered, names in by_sizes.items():
        lo, hi = min(covered), max(covered)
        span = f"{lo}×{lo}" if lo == hi else f"{lo}×{lo} to {hi}×{hi}"
        if list(covered) != list(range(lo, hi + 1)):
            span = ", ".join(f"{n}×{n}" for n in covered)
        parts.append(f"{', '.join(names)} on {span}")
    return "; ".join(parts)


class TableStore:
    """Complete tables in one folder: opened once and shared, built one at a time."""

    def __init__(self, folder: Path | None = None, bundled: Path | bool | None = True) -> None:
        self.folder = folder if folder is not None else api.default_tables_dir()
        # shipped tables to install from on first use: True for the package's (as
        # `BUNDLED_TABLES` says when the store is made), None or False for none
        if bundled is True:
            bundled = BUNDLED_TABLES
        self.bundled: Path | None = bundled or None
        self._open: dict[str, Any] = {}
        self._jobs: dict[str, BuildProgress] = {}
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TableStore({str(self.folder)!r})"

    # -- facts -----------------------------------------------------------------------------
    def solvable(self, rules: AnyRules) -> bool:
        """True when the game's solver adapter covers these rules and the solver can build
        their table."""
        view = solver_view(rules)
        return view is not None and api.solvable(view)

    def coverage(self, game: str) -> str:
        """Which declared variants and sizes of a game the solver covers, for messages:
        e.g. 'classic, blocked-loses, misere on 3×3 to 5×5' ('' for none)."""
        return coverage(get_game(game))

    def unsolvable_reason(self, rules: AnyRules) -> str | None:
        """None when the solver can build the table of these rules, else a one-line reason
        naming what it does cover."""
        if self.solvable(rules):
            return None
        info = get_game(rules.game)
        covered = self.coverage(rules.game)
        if not covered:
            return f"the solver has no tables for {info.title}"
        n = rules.size
        return (
            f"the solver has no table for {info.title} {rules.variant} on {n}×{n}: it covers "
            f"{info.title} {covered}"
        )

    def builds_automatically(self, rules: AnyRules) -> bool:
        """True when a missing table of these rules is built on the spot (small boards)."""
        return rules.size <= AUTO_BUILD_MAX_SIZE and self.solvable(rules)

    def path(self, rules: AnyRules) -> Path:
        """Where the table of these rules lives (or would)."""
        return api.table_path(_solver_rules(rules), self.folder)

    def built(self, rules: AnyRules) -> bool:
        """True when complete tables of these rules are in the folder (a solve under way or
        stopped leaves an incomplete folder: not built)."""
        if not self.solvable(rules):
            return False
        from boardlab.solver.folder import read_manifest

        try:
            manifest = read_manifest(self.path(rules))
        except CorruptTableError:
            return False
        if manifest and manifest.get("complete"):
            return True
        return self._shipped(rules) is not None

    # -- opening ---------------------------------------------------------------------------
    def is_open(self, rules: AnyRules) -> bool:
        """True when the table is open in this store."""
        with self._lock:
            return rules_key(rules) in self._open

    def open(self, rules: AnyRules) -> Any:
        """The open table (opened on first use); MissingTableError if it is not built,
        CorruptTableError if it is unusable."""
        key = rules_key(rules)
        with self._lock:
            table = self._open.get(key)
        if table is not None:
            return table
        if not self.solvable(rules):
            raise MissingTableError(f"the solver has no tables for {rules.game} {rules.variant}")
        try:
            table = api.open_table(_solver_rules(rules), self.folder)
        except MissingTableError:
            if not self._install_shipped(rules):
                raise
            table = api.open_table(_solver_rules(rules), self.folder)
        with self._lock:
            return self._open.setdefault(key, table)

    def _shipped(self, rules: AnyRules) -> Path | None:
        """The package's copy of this table, if it ships one."""
        if self.bundled is None or not self.solvable(rules):
            return None
        return bundled_table(api.ruleset_id(_solver_rules(rules)), self.bundled)

    def _install_shipped(self, rules: AnyRules) -> bool:
        """Install the package's copy of this table into the folder, checked as `boardlab
        tables install` checks any table; False when there is none or it cannot be
        installed (a read-only folder, a damaged copy): the table is then missing as before."""
        source = self._shipped(rules)
        if source is None:
            return False
        from boardlab.solver.folder import read_manifest
        from boardlab.solver.install import FolderSource, install

        with self._build_lock:  # one install or build at a time: they share a staging folder
            present = read_manifest(self.path(rules))
            if present is not None and present.get("complete"):
                return True  # another thread installed it meanwhile
            try:
                install(FolderSource(source), self.folder, expect_ruleset=source.name, force=True)
            except (BoardLabError, OSError):
                return False
        return True

    def get(self, rules: AnyRules, build: bool = False) -> Any | None:
        """The open table, or None when there is none (building it first when `build` is
        set and the board builds automatically). Never raises for a missing or unusable
        table: players fall back to search."""
        try:
            if not self.solvable(rules):
                return None
            try:
                return self.open(rules)
            except MissingTableError:
                if not build or not self.builds_automatically(rules):
                    return None
                return self.build(rules)
        except (BoardLabError, OSError):
            return None

    def probe(self, rules: AnyRules, position: Any) -> tuple[Value, int | None] | None:
        """(value, remoteness) for the side to move from an open table (never builds one),
        or None when no table is open or can be opened."""
        table = self.get(rules)
        if table is None:
            return None
        value, remoteness = table.probe(position)
        return Value(value), remoteness

    # -- building --------------------------------------------------------------------------
    def build(
        self,
        rules: AnyRules,
        on_progress: Progress | None = None,
        jobs: int | None = None,
        on_blocks: Progress | None = None,
    ) -> Any:
        """Build the table unless it exists (one build at a time per store), then open it.
        Progress is recorded for `progress()` and passed to `on_progress`."""
        key = rules_key(rules)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.state != "building":
                job = self._jobs[key] = BuildProgress()

        def progress(done: int, total: int) -> None:
            job.done, job.total = int(done), int(total)
            if on_progress is not None:
                on_progress(done, total)

        try:
            with self._build_lock:
                api.ensure_table(
                    _solver_rules(rules),
                    self.folder,
                    on_progress=progress,
                    jobs=jobs,
                    on_blocks=on_blocks,
                )
            table = self.open(rules)
        except Exception as exc:
            job.state = "failed"
            job.message = " ".join(str(exc).split()) or exc.__class__.__name__
            raise
        job.state = "ready"
        return table

    def start_progress(self, rules: AnyRules) -> BuildProgress | None:
        """Mark a build as about to start (so a poll sees it at once); None if one runs."""
        key = rules_key(rules)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state == "building":
                return None
            job = self._jobs[key] = BuildProgress()
            return job

    def progress(self, rules: AnyRules) -> BuildProgress | None:
        """The latest build of these rules in this store, if any."""
        with self._lock:
            return self._jobs.get(rules_key(rules))

    def forget(self, rules: AnyRules | None = None) -> None:
        """Close every open table, or only that of `rules` (found damaged, say); they are
        opened again on next use."""
        with self._lock:
            if rules is None:
                tables, self._open = list(self._open.values()), {}
            else:
                table = self._open.pop(rules_key(rules), None)
                tables = [] if table is None else [table]
        for t in tables:
            close = getattr(t, "close", None)
            if close is not None:
                close()
