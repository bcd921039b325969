"""The public solver API: where tables live, opening and building them, probing, analysis."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from boardlab.core.errors import (
    BoardLabError,
    CorruptTableError,
    MissingTableError,
    NotationError,
)
from boardlab.core.outcome import Value
from boardlab.games.dodgem.notation import DodgemMove, DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.solver.build import CodeOverflow, check_supported, count_codes, solve_to_workdir
from boardlab.solver.index import IndexScheme, geometry_rules, scheme_for
from boardlab.solver.tablefile import TableFile, write_table

T = TypeVar("T")
ENV_VAR = "BOARDLAB_TABLES"


def default_tables_dir() -> Path:
    """$BOARDLAB_TABLES if set, else the user data dir's `tables` folder."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("boardlab")) / "tables"


def solvable(rules: DodgemRules) -> bool:
    """True when the solver can build a complete table for these rules."""
    if not isinstance(rules, DodgemRules):
        return False
    try:
        check_supported(rules)
    except BoardLabError:
        return False
    return True


def table_path(rules: DodgemRules, tables: Path | None = None) -> Path:
    """File name of the table of a ruleset."""
    return (tables or default_tables_dir()) / f"{rules.ruleset_id()}.bltb"


def rebuild_command(rules: DodgemRules) -> str:
    """The command line that (re)builds the table of a ruleset."""
    variant = rules.variant
    parts = ["boardlab solve --game dodgem"]
    if variant not in ("classic", "custom"):
        parts.append(f"--variant {variant}")
    parts.append(f"--size {rules.size} --force")
    return " ".join(parts)


def decode(code: int) -> tuple[Value, int | None]:
    """A stored code as (value for the side to move, remoteness)."""
    if code == 1:
        return Value.DRAW, None
    if code < 1:
        raise ValueError("invalid entry")
    return (Value.LOSS if code & 1 else Value.WIN), (code - 2) // 2


@dataclass(frozen=True, slots=True)
class MoveEval:
    """A legal move, its value for the player making it, and plies to the end (None: draw)."""

    move: DodgemMove
    value: Value
    remoteness: int | None


class Tablebase:
    """A complete, opened table of one ruleset: value and remoteness of every position."""

    def __init__(self, rules: DodgemRules, path: Path) -> None:
        self.rules = rules
        self.path = path
        self.file = TableFile(path, rebuild_command(rules))
        h = self.file.header
        want = expected_header(rules)
        for k, v in want.items():
            if h.get(k) != v:
                self.file.close()
                raise CorruptTableError(
                    f"{path}: made for {k}={h.get(k)!r}, not {v!r}; rebuild it with: "
                    f"{rebuild_command(rules)}"
                )
        self.scheme: IndexScheme = scheme_for(geometry_rules(rules))
        if self.file.entries != self.scheme.total:
            self.file.close()
            raise CorruptTableError(
                f"{path}: {self.file.entries} entries, expected {self.scheme.total}; rebuild it "
                f"with: {rebuild_command(rules)}"
            )

    @property
    def header(self) -> dict[str, Any]:
        """The file header (ruleset, counts, checksums...)."""
        return self.file.header

    def index(self, position: DodgemPosition) -> int:
        """Position index; NotationError (a ValueError) for a position of another board."""
        if position.size != self.rules.size or position.letters != self.rules.letters:
            raise NotationError(
                f"{position} is not a position of {self.rules.size}×{self.rules.size} "
                f"{self.rules.geometry} Dodgem"
            )
        try:
            return self.scheme.index(position)
        except KeyError:
            raise NotationError(f"{position} has too many cars for this board") from None

    def probe(self, position: DodgemPosition) -> tuple[Value, int | None]:
        """Value for the side to move and remoteness (None for a draw)."""
        code = self.file.code(self.index(position))
        if code == 0:
            raise CorruptTableError(
                f"{self.path}: no entry for {position}; rebuild it with: "
                f"{rebuild_command(self.rules)}"
            )
        return decode(code)

    def get(
        self, position: DodgemPosition, default: T | None = None
    ) -> tuple[Value, int | None] | T | None:
        """Like probe, but `default` for a position the table cannot hold (damage still raises)."""
        try:
            return self.probe(position)
        except NotationError:
            return default

    def codes(self) -> np.ndarray[Any, np.dtype[np.uint16]]:
        """The whole code array (decompressed; 5×5 needs about 1 GB)."""
        return self.file.codes(0, self.file.entries)

    def close(self) -> None:
        """Release the file."""
        self.file.close()


def expected_header(rules: DodgemRules) -> dict[str, Any]:
    """Header fields that must match for a table to be used with `rules`."""
    return {
        "game": "dodgem",
        "ruleset": rules.ruleset_id(),
        "options": dict(rules.options()),
    }


def open_table(rules: DodgemRules, tables: Path | None = None) -> Tablebase:
    """Open a built table; MissingTableError if absent, CorruptTableError if unusable."""
    check_supported(rules)
    path = table_path(rules, tables)
    if not path.exists():
        raise MissingTableError(
            f"no tablebase for {rules.ruleset_id()} in {path.parent}; build it with: "
            f"{rebuild_command(rules).removesuffix(' --force')}"
        )
    return Tablebase(rules, path)


def build_table(
    rules: DodgemRules,
    tables: Path | None = None,
    jobs: int = 1,
    on_slices: Callable[[int, int, int], None] | None = None,
    on_blocks: Callable[[int, int], None] | None = None,
) -> Path:
    """Solve (resuming any work dir) and write the table file; returns its path."""
    check_supported(rules)
    path = table_path(rules, tables)
    work = path.parent / "work" / rules.ruleset_id()
    work.mkdir(parents=True, exist_ok=True)
    try:
        table = solve_to_workdir(rules, work, jobs=jobs, on_progress=on_slices)
    except CodeOverflow:
        table = solve_to_workdir(rules, work / "wide", jobs=jobs, on_progress=on_slices)
    codes = table.view(np.ndarray)
    counts = count_codes(codes)
    wins = int(counts[2::2].sum())
    losses = int(counts[3::2].sum())
    header = expected_header(rules)
    header.update(
        positions=int(wins + losses + counts[1]),
        win=wins,
        loss=losses,
        draw=int(counts[1]),
        max_remoteness=int((len(counts) - 3) // 2),
        size=rules.size,
    )
    write_table(path, codes, header, on_block=on_blocks)
    del codes, table
    shutil.rmtree(work, ignore_errors=True)
    with contextlib.suppress(OSError):
        (path.parent / "work").rmdir()
    return path


def ensure_table(
    rules: DodgemRules,
    tables: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    jobs: int | None = None,
    on_blocks: Callable[[int, int], None] | None = None,
) -> Tablebase:
    """Open the table, building it first if missing (`on_progress(done, total)` per slice,
    `on_blocks(done, total)` per block of the file written)."""
    try:
        return open_table(rules, tables)
    except MissingTableError:
        pass
    njobs = jobs if jobs is not None else default_jobs(rules)
    run_build(rules, tables, njobs, on_progress, on_blocks=on_blocks)
    return open_table(rules, tables)


def default_jobs(rules: DodgemRules) -> int:
    """Worker processes for a build: 1 below 5×5, else the cores, at most 2."""
    return 1 if rules.size < 5 else min(2, os.cpu_count() or 1)


def run_build(
    rules: DodgemRules,
    tables: Path | None,
    jobs: int,
    on_progress: Callable[[int, int], None] | None = None,
    on_slices: Callable[[int, int, int], None] | None = None,
    on_blocks: Callable[[int, int], None] | None = None,
) -> Path:
    """Build a table, reporting solved slices as `on_progress(done, total)` and as
    `on_slices(done, total, positions)`, and written blocks as `on_blocks(done, total)`.
    Drawing progress is the caller's business (the CLI's bars, the web app's poll)."""

    def slices(done: int, total: int, positions: int) -> None:
        if on_progress is not None:
            on_progress(done, total)
        if on_slices is not None:
            on_slices(done, total, positions)

    return build_table(rules, tables, jobs, on_slices=slices, on_blocks=on_blocks)


def analyse(rules: DodgemRules, table: Tablebase, position: DodgemPosition) -> list[MoveEval]:
    """Every legal move with its value for the mover, best first (fastest win ... slowest loss)."""
    out = []
    for move in rules.legal_moves(position):
        child = rules.play(position, move)
        value, rem = table.probe(child)
        out.append(MoveEval(move, value.flipped(), None if rem is None else rem + 1))
    out.sort(key=_move_order)
    return out


def _move_order(e: MoveEval) -> tuple[int, int]:
    if e.value is Value.WIN:
        return (0, e.remoteness or 0)
    if e.value is Value.DRAW:
        return (1, 0)
    return (2, -(e.remoteness or 0))
