"""Predict a solve this version cannot run (7×7 Dodgem): the estimate on paper.

The game declares the *shape* of such rules (`GameInfo.solver_shape`): its tiers, their
sizes and children, without the board tables a solve needs. From it come exact counts —
positions, tiers, levels, packs (grouped as `engine.make_plan` groups them), the largest
tier, the tiers beyond the kernel's limit of 2^29 indices. Time comes from the processor
seconds per index measured on a few tiers of the largest size classes (up to 2^22 indices)
of the largest board of the same rules that the solver runs, solved with stand-in children
as `estimate` does: processor time, not wall time, so that a busy machine does not inflate
it, and it is what a dedicated core of a cluster would take. Larger classes take the rate of
the largest class sampled, smaller ones that of the smallest (they hold a small share of the
indices); the rate is scaled by the moves a position has (the kernel's work per index
follows its edges). Each level takes at least as long as its largest tier on one core, as in
`Estimate.seconds_on`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardlab.core.errors import UsageError
from boardlab.core.registry import AnyRules, get_game
from boardlab.solver.estimate import TierSample, picks, sample_tiers, span, warm_kernel
from boardlab.solver.folder import read_manifest
from boardlab.solver.packsolve import BYTES_PER_POSITION
from boardlab.solver.plan import PACK_POSITIONS, PACK_TIERS, tier_levels

KERNEL_LIMIT = 1 << 29  # indices of the largest tier the kernel takes (its 32-bit events)
CLUSTER_CORES = 1000
SAMPLE_CLASSES = 3  # the largest size classes of the measured board that are sampled
SAMPLES_PER_CLASS = 3


@dataclass
class Sample:
    """Processor seconds per index by size class, of compressing an index as a pack is
    written, and bytes per index once packed."""

    seconds_per_position: dict[int, float]
    write_seconds_per_position: float
    bytes_per_position: float
    tiers: int
    positions: int


def sample_rates(game: Any, samples: int = SAMPLES_PER_CLASS) -> Sample:
    """Solve a few tiers of the largest size classes of `game` (one tier of each class above
    2^MANY_SAMPLES_CLASS indices) with stand-in children and write their codes as a pack,
    as `estimate` samples them (`sample_tiers`)."""
    tiers = game.tiers()
    by_class: dict[int, list[int]] = {}
    for t in tiers:
        by_class.setdefault(_class(game.tier_size(t)), []).append(t)
    classes = sorted(by_class)[-SAMPLE_CLASSES:]
    warm_kernel(game, tiers)
    spp: dict[int, float] = {}
    total = TierSample()
    for cls in classes:
        got = sample_tiers(game, picks(by_class[cls], cls, samples))
        spp[cls] = got.solve_seconds / max(1, got.positions)
        total.add(got)
    return Sample(
        spp,
        total.write_seconds / max(1, total.positions),
        total.packed_bytes / max(1, total.positions),
        total.tiers,
        total.positions,
    )


@dataclass
class PaperEstimate:
    """Counts of the rules' plan, and time, memory and disk extrapolated from `measured_on`."""

    ruleset: str
    tiers: int
    levels: int
    packs: int
    positions: int
    largest: int
    too_big: int  # tiers beyond KERNEL_LIMIT
    too_big_positions: int
    measured_on: str
    sampled: str
    scale: float  # per-index cost here over there (moves per position)
    seconds_per_position: float  # of the largest size class sampled, scaled
    level_seconds: list[float] = field(default_factory=list)
    level_floor_seconds: list[float] = field(default_factory=list)
    tier_bytes: int = 0  # the largest tier's work arrays and its children side by side
    board_bytes: int = 0  # the board's tables, held by every worker process
    bytes_per_position: float = 0.0
    disk_from: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def one_core_seconds(self) -> float:
        """Predicted time on one core."""
        return sum(self.level_seconds)

    def seconds_on(self, cores: int) -> float:
        """Predicted wall time on `cores` cores, each level at least its largest tier."""
        return sum(
            max(t / cores, f)
            for t, f in zip(self.level_seconds, self.level_floor_seconds, strict=True)
        )

    @property
    def disk_bytes(self) -> int:
        """Predicted size of the tables."""
        return int(self.bytes_per_position * self.positions)

    @property
    def worker_bytes(self) -> int:
        """Memory of a worker solving the largest tier."""
        return self.tier_bytes + self.board_bytes


def _class(size: int) -> int:
    return max(0, size.bit_length() - 1)


def shape_of(rules: AnyRules) -> Any | None:
    """The tier shape the rules' game declares for them, or None."""
    declared = get_game(rules.game).solver_shape
    return None if declared is None else declared(rules)


def measured_board(rules: AnyRules) -> AnyRules | None:
    """The largest board below `rules.size` of the same variant that the solver runs."""
    from boardlab.solver.store import solver_view

    info = get_game(rules.game)
    for n in sorted((m for m in info.variant(rules.variant).sizes if m < rules.size), reverse=True):
        smaller = info.rules(rules.variant, n)
        if solver_view(smaller) is not None:
            return smaller
    return None


def paper_estimate(
    shape: Any,
    measured: Any,
    tables: Path | None = None,
    on_step: Callable[[str], None] | None = None,
) -> PaperEstimate:
    """The estimate of `shape` from rates measured on the tier adapter `measured`."""
    say = on_step or (lambda _text: None)
    say(f"sampling tiers of {measured.ruleset_id} for the time per index")
    sample = sample_rates(measured)
    say(f"planning {shape.ruleset_id}")
    levels = shape.tier_levels() if hasattr(shape, "tier_levels") else tier_levels(shape)
    scale = float(shape.max_moves / measured.kernel.max_moves)
    top, bottom = max(sample.seconds_per_position), min(sample.seconds_per_position)
    # solving scales with the moves a position has; compressing the codes does not
    spp = {
        c: s * scale + sample.write_seconds_per_position
        for c, s in sample.seconds_per_position.items()
    }

    def rate(size: int) -> float:
        cls = _class(size)
        return spp.get(cls, spp[top] if cls > top else spp[bottom])

    by_level: dict[int, list[int]] = {}
    for t, lv in levels.items():
        by_level.setdefault(lv, []).append(t)
    est = PaperEstimate(
        ruleset=shape.ruleset_id,
        tiers=len(levels),
        levels=len(by_level),
        packs=0,
        positions=0,
        largest=0,
        too_big=0,
        too_big_positions=0,
        measured_on=measured.ruleset_id,
        sampled=f"{sample.tiers} tiers, {sample.positions:,} indices",
        scale=scale,
        seconds_per_position=spp[top],
    )
    largest_tier = -1
    for lv in sorted(by_level):
        total = floor = 0.0
        group = size = 0
        for t in sorted(by_level[lv]):
            n = shape.tier_size(t)
            # packs as make_plan groups them: tiers by id up to PACK_POSITIONS or PACK_TIERS
            if group and (size + n > PACK_POSITIONS or group >= PACK_TIERS):
                est.packs += 1
                group = size = 0
            group += 1
            size += n
            est.positions += n
            if n > est.largest:
                est.largest, largest_tier = n, t
            if n >= KERNEL_LIMIT:
                est.too_big += 1
                est.too_big_positions += n
            s = n * rate(n)
            total += s
            floor = max(floor, s)
        est.packs += 1
        est.level_seconds.append(total)
        est.level_floor_seconds.append(floor)
    children = sum(shape.tier_size(c) for c in shape.child_tiers(largest_tier))
    est.tier_bytes = BYTES_PER_POSITION * est.largest + 4 * children
    facts = dict(shape.facts()) if hasattr(shape, "facts") else {}
    est.board_bytes = int(facts.pop("board tables", 0))
    est.facts = facts
    built = read_manifest(tables / measured.ruleset_id) if tables is not None else None
    if built is not None and built.get("complete") and built.get("bytes"):
        est.bytes_per_position = built["bytes"] / built["positions_indexed"]
        est.disk_from = f"the built {measured.ruleset_id} tables"
    else:
        est.bytes_per_position = sample.bytes_per_position
        est.disk_from = f"the {measured.ruleset_id} sample's stand-in codes"
    return est


def estimate_on_paper(
    rules: AnyRules,
    tables: Path | None = None,
    on_step: Callable[[str], None] | None = None,
) -> PaperEstimate:
    """The estimate of rules the solver does not run; UsageError when their game declares no
    shape for them or the solver runs no smaller board of the variant."""
    from boardlab.solver.store import solver_view

    shape = shape_of(rules)
    smaller = measured_board(rules)
    if shape is None or smaller is None:
        raise UsageError(
            f"no estimate for {rules.game} {rules.variant} on {rules.size}×{rules.size}: the "
            "game declares no tier shape for it, or the solver runs no smaller board"
        )
    return paper_estimate(shape, solver_view(smaller), tables, on_step)


def print_paper(est: PaperEstimate, cores: int, console: Any) -> None:
    """The estimate as a few lines of text."""
    gib = 1 << 30

    console.print(
        f"{est.ruleset} (on paper: the solver does not run this board): {est.positions:,} "
        f"positions in {est.tiers:,} tiers, {est.levels} levels, {est.packs:,} packs",
        soft_wrap=True,
    )
    share = est.too_big_positions / max(1, est.positions)
    console.print(
        f"largest tier: {est.largest:,} indices; {est.too_big:,} tiers ({share:.0%} of the "
        f"indices) exceed the kernel's {KERNEL_LIMIT:,} indices per tier",
        soft_wrap=True,
    )
    for name, value in est.facts.items():
        console.print(f"{name}: {value:,}", soft_wrap=True)
    rate = est.positions / max(est.one_core_seconds, 1e-9)
    console.print(
        f"processor time per index from {est.measured_on} ({est.sampled}) × {est.scale:.2f} "
        f"(moves per position), and compressing the codes: {est.seconds_per_position * 1e9:.0f} "
        "ns an index on the largest tiers",
        soft_wrap=True,
    )
    console.print(
        f"time on 1 core: {span(est.one_core_seconds)} ({rate / 1e6:.1f} M pos/s)", soft_wrap=True
    )
    for n in sorted({2, cores, CLUSTER_CORES}):
        floor = sum(est.level_floor_seconds)
        note = " (the largest tier of each level, one after another)" if n == CLUSTER_CORES else ""
        console.print(f"time on {n:,} cores: {span(est.seconds_on(n))}{note}", soft_wrap=True)
        if n == CLUSTER_CORES:
            console.print(
                f"  of which {span(floor)} is each level's largest tier on one core",
                soft_wrap=True,
            )
    console.print(
        f"memory per worker: {est.worker_bytes / gib:,.0f} GiB on the largest tier "
        f"({est.tier_bytes / gib:,.0f} GiB for the tier and its children, "
        f"{est.board_bytes / gib:,.1f} GiB for the board's tables that every worker holds)",
        soft_wrap=True,
    )
    console.print(
        f"disk: about {est.disk_bytes / 1e12:,.1f} TB ({est.bytes_per_position:.3f} bytes per "
        f"index, from {est.disk_from})",
        soft_wrap=True,
    )
