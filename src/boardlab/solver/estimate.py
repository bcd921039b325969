"""Predict a whole solve from a sample: time, peak memory and disk, on 1 and N cores.

Tiers are grouped by size class (powers of two); a few tiers of each class (one of each class
above 2^MANY_SAMPLES_CLASS positions) are solved with stand-in children (runs of draws, wins
and losses as a solved tier holds them: see `stand_in_codes`), and their codes are compressed
as a pack is written and decompressed as a child is read back. All three are timed by the
thread's processor clock (what a quiet machine's wall clock would show; a busy machine does
not inflate it). A level's time is its tiers' positions times their class's time per position,
plus its packs' writing, plus its reading of children: each child tier once, and again each
time the solve's cache of children (half the memory budget, least recently used out) has
dropped it since, as the plan's order of packs has it. On N cores a level's solving and
writing are shared and its reading is not (the threads read through one cache, under its
lock), and each level takes at least as long as its slowest tier.
"""

from __future__ import annotations

import hashlib
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.tiers import TierGame
from boardlab.solver.engine import DEFAULT_BUDGET
from boardlab.solver.packsolve import BYTES_PER_POSITION, solve_one_tier
from boardlab.solver.plan import Plan, make_plan
from boardlab.solver.tierfile import BLOCK_ENTRIES, DEFAULT_CODEC, compress, decompress, narrow

SAMPLES_PER_CLASS = 3
MANY_SAMPLES_CLASS = 22  # above 4 M positions a class is sampled by one tier


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
    write_seconds_per_position: float = 0.0  # compressing and checksumming a pack's codes
    read_seconds_per_position: float = 0.0  # decompressing a child's codes into an array
    read_positions: int = 0  # child positions the solve decompresses, re-reads included
    bytes_per_position: float = 0.0
    one_core_seconds: float = 0.0
    level_floor_seconds: list[float] = field(default_factory=list)  # slowest tier per level
    level_seconds: list[float] = field(default_factory=list)  # all tiers of a level, 1 core
    level_read_seconds: list[float] = field(default_factory=list)  # of which reading children
    peak_worker_bytes: int = 0
    disk_bytes: int = 0
    budget: int = DEFAULT_BUDGET

    def seconds_on(self, cores: int) -> float:
        """Predicted wall time on `cores` workers: the solving and writing of a level shared
        among them, its reading of children one at a time (the threads of a solve read
        through one cache, under its lock)."""
        return sum(
            max((t - r) / cores + r, f)
            for t, r, f in zip(
                self.level_seconds, self.level_read_seconds, self.level_floor_seconds, strict=True
            )
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
    t_all = time.perf_counter()
    warm_kernel(game, list(level_of))
    spp: dict[int, float] = {}
    sampled = TierSample()
    for cls, tiers in sorted(by_class.items()):
        got = sample_tiers(game, picks(tiers, cls, samples))
        spp[cls] = got.solve_seconds / max(1, got.positions)
        sampled.add(got)
    est = Estimate(
        tiers=len(level_of),
        positions=plan.positions,
        levels=len(plan.levels),
        sampled_tiers=sampled.tiers,
        sampled_positions=sampled.positions,
        sample_seconds=0.0,
        seconds_per_position=spp,
        write_seconds_per_position=sampled.write_seconds / max(1, sampled.positions),
        read_seconds_per_position=sampled.read_seconds / max(1, sampled.positions),
        bytes_per_position=sampled.packed_bytes / max(1, sampled.positions),
        budget=budget,
    )
    reads = child_reads(game, plan, budget // 2)
    est.read_positions = sum(reads)
    for lv, packs in enumerate(plan.levels):
        total = 0.0
        floor = 0.0
        for p in packs:
            for t in p.tiers:
                n = game.tier_size(t)
                s = n * (spp[_class(n)] + est.write_seconds_per_position)
                total += s
                floor = max(floor, s)
        est.level_read_seconds.append(reads[lv] * est.read_seconds_per_position)
        total += est.level_read_seconds[-1]
        est.level_seconds.append(total)
        est.level_floor_seconds.append(floor)
    est.one_core_seconds = sum(est.level_seconds)
    est.sample_seconds = time.perf_counter() - t_all
    biggest = max(level_of, key=game.tier_size)
    children = sum(game.tier_size(c) for c in game.child_tiers(biggest))
    blob = sum(a.nbytes for a in game.tier_context(biggest) if isinstance(a, np.ndarray))
    est.peak_worker_bytes = BYTES_PER_POSITION * game.tier_size(biggest) + 4 * children + blob
    est.disk_bytes = int(est.bytes_per_position * plan.positions)
    return est


@dataclass
class TierSample:
    """What solving a few tiers with stand-in children measured: processor seconds of
    solving and counting, of writing their codes as a pack and of reading them back, and
    the bytes the codes took packed."""

    tiers: int = 0
    positions: int = 0
    solve_seconds: float = 0.0
    write_seconds: float = 0.0
    read_seconds: float = 0.0
    packed_bytes: int = 0

    def add(self, other: TierSample) -> None:
        """Add another sample's figures to these."""
        self.tiers += other.tiers
        self.positions += other.positions
        self.solve_seconds += other.solve_seconds
        self.write_seconds += other.write_seconds
        self.read_seconds += other.read_seconds
        self.packed_bytes += other.packed_bytes


def picks(tiers: list[int], cls: int, samples: int) -> list[int]:
    """The tiers of size class `cls` to sample: `samples` spread over them by id, one alone
    above 2^MANY_SAMPLES_CLASS positions."""
    many = samples if cls <= MANY_SAMPLES_CLASS else 1
    return tiers[:: max(1, len(tiers) // many)][:many]


def warm_kernel(game: TierGame, tiers: list[int]) -> None:
    """Solve the smallest of `tiers` once, so that loading the compiled code is not timed."""
    smallest = min(tiers, key=game.tier_size)
    solve_one_tier(game, smallest, stand_ins(game, smallest))


def sample_tiers(game: TierGame, tiers: list[int]) -> TierSample:
    """Solve `tiers` with stand-in children and count their values as a solve does, then
    write their codes as a pack holds them and read them back, each step timed by this
    thread's processor clock (a busy machine does not inflate it)."""
    out = TierSample()
    for t in tiers:
        kids = stand_ins(game, t)
        t0 = time.thread_time()
        codes = solve_one_tier(game, t, kids)[0]
        game.weighted_counts(t, codes)
        out.solve_seconds += time.thread_time() - t0
        del kids
        blobs, spent = _written(codes)
        out.write_seconds += spent
        out.read_seconds += _read_back(blobs, codes)
        out.tiers += 1
        out.positions += len(codes)
        out.packed_bytes += sum(len(b) for b in blobs)
    return out


def _written(codes: npt.NDArray[np.uint16]) -> tuple[list[bytes], float]:
    """A tier's codes as a pack holds them (blocks compressed, each with its CRC-32, all under
    one SHA-256), and the processor time that took."""
    t0 = time.thread_time()
    arr = narrow(codes)
    sha = hashlib.sha256()
    blobs = []
    for lo in range(0, max(1, len(arr)), BLOCK_ENTRIES):
        blob = compress(arr[lo : lo + BLOCK_ENTRIES].tobytes(), DEFAULT_CODEC)
        sha.update(blob)
        zlib.crc32(blob)
        blobs.append(blob)
    return blobs, time.thread_time() - t0


def _read_back(blobs: list[bytes], codes: npt.NDArray[np.uint16]) -> float:
    """The processor time of reading a child tier back from its blocks into an array."""
    arr = narrow(codes)
    width = arr.dtype.itemsize
    t0 = time.thread_time()
    out = np.empty(len(arr), np.uint16)
    for k, blob in enumerate(blobs):
        lo = k * BLOCK_ENTRIES
        n = min(BLOCK_ENTRIES, len(arr) - lo)
        if n <= 0:
            break
        zlib.crc32(blob)
        raw = decompress(blob, DEFAULT_CODEC, n * width)
        out[lo : lo + n] = np.frombuffer(raw, dtype=arr.dtype)
    return time.thread_time() - t0


def child_reads(game: TierGame, plan: Plan, cache: int) -> list[int]:
    """Child positions each level decompresses: a child tier each time it is not in a cache of
    `cache` bytes of codes (least recently used out), packs in the plan's order."""
    held: OrderedDict[int, int] = OrderedDict()
    used = 0
    out = []
    for packs in plan.levels:
        count = 0
        for p in packs:
            for t in p.tiers:
                for c in game.child_tiers(t):
                    if c in held:
                        held.move_to_end(c)
                        continue
                    n = game.tier_size(c)
                    count += n
                    held[c] = 2 * n
                    used += 2 * n
                    while used > cache and len(held) > 1:
                        used -= held.popitem(last=False)[1]
        out.append(count)
    return out


# draw, win, loss and the mean run of one value: about what the children of classic 5×5's and
# 6×6's largest tiers hold (70-90% draws, runs of 5-15 positions); docs/solver.md
STAND_IN_MIX = (0.75, 0.19, 0.06)
STAND_IN_RUN = 16.0
STAND_IN_DEPTH = 40  # remoteness drawn from 0 .. this - 1


def stand_in_codes(
    size: int, seed: int, mix: tuple[float, float, float] = STAND_IN_MIX, run: float = STAND_IN_RUN
) -> npt.NDArray[np.uint16]:
    """Codes for a child tier that is not solved yet: runs of one value (draw, win or loss in
    the proportions `mix`, of mean length `run`, each run with its own remoteness), as solved
    tiers hold them, so that the kernel does the work of a real solve. Values drawn one by one
    cost the kernel three to four times what real children do (its branches on a value are
    mispredicted), and all draws leave half its work undone."""
    rng = np.random.default_rng(seed)
    mean = max(1.0, run)
    count = int(size / mean) + 16
    lengths = rng.geometric(1.0 / mean, count)
    while int(lengths.sum()) < size:
        lengths = np.concatenate([lengths, rng.geometric(1.0 / mean, count)])
    kind = rng.choice(3, size=len(lengths), p=np.asarray(mix, dtype=float) / sum(mix))
    rem = rng.integers(0, STAND_IN_DEPTH, size=len(lengths))
    run_codes = np.where(kind == 0, 1, 2 + 2 * rem + (kind == 2)).astype(np.uint16)
    out: npt.NDArray[np.uint16] = np.repeat(run_codes, lengths)[:size]
    return out


def stand_ins(game: TierGame, tier: int) -> list[npt.NDArray[np.uint16]]:
    """Stand-in children of `tier`, each seeded by its id."""
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


def _disk(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


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
    writing = est.write_seconds_per_position * est.positions
    reading = est.read_seconds_per_position * est.read_positions
    console.print(
        f"  of which writing packs {span(writing)}, reading children {span(reading)} "
        f"({est.read_positions / 1e6:,.0f} M child positions, a cache of "
        f"{est.budget / 2 / gib:g} GiB)",
        soft_wrap=True,
    )
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
        f"disk: about {_disk(est.disk_bytes)} ({est.bytes_per_position:.3f} bytes per "
        "position in the sample)"
    )
