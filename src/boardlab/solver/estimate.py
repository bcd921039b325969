"""Predict a whole solve from a sample: time, peak memory and disk, on 1 and N cores.

Tiers are grouped by size class (powers of two); a few tiers of each class are solved with
stand-in children (random draws, wins and losses in the proportions of solved boards: see
`stand_in_codes`), timed (processor time of the thread, with counting the values: what a
quiet machine's wall clock would show, and a busy machine does not inflate it) and
compressed. Time per class is the mean per position times the positions of the class;
on N cores each level takes at least as long as its slowest tier. Classes of tiers above
2^MAX_SAMPLE_CLASS positions are not solved (the sample would take as long as a small solve):
they take the time per position of the largest class sampled, which is where the time per
position has levelled off.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.tiers import TierGame
from boardlab.solver.engine import DEFAULT_BUDGET
from boardlab.solver.packsolve import BYTES_PER_POSITION, solve_one_tier
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import BLOCK_ENTRIES, DEFAULT_CODEC, compress, narrow

SAMPLES_PER_CLASS = 3
MAX_SAMPLE_CLASS = 22  # tiers above 4 M positions take the time per position of this class


@dataclass
class Estimate:
    """The prediction (seconds, bytes) and what it was made from."""

    tiers: int
    positions: int
    levels: int
    sampled_tiers: int
    sampled_positions: int
    sample_seconds: float
    seconds_per_position: dict[int, float] = field(default_factory=dict)  # by size class
    bytes_per_position: float = 0.0
    one_core_seconds: float = 0.0
    level_floor_seconds: list[float] = field(default_factory=list)  # slowest tier per level
    level_seconds: list[float] = field(default_factory=list)  # all tiers of a level, 1 core
    peak_worker_bytes: int = 0
    disk_bytes: int = 0
    budget: int = DEFAULT_BUDGET

    def seconds_on(self, cores: int) -> float:
        """Predicted wall time on `cores` workers."""
        return sum(
            max(t / cores, f)
            for t, f in zip(self.level_seconds, self.level_floor_seconds, strict=True)
        )

    def workers_in_budget(self, cores: int) -> int:
        """How many workers the memory budget lets solve the largest tiers at once."""
        return max(1, min(cores, self.budget // max(1, self.peak_worker_bytes)))


def _class(size: int) -> int:
    return max(0, size.bit_length() - 1)


def estimate(
    game: TierGame, budget: int = DEFAULT_BUDGET, samples: int = SAMPLES_PER_CLASS
) -> Estimate:
    """Sample, time and extrapolate (see the module docstring)."""
    plan = make_plan(game)
    level_of = {t: p.level for p in plan.packs for t in p.tiers}
    by_class: dict[int, list[int]] = {}
    for t in sorted(level_of):
        by_class.setdefault(_class(game.tier_size(t)), []).append(t)
    spp: dict[int, float] = {}
    sampled = 0
    sampled_pos = 0
    raw = 0
    packed = 0
    t_all = time.perf_counter()
    # warm the compiled code on the smallest tier first, so compile time is not counted
    smallest = min(level_of, key=game.tier_size)
    solve_one_tier(game, smallest, _stand_ins(game, smallest))
    for cls, tiers in sorted(by_class.items()):
        if cls > MAX_SAMPLE_CLASS and spp:
            continue
        step = max(1, len(tiers) // samples)
        picks = tiers[::step][:samples]
        seconds = 0.0
        positions = 0
        for t in picks:
            kids = _stand_ins(game, t)
            t0 = time.thread_time()  # processor time: a busy machine does not inflate it
            codes = solve_one_tier(game, t, kids)[0]
            seconds += time.thread_time() - t0
            del kids
            positions += len(codes)
            t0 = time.thread_time()
            game.weighted_counts(t, codes)  # as a solve counts each tier's values
            seconds += time.thread_time() - t0
            # compressed for the disk estimate, not timed: random stand-in children make the
            # codes compress slower (and worse) than a real solve's
            arr = narrow(codes[: 64 * BLOCK_ENTRIES])
            for lo in range(0, len(arr), BLOCK_ENTRIES):
                chunk = arr[lo : lo + BLOCK_ENTRIES].tobytes()
                raw += len(chunk) // arr.dtype.itemsize
                packed += len(compress(chunk, DEFAULT_CODEC))
        spp[cls] = seconds / max(1, positions)
        sampled += len(picks)
        sampled_pos += positions
    largest_sampled = max(spp)
    for cls in by_class:
        spp.setdefault(cls, spp[largest_sampled])
    est = Estimate(
        tiers=len(level_of),
        positions=plan.positions,
        levels=len(plan.levels),
        sampled_tiers=sampled,
        sampled_positions=sampled_pos,
        sample_seconds=time.perf_counter() - t_all,
        seconds_per_position=spp,
        bytes_per_position=packed / max(1, raw),
        budget=budget,
    )
    for packs in plan.levels:
        total = 0.0
        floor = 0.0
        for p in packs:
            for t in p.tiers:
                n = game.tier_size(t)
                s = n * spp[_class(n)]
                total += s
                floor = max(floor, s)
        est.level_seconds.append(total)
        est.level_floor_seconds.append(floor)
    est.one_core_seconds = sum(est.level_seconds)
    biggest = max(level_of, key=game.tier_size)
    children = sum(game.tier_size(c) for c in game.child_tiers(biggest))
    blob = sum(a.nbytes for a in game.tier_context(biggest) if isinstance(a, np.ndarray))
    est.peak_worker_bytes = BYTES_PER_POSITION * game.tier_size(biggest) + 4 * children + blob
    est.disk_bytes = int(est.bytes_per_position * plan.positions)
    return est


STAND_IN_MIX = (0.35, 0.40, 0.25)  # draw, win, loss: about what 5×5 boards hold
STAND_IN_DEPTH = 40  # remoteness drawn from 0 .. this - 1


def stand_in_codes(size: int, seed: int) -> npt.NDArray[np.uint16]:
    """Codes for a child tier that is not solved yet: draws, wins and losses in about the
    proportions of solved boards, remoteness spread out, so that the kernel does the work of a
    real solve (all draws would decide nothing in the tier and leave half its work undone)."""
    rng = np.random.default_rng(seed)
    kind = rng.choice(3, size=size, p=STAND_IN_MIX)
    rem = rng.integers(0, STAND_IN_DEPTH, size=size)
    return np.where(kind == 0, 1, 2 + 2 * rem + (kind == 2)).astype(np.uint16)


def _stand_ins(game: TierGame, tier: int) -> list[npt.NDArray[np.uint16]]:
    return [stand_in_codes(game.tier_size(c), c) for c in game.child_tiers(tier)]


def span(seconds: float) -> str:
    """A duration in the unit a person reads it in: 40 s, 3.5 min, 2.6 h, 1.1 days."""
    if seconds >= 86400 * 365:
        return f"{seconds / (86400 * 365):.1f} years"
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.0f} s"


def memory(n: float) -> str:
    """Bytes in GiB, or in MiB below one GiB (5×5 needs a few hundred)."""
    return f"{n / (1 << 30):.1f} GiB" if n >= 1 << 30 else f"{n / (1 << 20):.0f} MiB"


def print_estimate(est: Estimate, name: str, cores: int, console: Any) -> None:
    """The prediction as a few lines of text."""
    gib = 1 << 30

    console.print(
        f"{name}: {est.tiers:,} tiers in {est.levels} levels, {est.positions:,} positions "
        f"(sampled {est.sampled_tiers} tiers, {est.sampled_positions:,} positions, "
        f"in {est.sample_seconds:.1f} s)"
    )
    rate = est.positions / max(est.one_core_seconds, 1e-9)
    console.print(f"time on 1 core: {span(est.one_core_seconds)} ({rate / 1e6:.1f} M pos/s)")
    for n in sorted({2, cores}):
        w = est.workers_in_budget(n)
        console.print(
            f"time on {n} cores: {span(est.seconds_on(w))}"
            + (f" (memory budget allows {w} workers at once)" if w < n else "")
        )
    console.print(
        f"peak memory: {memory(est.peak_worker_bytes)} per worker on the largest tier; "
        f"budget {est.budget / gib:.0f} GiB"
    )
    console.print(
        f"disk: at most {est.disk_bytes / 1e9:.1f} GB ({est.bytes_per_position:.3f} bytes per "
        "position in the sample, whose random children make its codes compress about three "
        "times worse than a real solve's)"
    )
