"""An independent, complete check of built tables: pack by pack, in parallel, resumable.

Every stored entry is derived again from the rules and the stored entries of the position's
children, by the game's own checker (`boardlab.core.checks`, declared in
`GameInfo.table_checker`: rules written apart from the solver's tier adapter), and compared
with what is stored. The check is local: one pass over each position's moves, no queue; a
table that passes it everywhere is the table of the game (see `boardlab.core.checks`). A game
without a checker of its own is checked through its adapter's compiled moves (the bookkeeping
is then the only independent part, and the report says so).

Before anything is checked, every pack must be present, of this ruleset and format, and pass
its checksum over every byte; any of these failing is a `TableInputError` (one line, and
nothing written). Then packs are checked in the solve's order (children tend to be in the
cache), like the solve: by threads of this process sharing one cache of child tiers, or on
the workers of a Dask cluster (`--scheduler`). Packs do not depend on each other here: any
order gives the same findings.

The record `verify.json` beside the tables keeps the findings of every pack checked, keyed by
the checker and the checksums of the pack and of the packs holding its child tiers: a stopped
verification goes on where it stopped and reaches the same verdict, and a pack whose bytes (or
whose children's bytes) changed is checked again. It is written through a temporary file and a
rename, at most every few seconds and when the run ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardlab.core.checks import TierChecker, checker_from_spec
from boardlab.core.errors import CorruptTableError
from boardlab.core.tiers import TierGame
from boardlab.solver.childcache import child_cache, made_once, shared_game
from boardlab.solver.engine import (
    DEFAULT_BUDGET,
    MIN_BUDGET,
    release_freed_arrays,
    resident_bytes,
)
from boardlab.solver.folder import pack_path, read_manifest
from boardlab.solver.plan import Pack, Plan, make_plan
from boardlab.solver.runners import (
    DaskRunner,
    LocalRunner,
    PackRunner,
    Task,
    ThreadRunner,
    plan_key,
)
from boardlab.solver.tierfile import FORMAT_VERSION, PackFile
from boardlab.solver.verify_findings import KINDS, Finding, describe, kind_counts, kind_of
from boardlab.solver.verify_moves import MovesChecker, checker_of, moves_checker, sample_by_rules

RECORD = "verify.json"
RECORD_FORMAT = 1
SAVE_EVERY = 2.0  # seconds between writes of the record, at least
SAVE_SHARE = 0.02  # and at most this share of processor time in writing it (6×6: 45,163 packs)
SAVE_MOST = 30.0  # but at most this many seconds: a kill loses no more checking than that
PER_PACK = 8  # findings kept per pack
MAX_REPORTED = 20


class TableInputError(CorruptTableError):
    """Tables that cannot be verified: a pack missing, damaged, of other rules or another
    format; a child tier in no pack. The message names which, in one line."""


# -- one pack ---------------------------------------------------------------------------------

_CHECKERS: dict[str, TierChecker] = {}


def _checker(spec: dict[str, Any]) -> TierChecker:
    return made_once(_CHECKERS, spec, checker_from_spec)


def verify_pack(
    game_spec: dict[str, Any],
    checker_spec: dict[str, Any],
    folder: str,
    pack: Pack,
    pack_of: dict[int, str],
    memory: int,
) -> dict[str, Any]:
    """Check every entry of a pack (the unit of work of a worker): returns its findings as
    plain data (entries, positions, disagreements by kind, the first few)."""
    game = shared_game(game_spec)
    checker = _checker(checker_spec)
    where = Path(folder)
    cache = child_cache(memory)
    hint = game.rebuild_command + " --force"
    entries = positions = 0
    errors: dict[str, int] = {}
    first: list[list[int | str]] = []
    for tier in pack.tiers:
        kids_of = list(checker.child_tiers(tier))
        # the tier's stored codes and its children's (if not cached yet), and derive's own
        stored = 2 * (game.tier_size(tier) + sum(game.tier_size(c) for c in kids_of))
        cache.make_room(stored + checker.work_bytes(tier), {cache.key(where, c) for c in kids_of})
        codes = cache.get(where, tier, pack.name, hint)
        kids = [cache.get(where, c, pack_of[c], hint) for c in kids_of]
        derived = checker.derive(tier, codes, kids)
        del kids
        entries += len(codes)
        positions += int(np.count_nonzero(codes))
        bad = np.flatnonzero(derived != codes)
        if len(bad):
            for kind, n in kind_counts(codes[bad], derived[bad]).items():
                errors[kind] = errors.get(kind, 0) + n
            for i in bad[: max(0, PER_PACK - len(first))]:
                s, d = int(codes[i]), int(derived[i])
                first.append([kind_of(s, d), tier, int(i), s, d])
    return {
        "pack": pack.name,
        "entries": entries,
        "positions": positions,
        "errors": errors,
        "first": first,
    }


# -- the record -------------------------------------------------------------------------------


class Record:
    """`verify.json`: the findings of every pack checked, by the key they were checked under."""

    def __init__(self, folder: Path, ruleset: str, checker: str, fresh: bool) -> None:
        self.path = folder / RECORD
        self.head = {
            "format": RECORD_FORMAT,
            "ruleset": ruleset,
            "table_format": FORMAT_VERSION,
            "checker": checker,
        }
        self.packs: dict[str, dict[str, Any]] = {}
        self.dirty = False
        self.failed: str | None = None
        self._saved = time.monotonic()
        self._every = SAVE_EVERY
        for tmp in folder.glob(f".{RECORD}.*.tmp"):
            tmp.unlink(missing_ok=True)  # left by a run killed while writing
        if fresh:
            return
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and all(data.get(k) == v for k, v in self.head.items()):
            packs = data.get("packs")
            if isinstance(packs, dict):
                self.packs = {k: v for k, v in packs.items() if isinstance(v, dict)}

    def done(self, name: str, key: str) -> dict[str, Any] | None:
        """The recorded findings of a pack checked under `key`, else None."""
        got = self.packs.get(name)
        return got if got is not None and got.get("key") == key else None

    def add(self, result: dict[str, Any]) -> None:
        """Keep a pack's findings; written out every few seconds."""
        self.packs[str(result["pack"])] = result
        self.dirty = True
        if time.monotonic() - self._saved >= self._every:
            self.save()

    def save(self) -> None:
        """Write the record through a temporary file and a rename (a failure is kept in
        `failed`, not raised: the check goes on without a record)."""
        if not self.dirty or self.failed is not None:
            return
        tmp = self.path.with_name(f".{RECORD}.{os.getpid()}.tmp")
        t0 = time.thread_time()  # not the wall clock: at low priority a write can wait long
        try:
            tmp.write_text(json.dumps({**self.head, "packs": self.packs}, sort_keys=True) + "\n")
            os.replace(tmp, self.path)
            self.dirty = False
            self._saved = time.monotonic()
            cost = time.thread_time() - t0
            self._every = min(SAVE_MOST, max(SAVE_EVERY, cost / SAVE_SHARE))
        except OSError as exc:
            self.failed = f"cannot write {self.path}: {exc.strerror or exc}"
        finally:
            tmp.unlink(missing_ok=True)


def recorded_verdict(folder: Path, packs: Iterable[str]) -> str:
    """What `verify.json` says of the table in `folder` whose packs are `packs`, without
    checking anything: 'verified', 'failed verification', 'partly verified (k of n packs)'
    or 'not verified'. The keys are not recomputed here (that needs every pack's header):
    `boardlab verify` does it, and checks again what changed."""
    try:
        data = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return "not verified"
    recorded = data.get("packs") if isinstance(data, dict) else None
    if not isinstance(recorded, dict):
        return "not verified"
    names = list(packs)
    found = [recorded[n] for n in names if isinstance(recorded.get(n), dict)]
    errors = sum(int(n) for r in found for n in dict(r.get("errors") or {}).values())
    if errors:
        return "failed verification"
    if names and len(found) == len(names):
        return "verified"
    return f"partly verified ({len(found)} of {len(names)} packs)" if found else "not verified"


# -- the whole table --------------------------------------------------------------------------


@dataclass
class VerifyReport:
    """What was checked and what disagreed."""

    ruleset: str
    checker: str
    independent: bool
    packs: int = 0  # checked, by this run or recorded
    packs_total: int = 0  # of the table
    resumed: int = 0  # of them, taken from the record
    tiers: int = 0
    entries: int = 0
    positions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    sampled: int = 0
    sample_failures: list[str] = field(default_factory=list)
    record_note: str | None = None

    @property
    def failures(self) -> int:
        """Disagreements of every kind."""
        return sum(self.errors.values()) + len(self.sample_failures)

    @property
    def complete(self) -> bool:
        """Every pack checked."""
        return self.packs == self.packs_total

    @property
    def ok(self) -> bool:
        """True when nothing disagreed."""
        return self.failures == 0

    def add(self, result: dict[str, Any], tiers: int) -> None:
        """Count a pack's findings."""
        self.packs += 1
        self.tiers += tiers
        self.entries += int(result["entries"])
        self.positions += int(result["positions"])
        for kind, n in result["errors"].items():
            self.errors[kind] = self.errors.get(kind, 0) + int(n)
        for kind, tier, index, stored, derived in result["first"]:
            if len(self.findings) < MAX_REPORTED:
                self.findings.append(Finding(str(kind), int(tier), int(index), stored, derived))


Progress = Callable[[int, int, int, int, int], None]
"""(level of the pack just checked, packs done, packs to check, positions done, positions)"""


def open_for_check(
    game: TierGame, checker: TierChecker, folder: Path, workers: int = 1
) -> tuple[Plan, dict[str, str], dict[str, str]]:
    """Refuse tables that cannot be verified (`TableInputError`); else the plan, each pack's
    payload checksum, and each pack's key (its checker, its checksum and its children's)."""
    hint = game.rebuild_command
    manifest = read_manifest(folder)
    if manifest is None or not manifest.get("complete"):
        raise TableInputError(f"no complete tables in {folder}; build them with: {hint}")
    layout = {k: v for k, v in game.spec().items() if k != "adapter"}
    theirs = manifest.get("spec")
    if (
        not isinstance(theirs, dict)
        or {k: v for k, v in theirs.items() if k != "adapter"} != layout
    ):
        raise TableInputError(
            f"foreign table: {folder} holds {manifest.get('ruleset')}, not {game.ruleset_id}"
        )
    plan = make_plan(game)
    if manifest.get("pack_tiers") != {p.name: list(p.tiers) for p in plan.packs}:
        raise TableInputError(
            f"foreign table: {folder} is laid out in other packs than {game.ruleset_id} is "
            f"(made by another version?); rebuild it with: {hint} --force"
        )
    for pack in plan.packs:
        if not pack_path(folder, pack.name).is_file():
            tiers = ", ".join(game.tier_name(t) for t in pack.tiers[:3])
            more = ", ..." if len(pack.tiers) > 3 else ""
            raise TableInputError(
                f"child tier missing: pack {pack.name} (tiers {tiers}{more}) is not on disk; "
                f"rebuild it with: {hint}"
            )
    for pack in plan.packs:
        for t in pack.tiers:
            for c in checker.child_tiers(t):
                if c not in plan.pack_of:
                    raise TableInputError(
                        f"child tier missing: tier {game.tier_name(c)}, a child of tier "
                        f"{game.tier_name(t)}, is in no pack of {folder}"
                    )

    def check(pack: Pack) -> str:
        path = pack_path(folder, pack.name)
        try:
            pf = PackFile(path, hint + " --force")
        except CorruptTableError as exc:
            text = str(exc)
            if "is not supported" in text:
                raise TableInputError(
                    f"foreign format: pack {pack.name} is not of format version "
                    f"{FORMAT_VERSION} ({text})"
                ) from None
            raise TableInputError(f"pack fails its checksum: {text}") from None
        try:
            if pf.header.get("ruleset") != game.ruleset_id or pf.header.get("pack") != pack.name:
                raise TableInputError(
                    f"foreign table: {path} holds pack {pf.header.get('pack')} of "
                    f"{pf.header.get('ruleset')}"
                )
            if sorted(pf.tiers) != sorted(pack.tiers) or any(
                pf.tiers[t][0] != game.tier_size(t) for t in pack.tiers
            ):
                raise TableInputError(f"foreign table: {path} holds other tiers than {pack.name}")
            try:
                pf.check()
            except CorruptTableError as exc:
                raise TableInputError(f"pack fails its checksum: {exc}") from None
            return str(pf.header["payload_sha256"])
        finally:
            pf.close()

    with ThreadPoolExecutor(max(1, workers)) as pool:
        sums = dict(zip((p.name for p in plan.packs), pool.map(check, plan.packs), strict=True))
    keys: dict[str, str] = {}
    for pack in plan.packs:
        kids = sorted({plan.pack_of[c] for t in pack.tiers for c in checker.child_tiers(t)})
        text = json.dumps([checker.name, sums[pack.name], [sums[k] for k in kids]])
        keys[pack.name] = hashlib.sha256(text.encode()).hexdigest()[:32]
    return plan, sums, keys


def verify_table(
    game: TierGame,
    checker: TierChecker,
    folder: Path,
    workers: int = 1,
    scheduler: str | None = None,
    budget: int = DEFAULT_BUDGET,
    fraction: float = 1.0,
    seed: int = 1,
    fresh: bool = False,
    on_progress: Progress | None = None,
    on_dashboard: Callable[[str], None] | None = None,
    opened: tuple[Plan, dict[str, str], dict[str, str]] | None = None,
) -> VerifyReport:
    """Check every pack (or a random `fraction` of them) not yet in the record; returns the
    findings of every pack checked, by this run or an earlier one. `opened`: what
    `open_for_check` returned, if the caller ran it already (it refuses bad input before a
    progress display starts)."""
    plan, _sums, keys = opened or open_for_check(game, checker, folder, workers)
    packs = plan.packs
    if fraction < 1.0:
        chosen = set(
            random.Random(seed).sample(range(len(packs)), max(1, int(len(packs) * fraction)))
        )
        packs = [p for i, p in enumerate(packs) if i in chosen]
    record = Record(folder, game.ruleset_id, checker.name, fresh)
    report = VerifyReport(game.ruleset_id, checker.name, checker.independent)
    report.packs_total = len(plan.packs)
    total = sum(p.positions for p in packs)
    done_positions = 0
    todo: list[Pack] = []
    for pack in packs:
        got = record.done(pack.name, keys[pack.name])
        if got is None:
            todo.append(pack)
            continue
        report.add(got, len(pack.tiers))
        report.resumed += 1
        done_positions += pack.positions
    if on_progress:
        on_progress(todo[0].level if todo else 0, report.packs, len(packs), done_positions, total)
    spec, cspec = game.spec(), checker.spec()
    if scheduler is None:
        release_freed_arrays()
        budget = max(budget - resident_bytes(), MIN_BUDGET)
    runner: PackRunner
    if scheduler is not None:
        runner = DaskRunner(scheduler, budget, on_dashboard, workers)
    elif workers > 1:
        runner = ThreadRunner(workers, budget)
    else:
        runner = LocalRunner(budget)
    task = verify_task(spec, cspec, checker, folder, plan)
    name = f"verify-{plan_key(spec)}"
    try:
        # the solve's order: children were checked (and cached) first
        for pack, result in runner.work(todo, task, lambda p: pack_need(checker, p), name):
            result["key"] = keys[pack.name]
            record.add(result)
            report.add(result, len(pack.tiers))
            done_positions += pack.positions
            if on_progress:
                on_progress(pack.level, report.packs, len(packs), done_positions, total)
    finally:
        try:
            runner.close()
        finally:
            record.save()
    report.record_note = record.failed
    return report


def pack_need(checker: TierChecker, pack: Pack) -> int:
    """Bytes a worker needs beyond its cache to check a pack: its largest tier's."""
    return max(checker.work_bytes(t) for t in pack.tiers)


def verify_task(
    spec: dict[str, Any], cspec: dict[str, Any], checker: TierChecker, folder: Path, plan: Plan
) -> Task:
    """The verifier's task for a runner: a pack checked (its findings back)."""

    def task(pack: Pack, memory: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        kids = {c: plan.pack_of[c] for t in pack.tiers for c in checker.child_tiers(t)}
        return verify_pack, (spec, cspec, str(folder), pack, kids, memory)

    return task


__all__ = [
    "KINDS",
    "Finding",
    "MovesChecker",
    "TableInputError",
    "VerifyReport",
    "checker_of",
    "describe",
    "moves_checker",
    "sample_by_rules",
    "verify_table",
]
