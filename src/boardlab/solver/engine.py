"""The out-of-core tier solver: plan, solve packs of tiers, resume, and drive the levels.

A game's tables live in one folder: `manifest.json` (the ruleset, the plan, and once done the
totals) and one pack file per group of tiers (`packs/L<level>-<first tier>.bltier`). The
plan is a pure function of the game: a tier's level is one more than its deepest child's, and
the tiers of a level, by id, are grouped into packs of about PACK_POSITIONS positions (a big
tier is a pack of its own). Packs of a level depend only on packs of lower levels, so they
can be solved in any order, on any number of workers, and the files come out the same.

A pack whose file is valid is never solved again: that is the whole resume logic. Memory:
a worker holds the tier it solves (about BYTES_PER_POSITION each, and a copy of its children
side by side) and an LRU cache of decompressed child tiers (2 bytes per position) that gives
way to it: together they stay within the worker's share of the memory budget, unless one
tier alone needs more. A solve in this process (no scheduler) first takes off the budget
what the process already holds (interpreter, libraries, the plan and the game's tables), so
that the budget bounds the whole process.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from boardlab.core.errors import BoardLabError, CorruptTableError
from boardlab.core.retrograde import (
    BAD_CHILD,
    NO_MOVES,
    TOO_BIG,
    TOO_DEEP,
    Stamp,
    add_time,
    pooled_work,
    release_work,
    run_solve,
    side_by_side,
    stamp,
)
from boardlab.core.tiers import TierGame, tier_game_from_spec
from boardlab.solver.tierfile import DEFAULT_CODEC, SUFFIX, PackFile, read_header, write_pack

PACK_POSITIONS = 1 << 21
PACK_TIERS = 4096
BYTES_PER_POSITION = 24  # kernel work arrays while a tier is solved (codes included)
MANIFEST = "manifest.json"
GiB = 1 << 30
DEFAULT_BUDGET = 12 * GiB
MIN_BUDGET = 64 << 20  # left for tiers when the process already holds the whole budget
OPEN_PACKS = 64  # pack files a worker keeps open


class SolveError(BoardLabError):
    """The solver found the game's declarations or its own state inconsistent."""


@dataclass(frozen=True)
class Pack:
    """A group of tiers of one level, solved and stored together."""

    name: str
    level: int
    tiers: tuple[int, ...]
    positions: int
    largest: int  # positions of its largest tier


@dataclass(frozen=True)
class Plan:
    """Every pack, level by level (children first), and which pack holds each tier."""

    levels: tuple[tuple[Pack, ...], ...]
    pack_of: dict[int, str]

    @property
    def packs(self) -> list[Pack]:
        """All packs in solve order."""
        return [p for lv in self.levels for p in lv]

    @property
    def positions(self) -> int:
        """Positions (indices) of every canonical tier."""
        return sum(p.positions for p in self.packs)


def tier_levels(game: TierGame) -> dict[int, int]:
    """Level of each tier: 0 without children, else one more than its deepest child."""
    level: dict[int, int] = {}
    for root in game.tiers():
        if root in level:
            continue
        stack: list[tuple[int, list[int]]] = [(root, list(game.child_tiers(root)))]
        on_path = {root}
        while stack:
            t, kids = stack[-1]
            while kids and kids[-1] in level:
                kids.pop()
            if kids:
                c = kids.pop()
                if c in on_path:
                    raise SolveError(
                        f"{game.ruleset_id}: tier {game.tier_name(c)} is its own child"
                    )
                on_path.add(c)
                stack.append((c, list(game.child_tiers(c))))
                continue
            stack.pop()
            on_path.discard(t)
            level[t] = 1 + max((level[c] for c in game.child_tiers(t)), default=-1)
    return level


def make_plan(game: TierGame) -> Plan:
    """The deterministic plan of a game (see the module docstring)."""
    levels = tier_levels(game)
    by_level: dict[int, list[int]] = {}
    for t, lv in levels.items():
        by_level.setdefault(lv, []).append(t)
    out: list[tuple[Pack, ...]] = []
    pack_of: dict[int, str] = {}
    for lv in sorted(by_level):
        groups: list[list[int]] = [[]]
        size = 0
        for t in sorted(by_level[lv]):
            n = game.tier_size(t)
            if groups[-1] and (size + n > PACK_POSITIONS or len(groups[-1]) >= PACK_TIERS):
                groups.append([])
                size = 0
            groups[-1].append(t)
            size += n
        packs: list[Pack] = []
        for group in groups:
            sizes = [game.tier_size(t) for t in group]
            name = f"L{lv:03d}-{game.tier_name(group[0])}"
            packs.append(Pack(name, lv, tuple(group), sum(sizes), max(sizes)))
            for t in group:
                pack_of[t] = name
        out.append(tuple(packs))
    return Plan(tuple(out), pack_of)


def resident_bytes() -> int:
    """Memory this process holds now: its resident set (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak) * (1 if sys.platform == "darwin" else 1024)


def pack_path(folder: Path, name: str) -> Path:
    """Where a pack's file lives."""
    return folder / "packs" / f"{name}{SUFFIX}"


# -- solving one pack ---------------------------------------------------------------------------


class ChildCache:
    """Decompressed child tiers (uint16), least recently used dropped beyond `budget` bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[tuple[str, int], npt.NDArray[np.uint16]] = OrderedDict()
        # open pack files, most recently used last: a pack holds many small tiers, and its
        # header (checked in full when opened) is read once, not once per tier
        self._files: OrderedDict[Path, PackFile] = OrderedDict()
        self._lock = threading.Lock()

    def _pack(self, path: Path, hint: str) -> PackFile:
        pf = self._files.get(path)
        if pf is not None:
            self._files.move_to_end(path)
            return pf
        pf = self._files[path] = PackFile(path, hint)
        while len(self._files) > OPEN_PACKS:
            self._files.popitem(last=False)[1].close()
        return pf

    def close(self) -> None:
        """Close the pack files and drop the cached tiers."""
        with self._lock:
            for pf in self._files.values():
                pf.close()
            self._files.clear()
            self._items.clear()
            self.used = 0

    def get(self, folder: Path, tier: int, pack: str, hint: str) -> npt.NDArray[np.uint16]:
        """The codes of a solved tier, from the cache or its pack file."""
        key = self.key(folder, tier)
        with self._lock:
            arr = self._items.get(key)
            if arr is not None:
                self._items.move_to_end(key)
                return arr
        with self._lock:
            arr = self._pack(pack_path(folder, pack), hint).tier_codes(tier)
            self._store(key, arr)
        return arr

    def put(self, folder: Path, tier: int, codes: npt.NDArray[np.uint16]) -> None:
        """Keep the codes of a tier just solved and written (the same that its file holds),
        unless they alone exceed the budget; least recently used tiers make way."""
        if codes.nbytes > self.budget:
            return
        with self._lock:
            self._store(self.key(folder, tier), codes)

    def _store(self, key: tuple[str, int], arr: npt.NDArray[np.uint16]) -> None:
        """Keep `arr` as the most recently used entry, least recently used ones dropped
        beyond the budget (the lock held)."""
        old = self._items.pop(key, None)
        if old is not None:
            self.used -= old.nbytes
        self._items[key] = arr
        self.used += arr.nbytes
        while self.used > self.budget and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.used -= dropped.nbytes

    def make_room(self, extra: int, keep: set[tuple[str, int]]) -> None:
        """Drop least recently used tiers (not those in `keep`) until the cache and `extra`
        more bytes fit in the budget."""
        with self._lock:
            if self.used + extra <= self.budget:
                return
            for key in [k for k in self._items if k not in keep]:
                self.used -= self._items.pop(key).nbytes
                if self.used + extra <= self.budget:
                    break

    def key(self, folder: Path, tier: int) -> tuple[str, int]:
        """The cache key of a tier of a tables folder."""
        return (str(folder), tier)


def release_caches() -> None:
    """Close the cached pack files, drop the cached tiers and the kernel's work arrays of
    this process (the solve and the verifier share them)."""
    for cache in _CACHE.values():
        cache.close()
    _CACHE.clear()
    release_work()


_GAMES: dict[str, TierGame] = {}
_CACHE: dict[str, ChildCache] = {}
_MADE = threading.Lock()  # the solving threads share the games and the cache


def _game(spec: dict[str, Any]) -> TierGame:
    key = json.dumps(spec, sort_keys=True)
    with _MADE:
        game = _GAMES.get(key)
        if game is None:
            game = _GAMES[key] = tier_game_from_spec(spec)
        return game


def child_cache(budget: int) -> ChildCache:
    """This process's cache of child tiers for a memory budget (a new budget drops the old
    cache)."""
    key = str(budget)
    with _MADE:
        cache = _CACHE.get(key)
        if cache is None:
            release_caches()
            cache = _CACHE[key] = ChildCache(budget)
        return cache


def solve_one_tier(
    game: TierGame,
    tier: int,
    children: Sequence[npt.NDArray[np.uint16]],
    work: tuple[npt.NDArray[Any], ...] | None = None,
    timings: dict[str, float] | None = None,
) -> tuple[npt.NDArray[np.uint16], int]:
    """Solve a tier given its children's codes (in `child_tiers` order); (codes, max rem).
    `work`: the kernel's work arrays (`pooled_work`), else the thread's kept ones; `timings`:
    seconds by phase, added to (see `PHASES`)."""
    size = game.tier_size(tier)
    t0 = stamp()
    joined, base = side_by_side(children, np.uint16)
    code = np.zeros(size, np.uint16)
    if timings is not None:
        add_time(timings, "join", t0)
    ctx = game.tier_context(tier)
    res = run_solve(game.kernel, ctx, size, joined, base, code, work, timings)
    if res < 0:
        why = {
            BAD_CHILD: "a move leads to an invalid child entry",
            TOO_DEEP: "remoteness beyond the kernel's limit",
            NO_MOVES: "a position that is not finished has no moves",
            TOO_BIG: "the tier is too big for one kernel call",
        }[res]
        raise SolveError(f"{game.ruleset_id} tier {game.tier_name(tier)}: {why}")
    return code, res


PHASES = {
    "plan": "plan, game tables, packs already done",
    "cluster": "starting, stopping threads or cluster",
    "children": "reading child tiers",
    "join": "child tiers side by side",
    "first pass": "kernel: first pass",
    "propagation": "kernel: propagation",
    "counts": "counting values",
    "write": "compressing and writing packs",
    "python": "Python per tier",
    "idle": "threads idle or scheduling",
}
"""The phases of a solve that `solve_game` times: wall seconds (a pack's phases summed over
the threads that solve packs side by side), and under `phase + " cpu"` processor seconds."""


def solve_in_memory(game: TierGame) -> dict[int, npt.NDArray[np.uint16]]:
    """Codes of every canonical tier, solved in this process without files (small games)."""
    plan = make_plan(game)
    out: dict[int, npt.NDArray[np.uint16]] = {}
    for pack in plan.packs:
        for tier in pack.tiers:
            out[tier] = solve_one_tier(game, tier, [out[c] for c in game.child_tiers(tier)])[0]
    return out


Solved = list[tuple[int, npt.NDArray[np.uint16]]]  # (tier, codes) in the pack's order


def solve_tiers(
    spec: dict[str, Any],
    folder: str,
    tiers: Sequence[int],
    largest: int,
    pack_of: dict[int, str],
    memory: int,
    timings: dict[str, float],
) -> tuple[Solved, npt.NDArray[np.int64]]:
    """Solve some tiers of one level, in order: their codes and their weighted counts.

    `pack_of` maps every child tier to the pack that holds it; `largest` is the largest tier
    the calling thread may solve in this level (its work arrays are kept at that size);
    `memory` bounds the cached child tiers together with the tier being solved (its work
    arrays and its children side by side): before each tier the cache drops what it must to
    make room. Only a tier whose own needs exceed `memory` goes beyond it."""
    game = _game(spec)
    where = Path(folder)
    cache = child_cache(memory)
    solved: Solved = []
    held = 0  # bytes of the solved tiers, kept until the pack's file is written
    counts = np.zeros(65536, np.int64)
    work = pooled_work(largest, game.kernel.max_moves)  # one set for all of them
    for tier in tiers:
        children = game.child_tiers(tier)
        t0 = stamp()
        kids = [cache.get(where, c, pack_of[c], game.rebuild_command) for c in children]
        add_time(timings, "children", t0)
        joined = 2 * sum(len(k) for k in kids) if len(kids) > 1 else 0
        need = BYTES_PER_POSITION * largest + joined + held  # the work arrays are kept
        cache.make_room(need, {cache.key(where, c) for c in children})
        code, _rem = solve_one_tier(game, tier, kids, work, timings)
        del kids
        t0 = stamp()
        game.weighted_counts(tier, code, counts)
        add_time(timings, "counts", t0)
        solved.append((tier, code))
        held += code.nbytes
    return solved, counts


def write_solved_pack(
    spec: dict[str, Any],
    folder: str,
    pack: Pack,
    solved: Solved,
    counts: npt.NDArray[np.int64],
    memory: int,
    codec: str,
    timings: dict[str, float],
) -> dict[str, Any]:
    """Write a pack's file from the codes of all its tiers (in order) and their counts, and
    keep the codes in the cache of child tiers; returns the pack's summary."""
    game = _game(spec)
    where = Path(folder)
    summary = summarise(counts)
    layout = {k: v for k, v in spec.items() if k != "adapter"}
    header = {
        "ruleset": game.ruleset_id,
        "layout": layout,
        "pack": pack.name,
        "level": pack.level,
        **summary,
    }
    t0 = stamp()
    size = write_pack(pack_path(where, pack.name), solved, header, codec)
    add_time(timings, "write", t0)
    cache = child_cache(memory)
    for tier, code in solved:  # written: the next levels read them from memory while they fit
        cache.put(where, tier, code)
    return {"pack": pack.name, "positions": pack.positions, "bytes": size, **summary}


def _python_rest(timings: dict[str, float], started: Stamp) -> None:
    """Book the time since `started` that no phase took as "python"."""
    wall = sum(v for k, v in timings.items() if not k.endswith(" cpu"))
    cpu = sum(v for k, v in timings.items() if k.endswith(" cpu"))
    add_time(timings, "python", (started[0] + wall, started[1] + cpu))


def solve_pack(
    spec: dict[str, Any],
    folder: str,
    pack: Pack,
    pack_of: dict[int, str],
    memory: int,
    codec: str = DEFAULT_CODEC,
) -> dict[str, Any]:
    """Solve every tier of a pack and write its file (the unit of work of a Dask worker).

    `pack_of` and `memory`: see `solve_tiers`. Returns the pack's summary (positions and
    counts), the same that its header holds, and under "timings" its phases' seconds."""
    started = stamp()
    timings: dict[str, float] = {}
    solved, counts = solve_tiers(spec, folder, pack.tiers, pack.largest, pack_of, memory, timings)
    out = write_solved_pack(spec, folder, pack, solved, counts, memory, codec, timings)
    _python_rest(timings, started)
    return {**out, "timings": timings}


def summarise(counts: npt.NDArray[np.int64]) -> dict[str, Any]:
    """Win/loss/draw counts, the largest remoteness and the code histogram (nonzero codes)."""
    nz = np.flatnonzero(counts)
    top = int(nz[-1]) if len(nz) else 0
    return {
        "win": int(counts[2::2].sum()),
        "loss": int(counts[3::2].sum()),
        "draw": int(counts[1]),
        "invalid": int(counts[0]),
        "max_remoteness": max(0, (top - 2) // 2) if top >= 2 else 0,
        "histogram": [[int(c), int(counts[c])] for c in nz],
    }


# -- the folder -----------------------------------------------------------------------------


NonNegativeInt = Annotated[StrictInt, Field(ge=0)]
_Pair = Annotated[list[NonNegativeInt], Field(min_length=2, max_length=2)]


class _Manifest(BaseModel):
    """The shape a manifest must have before anything reads it (extra keys are kept)."""

    model_config = ConfigDict(extra="allow")

    ruleset: StrictStr
    spec: dict[str, Any]
    codec: StrictStr
    levels: NonNegativeInt
    tiers: NonNegativeInt
    packs: NonNegativeInt
    positions_indexed: NonNegativeInt
    complete: StrictBool
    pack_tiers: dict[str, list[NonNegativeInt]]
    # the totals, present once complete
    positions: NonNegativeInt | None = None
    win: NonNegativeInt | None = None
    loss: NonNegativeInt | None = None
    draw: NonNegativeInt | None = None
    max_remoteness: NonNegativeInt | None = None
    histogram: list[_Pair] | None = None
    bytes: NonNegativeInt | None = None

    @model_validator(mode="after")
    def _totals_when_complete(self) -> _Manifest:
        totals = (self.positions, self.win, self.loss, self.draw, self.max_remoteness)
        if self.complete and (None in totals or self.histogram is None or self.bytes is None):
            raise ValueError("a complete manifest has its totals")
        return self


MANIFEST_BYTES = 64 << 20  # far above any real manifest (6×6: a few MB)


def read_manifest(folder: Path, rebuild_hint: str | None = None) -> dict[str, Any] | None:
    """The manifest, checked against its schema; None if the folder has none.

    A manifest that is present but cannot be read, is not JSON, or is JSON of the wrong
    shape raises CorruptTableError ("table damaged: ... rebuild it with: `rebuild_hint`")."""
    path = folder / MANIFEST
    hint = f"; rebuild it with: {rebuild_hint} --force" if rebuild_hint else ""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except OSError as exc:
        raise CorruptTableError(
            f"table damaged: {folder.name}: cannot read its manifest ({exc.strerror}){hint}"
        ) from None
    if not stat.S_ISREG(st.st_mode):
        raise CorruptTableError(
            f"table damaged: {folder.name}: {MANIFEST} is not a regular file{hint}"
        )
    if st.st_size > MANIFEST_BYTES:
        raise CorruptTableError(f"table damaged: {folder.name}: {MANIFEST} is too large{hint}")
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise CorruptTableError(
            f"table damaged: {folder.name}: cannot read its manifest ({exc.strerror}){hint}"
        ) from None
    except (ValueError, RecursionError):
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest is not valid JSON{hint}"
        ) from None
    if not isinstance(data, dict):
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest is not a JSON object{hint}"
        )
    try:
        _Manifest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "the whole"
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest has the wrong shape "
            f"({where}: {err.get('msg', 'invalid')}){hint}"
        ) from None
    checked: dict[str, Any] = data
    return checked


def table_files_present(folder: Path) -> bool:
    """True when the folder holds any pack file (a table whose manifest went missing is
    damaged, not missing)."""
    try:
        with os.scandir(folder / "packs") as it:
            return any(e.name.endswith(SUFFIX) for e in it)
    except OSError:
        return False


def write_manifest(folder: Path, data: dict[str, Any]) -> None:
    """Write the manifest through a temporary file and a rename."""
    path = folder / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    os.replace(tmp, path)


def done_packs(game: TierGame, folder: Path, plan: Plan) -> dict[str, dict[str, Any]]:
    """Header of every pack whose file is present and sound (damaged ones are removed)."""
    out: dict[str, dict[str, Any]] = {}
    packs = folder / "packs"
    if not packs.is_dir():
        return out
    names = {p.name for p in plan.packs}
    for tmp in packs.glob(".*.tmp"):
        tmp.unlink(missing_ok=True)  # left by a run that was killed while writing
    for path in packs.glob(f"*{SUFFIX}"):
        name = path.name.removesuffix(SUFFIX)
        if name not in names:
            continue
        try:
            head = read_header(path, game.rebuild_command)
        except CorruptTableError:
            path.unlink(missing_ok=True)
            continue
        if head.get("ruleset") != game.ruleset_id or head.get("pack") != name:
            continue
        out[name] = head
    return out


def totals(headers: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts over packs: positions, win, loss, draw, max remoteness, histogram."""
    hist: dict[int, int] = {}
    for h in headers:
        for c, n in h["histogram"]:
            hist[c] = hist.get(c, 0) + n
    win = sum(h["win"] for h in headers)
    loss = sum(h["loss"] for h in headers)
    draw = sum(h["draw"] for h in headers)
    return {
        "positions": win + loss + draw,
        "win": win,
        "loss": loss,
        "draw": draw,
        "max_remoteness": max((h["max_remoteness"] for h in headers), default=0),
        "histogram": sorted([c, n] for c, n in hist.items() if c > 0),
    }


Progress = Callable[
    [int, int, int, int, int], None
]  # level, packs done, packs, positions done, all


def solve_game(
    game: TierGame,
    folder: Path,
    workers: int = 1,
    scheduler: str | None = None,
    budget: int = DEFAULT_BUDGET,
    codec: str = DEFAULT_CODEC,
    on_progress: Progress | None = None,
    on_dashboard: Callable[[str], None] | None = None,
    timings: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Solve every pack not yet on disk, level by level; returns the manifest.

    Without a scheduler the packs are solved in this process, on `workers` threads; with
    one, on the Dask cluster at `scheduler`. `timings`, if given, gets the seconds of each
    of `PHASES`."""
    clock: dict[str, float] = {}
    started = stamp()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "packs").mkdir(exist_ok=True)
    plan = make_plan(game)
    manifest: dict[str, Any] = {
        "ruleset": game.ruleset_id,
        "spec": game.spec(),
        "codec": codec,
        "levels": len(plan.levels),
        "tiers": len(plan.pack_of),
        "packs": len(plan.packs),
        "positions_indexed": plan.positions,
        "complete": False,
        "pack_tiers": {p.name: list(p.tiers) for p in plan.packs},
    }
    try:
        old = read_manifest(folder)
    except CorruptTableError:  # this solve writes it again
        old = None
    if old is not None and (
        _layout(old.get("spec")) != _layout(manifest["spec"]) or old.get("codec") != codec
    ):
        raise BoardLabError(
            f"{folder} holds tables of other rules or another codec; remove it or choose another"
            " folder"
        )
    write_manifest(folder, manifest)
    done = done_packs(game, folder, plan)
    spec = game.spec()
    if scheduler is None:  # this process solves: what it holds already comes off the budget
        _game(spec).tier_context(plan.packs[-1].tiers[0])  # the solver's tables, built
        budget = max(budget - resident_bytes(), MIN_BUDGET)
    total = plan.positions
    positions = sum(p.positions for p in plan.packs if p.name in done)
    t0 = add_time(clock, "plan", started)
    runner: _LocalRunner | _ThreadRunner | _DaskRunner
    if scheduler is not None:
        runner = _DaskRunner(scheduler, budget, on_dashboard)
    elif workers > 1:
        runner = _ThreadRunner(workers, budget)
    else:
        runner = _LocalRunner(budget)
    add_time(clock, "cluster", t0)
    solving = 0.0
    try:
        for lv, packs in enumerate(plan.levels):
            todo = [p for p in packs if p.name not in done]
            ndone = len(packs) - len(todo)
            if on_progress:
                on_progress(lv, ndone, len(packs), positions, total)
            if not todo:
                continue
            level_start = time.perf_counter()
            for pack, head in runner.run(spec, folder, todo, plan, codec):
                for phase, seconds in head.pop("timings", {}).items():
                    clock[phase] = clock.get(phase, 0.0) + seconds
                done[pack.name] = head
                ndone += 1
                positions += pack.positions
                if on_progress:
                    on_progress(lv, ndone, len(packs), positions, total)
            solving += time.perf_counter() - level_start
    finally:
        closing = stamp()
        runner.close()
        add_time(clock, "cluster", closing)
    in_packs = sum(clock.get(p, 0.0) for p in PHASES if p not in ("plan", "cluster", "idle"))
    clock["idle"] = max(0.0, runner.threads * solving - in_packs)
    headers = [done[p.name] for p in plan.packs]
    manifest.update(complete=True, **totals(headers))
    manifest["bytes"] = sum(pack_path(folder, p.name).stat().st_size for p in plan.packs)
    write_manifest(folder, manifest)
    if timings is not None:
        for phase in [*PHASES, *(f"{p} cpu" for p in PHASES)]:
            timings[phase] = timings.get(phase, 0.0) + clock.get(phase, 0.0)
    return manifest


def _layout(spec: Any) -> Any:
    """A spec without the adapter's module path (which may move between versions)."""
    return {k: v for k, v in spec.items() if k != "adapter"} if isinstance(spec, dict) else spec


def _children_map(game: TierGame, packs: Sequence[Pack], plan: Plan) -> dict[int, str]:
    out: dict[int, str] = {}
    for p in packs:
        for t in p.tiers:
            for c in game.child_tiers(t):
                out[c] = plan.pack_of[c]
    return out


def pack_memory(pack: Pack, game: TierGame) -> int:
    """Bytes a worker needs to solve a pack, children not counted."""
    return BYTES_PER_POSITION * pack.largest + 2 * pack.positions


class _LocalRunner:
    threads = 1

    def __init__(self, budget: int) -> None:
        self.budget = budget

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Any:
        game = _game(spec)
        for pack in todo:
            head = solve_pack(
                spec, str(folder), pack, _children_map(game, [pack], plan), self.budget, codec
            )
            yield pack, head

    def close(self) -> None:
        release_caches()


def split_runs(tiers: Sequence[int], sizes: Sequence[int], parts: int) -> list[list[int]]:
    """`tiers` cut, in order, into at most `parts` runs of about equal positions."""
    total = sum(sizes)
    runs: list[list[int]] = [[]]
    done = 0
    for tier, n in zip(tiers, sizes, strict=True):
        if runs[-1] and done >= total * len(runs) / parts:
            runs.append([])
        runs[-1].append(tier)
        done += n
    return runs


class _ThreadRunner:
    """Packs solved by `workers` threads of this process (the kernels release the GIL), with
    one cache of child tiers. Where a level has fewer packs than twice the threads, a pack's
    tiers are cut into runs for all of them, so that the first and last levels (one or two
    packs each) keep every thread busy; the main thread writes a pack's file while the
    threads solve on. No Dask: a local cluster takes seconds to start and stop and a share
    of a processor to run."""

    def __init__(self, workers: int, budget: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.threads = workers
        self.budget = budget
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="boardlab-solve")

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Any:
        from concurrent.futures import FIRST_COMPLETED, wait

        game = _game(spec)
        cache_budget = max(GiB // 8, self.budget // 2)
        largest = max(p.largest for p in todo)
        per_run = BYTES_PER_POSITION * max(1, largest)
        at_once = max(1, min(2 * self.threads, (self.budget - cache_budget) // per_run))
        cut = self.threads if len(todo) < 2 * self.threads else 1
        queue: list[tuple[Pack, int, list[int]]] = []
        for pack in sorted(todo, key=lambda p: -p.largest):  # big ones first: a shorter tail
            sizes = [game.tier_size(t) for t in pack.tiers]
            runs = split_runs(pack.tiers, sizes, min(cut, len(pack.tiers)))
            queue += [(pack, len(runs), run) for run in runs]
        results: dict[str, list[tuple[list[int], Solved, Any, dict[str, float]]]] = {}
        running: dict[Any, tuple[Pack, int, list[int], dict[str, float]]] = {}
        while queue or running:
            while queue and len(running) < at_once:
                pack, nruns, run = queue.pop(0)
                timings: dict[str, float] = {}
                fut = self.pool.submit(
                    self._solve, spec, str(folder), run, largest,
                    _children_map(game, [pack], plan), cache_budget, timings,
                )  # fmt: skip
                running[fut] = (pack, nruns, run, timings)
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in finished:
                pack, nruns, run, timings = running.pop(fut)
                solved, counts = fut.result()  # re-raises a run's error here
                got = results.setdefault(pack.name, [])
                got.append((run, solved, counts, timings))
                if len(got) < nruns:
                    continue
                del results[pack.name]
                got.sort(key=lambda g: pack.tiers.index(g[0][0]))
                spent: dict[str, float] = {}
                for g in got:
                    for phase, seconds in g[3].items():
                        spent[phase] = spent.get(phase, 0.0) + seconds
                started = stamp()
                writing: dict[str, float] = {}
                head = write_solved_pack(
                    spec, str(folder), pack, [t for g in got for t in g[1]],
                    sum(g[2] for g in got), cache_budget, codec, writing,
                )  # fmt: skip
                _python_rest(writing, started)
                for phase, seconds in writing.items():
                    spent[phase] = spent.get(phase, 0.0) + seconds
                yield pack, {**head, "timings": spent}

    @staticmethod
    def _solve(
        spec: dict[str, Any],
        folder: str,
        tiers: list[int],
        largest: int,
        pack_of: dict[int, str],
        memory: int,
        timings: dict[str, float],
    ) -> tuple[Solved, npt.NDArray[np.int64]]:
        started = stamp()
        out = solve_tiers(spec, folder, tiers, largest, pack_of, memory, timings)
        _python_rest(timings, started)
        return out

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        release_caches()


class _DaskRunner:
    """Packs as tasks of an existing Dask cluster, each worker with its own cache."""

    def __init__(
        self,
        scheduler: str,
        budget: int,
        on_dashboard: Callable[[str], None] | None,
    ) -> None:
        from boardlab.solver.cluster import connect, dashboard_link

        self.client, self.cluster, nworkers = connect(1, scheduler)
        self.workers = max(1, nworkers)
        self.threads = self.workers
        self.budget = budget
        link = dashboard_link(self.client, self.cluster)
        if on_dashboard and link:
            on_dashboard(link)

    def run(
        self, spec: dict[str, Any], folder: Path, todo: list[Pack], plan: Plan, codec: str
    ) -> Any:
        from distributed import wait

        game = _game(spec)
        # the caches of child tiers get half the budget (less while a tier is solved), a
        # share for each worker process; the packs in flight together must fit in the other
        caches = self.workers
        cache_budget = max(GiB // 8, self.budget // (2 * caches))
        free = self.budget - cache_budget * caches
        queue = sorted(todo, key=lambda p: -p.largest)  # big ones first: a shorter tail
        running: dict[Any, tuple[Pack, int]] = {}
        in_use = 0
        while queue or running:
            while queue and len(running) < 2 * self.workers:
                need = pack_memory(queue[0], game)
                if running and in_use + need > free:
                    break
                pack = queue.pop(0)
                fut = self.client.submit(
                    solve_pack,
                    spec,
                    str(folder),
                    pack,
                    _children_map(game, [pack], plan),
                    cache_budget,
                    codec,
                    key=f"solve-{plan_key(spec)}-{pack.name}",
                    pure=False,
                )
                running[fut] = (pack, need)
                in_use += need
            finished, _ = wait(list(running), return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]
            for fut in finished:
                pack, need = running.pop(fut)
                in_use -= need
                head = fut.result()  # re-raises a task's error here
                yield pack, head

    def close(self) -> None:
        from boardlab.solver.cluster import disconnect

        disconnect(self.client, self.cluster)


def plan_key(spec: dict[str, Any]) -> str:
    """A short stable key of a game spec (Dask task names)."""
    import hashlib

    return hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
