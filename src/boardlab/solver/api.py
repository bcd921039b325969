"""The public solver API: where tables live, building and opening them, probing, analysis.

The solver knows a game only through its tier adapter (`GameInfo.solver_adapter`, see
`boardlab.core.tiers`). A ruleset's tables are the folder `<tables>/<ruleset id>/`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from boardlab.core.errors import CorruptTableError, MissingTableError, UnknownGameError
from boardlab.core.outcome import Value
from boardlab.core.tiers import TierGame
from boardlab.solver.engine import DEFAULT_BUDGET, solve_game
from boardlab.solver.folder import pack_path, read_manifest, table_files_present
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import DEFAULT_CODEC, PackFile

T = TypeVar("T")
ENV_VAR = "BOARDLAB_TABLES"
OPEN_FILES = 64
EAGER_PACKS = 4096  # tables of up to this many packs have every pack checked when opened


def default_tables_dir() -> Path:
    """$BOARDLAB_TABLES if set, else the user data dir's `tables` folder."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("boardlab")) / "tables"


def tier_game(rules: Any) -> TierGame | None:
    """The tier adapter of a ruleset, or None when its game declares none for it."""
    from boardlab.core.registry import get_game

    try:
        info = get_game(str(getattr(rules, "game", "")))
    except UnknownGameError:
        return None
    adapter: Callable[[Any], TierGame | None] | None = getattr(info, "solver_adapter", None)
    return adapter(rules) if adapter is not None else None


def _is_tier_game(obj: Any) -> bool:
    return hasattr(obj, "tier_context") and hasattr(obj, "ruleset_id")


def require_game(rules: Any) -> TierGame:
    """The tier adapter of a ruleset (or the adapter itself, as `TableStore` hands it over);
    UnknownGameError when the solver cannot solve it."""
    if _is_tier_game(rules):
        made: TierGame = rules
        return made
    game = tier_game(rules)
    if game is None:
        rid = rules.ruleset_id() if hasattr(rules, "ruleset_id") else rules_text(rules)
        raise UnknownGameError(
            f"no tablebase for {rid}: the solver covers Dodgem (classic, blocked-loses, misere, "
            "piecepack) on 3×3 to 6×6 boards"
        )
    return game


def rules_text(rules: Any) -> str:
    """A short name of rules without a ruleset id: game, variant and size."""
    parts = (getattr(rules, name, "") for name in ("game", "variant", "size"))
    return " ".join(str(p) for p in parts if p != "")


def solvable(rules: Any) -> bool:
    """True when the solver can build complete tables for these rules (or tier adapter)."""
    return _is_tier_game(rules) or tier_game(rules) is not None


def ruleset_id(rules: Any) -> str:
    """The ruleset id of rules or of a tier adapter."""
    return str(require_game(rules).ruleset_id)


def table_path(rules: Any, tables: Path | None = None) -> Path:
    """The tables folder of a ruleset."""
    return (tables or default_tables_dir()) / ruleset_id(rules)


def rebuild_command(rules: Any) -> str:
    """The command line that (re)builds the tables of a ruleset."""
    return str(require_game(rules).rebuild_command)


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

    move: Any
    value: Value
    remoteness: int | None


class Tablebase:
    """The complete tables of one ruleset: value and remoteness of every position."""

    def __init__(self, rules: Any, path: Path) -> None:
        self.rules = getattr(rules, "rules", rules) if _is_tier_game(rules) else rules
        self.path = path
        self.game = require_game(rules)
        hint = self.game.rebuild_command
        manifest = read_manifest(path, hint)
        if manifest is None or not manifest.get("complete"):
            raise CorruptTableError(f"{path}: the tables are not complete; build them with: {hint}")
        if manifest.get("spec") != self.game.spec():
            raise CorruptTableError(
                f"{path}: made for other rules ({manifest.get('ruleset')}); rebuild them with: "
                f"{hint} --force"
            )
        self.manifest = manifest
        self._pack_of: dict[int, str] = {
            int(t): name for name, tiers in manifest["pack_tiers"].items() for t in tiers
        }
        self._files: OrderedDict[str, PackFile] = OrderedDict()
        self._lock = threading.Lock()
        names = list(manifest["pack_tiers"])
        if len(names) <= EAGER_PACKS:  # a missing, short or foreign pack: refused now
            for name in names:
                self.pack(name)
        else:  # 6×6: a missing pack is refused now, a damaged one when first read
            try:
                present = {e.name for e in os.scandir(path / "packs")}
            except OSError as exc:
                raise CorruptTableError(f"{path}: cannot read the packs ({exc})") from None
            for name in names:
                if pack_path(path, name).name not in present:
                    raise CorruptTableError(
                        f"{path}: pack {name} is missing; rebuild it with: {hint}"
                    )

    @property
    def header(self) -> dict[str, Any]:
        """Totals and identity of the tables (the manifest)."""
        return self.manifest

    def pack(self, name: str) -> PackFile:
        """An open pack file (a few are kept open)."""
        with self._lock:
            pf = self._files.get(name)
            if pf is not None:
                self._files.move_to_end(name)
                return pf
            pf = PackFile(pack_path(self.path, name), self.game.rebuild_command + " --force")
            self._files[name] = pf
            if len(self._files) > OPEN_FILES:
                self._files.popitem(last=False)[1].close()
            return pf

    def pack_of(self, tier: int) -> str:
        """Name of the pack holding a tier."""
        return str(self._pack_of[tier])

    def code(self, tier: int, index: int) -> int:
        """Stored code of a canonical (tier, index)."""
        try:
            name = self._pack_of[tier]
        except KeyError:
            raise CorruptTableError(
                f"{self.path}: no pack holds tier {tier}; rebuild them with: "
                f"{self.game.rebuild_command} --force"
            ) from None
        return self.pack(name).code(tier, index)

    def probe(self, position: Any) -> tuple[Value, int | None]:
        """Value for the side to move and remoteness (None for a draw)."""
        tier, index = self.game.locate(position)
        code = self.code(tier, index)
        if code == 0:
            raise CorruptTableError(
                f"{self.path}: no entry for {position}; rebuild them with: "
                f"{self.game.rebuild_command} --force"
            )
        return decode(code)

    def get(self, position: Any, default: T | None = None) -> tuple[Value, int | None] | T | None:
        """Like probe, but `default` for a position the table cannot hold (damage still raises)."""
        from boardlab.core.errors import NotationError

        try:
            return self.probe(position)
        except NotationError:
            return default

    def check(self, on_pack: Callable[[int, int], None] | None = None) -> None:
        """Verify every pack's checksums (every byte); raises CorruptTableError."""
        names = sorted(self.manifest["pack_tiers"])
        for i, name in enumerate(names):
            pf = PackFile(pack_path(self.path, name), self.game.rebuild_command + " --force")
            try:
                pf.check()
            finally:
                pf.close()
            if on_pack:
                on_pack(i + 1, len(names))

    def close(self) -> None:
        """Release the files."""
        with self._lock:
            for pf in self._files.values():
                pf.close()
            self._files.clear()


def open_table(rules: Any, tables: Path | None = None) -> Tablebase:
    """Open built tables; MissingTableError if absent, CorruptTableError if unusable."""
    game = require_game(rules)
    path = table_path(rules, tables)
    manifest = read_manifest(path, game.rebuild_command)
    if manifest is None and table_files_present(path):
        raise CorruptTableError(
            f"table damaged: {path.name}: its manifest is missing; rebuild it with: "
            f"{game.rebuild_command} --force"
        )
    if manifest is None or not manifest.get("complete"):
        raise MissingTableError(
            f"no tablebase for {ruleset_id(rules)} in {path.parent}; build it with: "
            f"{game.rebuild_command}"
        )
    return Tablebase(rules, path)


def build_table(
    rules: Any,
    tables: Path | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    budget: int = DEFAULT_BUDGET,
    codec: str = DEFAULT_CODEC,
    on_progress: Callable[[int, int, int, int, int], None] | None = None,
    on_dashboard: Callable[[str], None] | None = None,
    timings: dict[str, float] | None = None,
) -> Path:
    """Solve whatever is not yet solved and complete the manifest; returns the folder
    (`timings`: see `boardlab.solver.engine.solve_game`)."""
    game = require_game(rules)
    path = table_path(rules, tables)
    solve_game(game, path, workers, scheduler, budget, codec, on_progress, on_dashboard, timings)
    return path


def ensure_table(
    rules: Any,
    tables: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    jobs: int | None = None,
    on_blocks: Callable[[int, int], None] | None = None,
) -> Tablebase:
    """Open the tables, building them first if missing (`on_progress(positions done, all)`;
    `on_blocks(1, 1)` once every pack file is on disk: they are written as tiers are solved)."""
    try:
        return open_table(rules, tables)
    except MissingTableError:
        pass
    njobs = jobs if jobs is not None else default_jobs(rules)
    run_build(rules, tables, njobs, on_progress, on_blocks=on_blocks)
    return open_table(rules, tables)


def default_jobs(rules: Any) -> int:
    """Workers for a build: 1 (no cluster) up to 4×4, whose solve takes less time than a
    local cluster takes to start; else the number of cores."""
    size = int(getattr(getattr(rules, "rules", rules), "size", 0))
    return 1 if size <= 4 else (os.cpu_count() or 1)


LevelProgress = Callable[[int, int, int, int, int], None]
"""(level, packs done in it, its packs, positions done, all positions)"""


def run_build(
    rules: Any,
    tables: Path | None,
    jobs: int,
    on_progress: Callable[[int, int], None] | None = None,
    scheduler: str | None = None,
    budget: int = DEFAULT_BUDGET,
    codec: str = DEFAULT_CODEC,
    on_levels: LevelProgress | None = None,
    on_dashboard: Callable[[str], None] | None = None,
    on_blocks: Callable[[int, int], None] | None = None,
    timings: dict[str, float] | None = None,
) -> Path:
    """Build the tables, reporting `on_progress(positions done, all)` and per level
    `on_levels(...)`; drawing progress is the caller's business (the CLI's bars, the web
    app's poll). `timings` gets the seconds of each phase (`engine.PHASES`)."""

    def levels(level: int, done: int, packs: int, positions: int, total: int) -> None:
        if on_progress is not None:
            on_progress(positions, total)
        if on_levels is not None:
            on_levels(level, done, packs, positions, total)

    path = build_table(rules, tables, jobs, scheduler, budget, codec, levels, on_dashboard, timings)
    if on_blocks is not None:
        on_blocks(1, 1)  # every pack file is written (as its tiers were solved)
    return path


def plan_summary(rules: Any) -> dict[str, int]:
    """Levels, tiers, packs and indexed positions of a ruleset's plan."""
    plan = make_plan(require_game(rules))
    return {
        "levels": len(plan.levels),
        "tiers": len(plan.pack_of),
        "packs": len(plan.packs),
        "positions": plan.positions,
    }


def analyse(rules: Any, table: Tablebase, position: Any) -> list[MoveEval]:
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
