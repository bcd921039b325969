"""Statistics of built tables: counts over all positions (from the manifest) and over the
positions reachable from the start (a walk over the tiers, children last, bounded memory).

Reachability walks the game without symmetry (`full_game()`): a tier's reached marks are
complete once every tier with a move into it is done, which the level order guarantees, so
each tier is walked once, then its marks are counted against its codes (unfolded from the
stored canonical tier) and dropped. The tiers of a level have no moves between them, so they
are walked on several threads at once.

Small boards (up to `FLAT_LIMIT` positions of the full game, every board up to 5×5) walked in
memory keep one byte per position of the whole game in one array (`FlatMarks`): the kernel
marks the children straight in it, with nothing to pack, merge or unpack. Beyond that, the
marks of the tiers not yet walked are kept one bit per position (`ReachMarks`): in memory,
or given a folder, in memory up to a budget, beyond it in one compressed file per tier. At
the end of a level, at most once a minute, every mark is written out and `state.json`
records the levels walked and their counts: a walk stopped at any moment resumes from the
last level saved. The files of the tiers walked since are removed only after the next save,
and marking a child twice is harmless. Memory stays within the budget and a
few tiers' worth: the 6×6 boards' marks would take up to 57 GB as bytes (7 GB as bits).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardLabError
from boardlab.core.retrograde_reach import run_reach
from boardlab.solver.api import Tablebase
from boardlab.solver.plan import tier_levels

U8 = npt.NDArray[np.uint8]
STATE = "state.json"
MARKS_SUFFIX = ".bits"
REACH_VERSION = 1
REACH_IN_MEMORY = 1 << 32  # positions of the full game up to which marks stay in memory
FLAT_LIMIT = 1 << 31  # positions up to which an in-memory walk keeps a byte each (FlatMarks)
MARKS_BUDGET = 2 << 30  # bytes of marks held in memory when they are kept in a folder
CHECKPOINT_SECONDS = 60.0  # a walk with a folder saves its state this often, at a level's end
ReachProgress = Callable[[int, int, int, int, int], None]
"""(level, tiers done in it, its tiers, positions done, all positions of the full game)"""


# bit j of (v * PACK) >> 56 is byte j of v, when every byte of v is 0 or 1 (the products of
# the bytes land on distinct bits below bit 56, or above 63, except the eight wanted ones)
PACK = np.uint64(0x0102040810204080)


@nb.njit(cache=True, nogil=True)
def harvest(words, lo, hi, bits):  # type: ignore[no-untyped-def]
    """Pack the marks (bytes 0 or 1) of words[lo:hi], eight to a uint64, into `bits` (one
    byte per word, little-endian bit order, as np.packbits(..., bitorder="little")) and
    clear them; returns whether any was set. One pass instead of any, packbits and fill."""
    hit = False
    for k in range(lo, hi):
        v = words[k]
        if v == 0:
            bits[k - lo] = 0
            continue
        bits[k - lo] = (v * PACK) >> np.uint64(56)
        words[k] = 0
        hit = True
    return hit


@dataclass
class TableStats:
    """Counts over all and reachable positions, the start's value, longest result, histograms."""

    all: dict[str, int]
    start: dict[str, Any]
    max_remoteness: int
    histogram: dict[str, list[int]]  # win / loss counts by remoteness
    reachable: dict[str, int] | None = None
    reachable_histogram: dict[str, list[int]] | None = None

    def as_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "all": self.all,
            "reachable": self.reachable,
            "start": self.start,
            "max_remoteness": self.max_remoteness,
            "histogram": self.histogram,
            "reachable_histogram": self.reachable_histogram,
        }


class ReachMarks:
    """The reached marks of tiers not yet walked, one bit per index (little-endian bit order).

    In memory; or, with a `folder`, in memory up to `budget` bytes, least recently used
    tiers written out (zstd, one file per tier, through a temporary name and a rename) and
    read back when needed; `flush` writes out the rest. Threads may merge at once."""

    def __init__(self, folder: Path | None = None, budget: int = MARKS_BUDGET) -> None:
        self.folder = folder
        self.budget = budget
        self.used = 0
        self._bits: OrderedDict[int, U8] = OrderedDict()
        self._dirty: set[int] = set()  # held here, newer than their file
        self._lock = threading.Lock()

    def _path(self, tier: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{tier}{MARKS_SUFFIX}"

    def _get(self, tier: int) -> U8 | None:
        """A tier's bits, from memory or its file (the lock held)."""
        bits = self._bits.get(tier)
        if bits is not None:
            self._bits.move_to_end(tier)
            return bits
        if self.folder is None:
            return None
        try:
            blob = self._path(tier).read_bytes()
        except FileNotFoundError:
            return None
        import zstandard

        try:
            raw = zstandard.ZstdDecompressor().decompress(blob)
        except zstandard.ZstdError as exc:
            raise BoardLabError(
                f"{self._path(tier)}: damaged reachability marks; remove {self.folder} and "
                "run stats again"
            ) from exc
        bits = np.frombuffer(raw, np.uint8).copy()
        self._keep(tier, bits)
        return bits

    def _keep(self, tier: int, bits: U8) -> None:
        """Hold `bits` as the most recent entry, writing out the least recent ones beyond the
        budget (the lock held)."""
        old = self._bits.pop(tier, None)
        if old is not None:
            self.used -= old.nbytes
        self._bits[tier] = bits
        self.used += bits.nbytes
        while self.folder is not None and self.used > self.budget and len(self._bits) > 1:
            victim, vbits = self._bits.popitem(last=False)
            self.used -= vbits.nbytes
            if victim in self._dirty:
                self._write(victim, vbits)

    def _write(self, tier: int, bits: U8) -> None:
        import zstandard

        path = self._path(tier)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(zstandard.ZstdCompressor(level=1).compress(bits.tobytes()))
        os.replace(tmp, path)
        self._dirty.discard(tier)

    def merge(self, tier: int, reached: U8) -> None:
        """OR a tier's marks (one byte per index, 0 or 1) into what it holds."""
        if reached.any():
            self.merge_bits(tier, np.packbits(reached, bitorder="little"))

    def merge_bits(self, tier: int, bits: U8) -> None:
        """OR a tier's marks, packed as `merge` packs them, into what it holds."""
        with self._lock:
            old = self._get(tier)
            if old is not None:
                np.bitwise_or(bits, old, out=bits)
            self._keep(tier, bits)
            self._dirty.add(tier)

    def take(self, tier: int, size: int) -> U8 | None:
        """A tier's marks as one byte per index (None when nothing reached it)."""
        with self._lock:
            bits = self._get(tier)
        if bits is None:
            return None
        return np.unpackbits(bits, count=size, bitorder="little")

    def has(self, tier: int) -> bool:
        """Whether anything reached the tier."""
        with self._lock:
            if tier in self._bits:
                return True
        return self.folder is not None and self._path(tier).exists()

    def flush(self) -> None:
        """Write out every tier's marks held only in memory (with a folder)."""
        with self._lock:
            if self.folder is not None:
                for tier in sorted(self._dirty):
                    self._write(tier, self._bits[tier])

    def drop(self, tier: int, file: bool = True) -> None:
        """Forget a tier's marks (walked); its file too unless `file` is False (it may be
        needed to walk again from the last saved level)."""
        with self._lock:
            bits = self._bits.pop(tier, None)
            if bits is not None:
                self.used -= bits.nbytes
            self._dirty.discard(tier)
            if file and self.folder is not None:
                self._path(tier).unlink(missing_ok=True)


class FlatMarks:
    """The reached marks of every tier of a small full game, one byte per index, the tiers
    side by side in one array: a tier's walk marks its children in place (an index is only
    ever set to 1 by the walks of other tiers, so the threads may write at once)."""

    def __init__(self, full: Any, tiers: list[int]) -> None:
        self.offset: dict[int, int] = {}
        self.size: dict[int, int] = {}
        at = 0
        for t in tiers:
            self.offset[t] = at
            self.size[t] = int(full.tier_size(t))
            at += self.size[t]
        self.bytes = np.zeros(at, np.uint8)  # pages of zeros until written

    def view(self, tier: int) -> U8:
        """A tier's marks (a view)."""
        at = self.offset[tier]
        return self.bytes[at : at + self.size[tier]]

    def has(self, tier: int) -> bool:
        """Whether anything reached the tier."""
        return bool(self.view(tier).any())


def _read_state(folder: Path) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads((folder / STATE).read_text())
        return data
    except (OSError, ValueError):
        return None


def _write_state(folder: Path, state: dict[str, Any]) -> None:
    tmp = folder / f".{STATE}.tmp"
    tmp.write_text(json.dumps(state, sort_keys=True) + "\n")
    os.replace(tmp, folder / STATE)


def reachable_counts(
    table: Tablebase,
    start: Any,
    threads: int | None = None,
    folder: Path | None = None,
    on_progress: ReachProgress | None = None,
    budget: int = MARKS_BUDGET,
    checkpoint: float = CHECKPOINT_SECONDS,
) -> npt.NDArray[np.int64]:
    """How many positions reachable from `start` hold each code, walking the tiers of each
    level on `threads` threads (default: the cores; the kernel releases the GIL). With a
    `folder`, the marks beyond `budget` bytes are kept there and a walk stopped at any point
    resumes from the last level saved, at the end of a level at least `checkpoint` seconds
    after the last save (see the module docstring); the folder is removed once the walk is
    done."""
    game = table.game
    full = game.full_game()
    levels = tier_levels(full)
    by_level: dict[int, list[int]] = {}
    for t, lv in levels.items():
        by_level.setdefault(lv, []).append(t)
    all_positions = sum(full.tier_size(t) for t in levels)
    t0, i0 = full.locate(start)
    identity = {"version": REACH_VERSION, "ruleset": game.ruleset_id, "start": str(start)}
    total = np.zeros(65536, np.int64)
    walked_from = max(by_level) + 1  # every level at or above this one is walked
    marks = ReachMarks(folder, budget)
    small = folder is None and all_positions <= FLAT_LIMIT
    flat = FlatMarks(full, sorted(levels)) if small else None
    state = _read_state(folder) if folder is not None else None
    if folder is not None:
        if state is not None and all(state.get(k) == v for k, v in identity.items()):
            walked_from = int(state["level"])
            for code, n in state["counts"]:
                total[code] = n
            for t, lv in levels.items():  # left by a stop between saving and dropping
                if lv >= walked_from:
                    marks.drop(t)
        else:
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            state = None
    if state is None:
        if flat is not None:
            flat.view(t0)[i0] = 1
        else:
            seed = np.zeros(full.tier_size(t0), np.uint8)
            seed[i0] = 1
            marks.merge(t0, seed)
        if folder is not None:
            marks.flush()
            _write_state(folder, {**identity, "level": walked_from, "counts": []})
    done = sum(full.tier_size(t) for t, lv in levels.items() if lv >= walked_from)
    kept = threading.local()
    # the codes that occur: counts kept that long (a tier's counts are added up per tier)
    ncodes = min(65536, 2 * int(table.header.get("max_remoteness", 32766)) + 4)

    def walk(tier: int, canon_codes: npt.NDArray[np.uint16], counts: npt.NDArray[np.int64]) -> None:
        if flat is not None:  # the children's marks are in the same array
            base = np.array([flat.offset[c] for c in full.child_tiers(tier)], np.int64)
            ctx = full.tier_context(tier)
            codes = game.unfold(tier, canon_codes)
            run_reach(full.kernel, ctx, flat.view(tier), flat.bytes, base, codes, counts)
            return
        mark = marks.take(tier, full.tier_size(tier))
        if mark is None:
            return
        kids = list(full.child_tiers(tier))
        # the children's marks of this tier alone, side by side in one array (one flat
        # index in the kernel), each child's starting on a multiple of 8, merged into the
        # children's marks when done
        sizes = [full.tier_size(c) for c in kids]
        base = np.zeros(len(kids) + 1, np.int64)
        np.cumsum([-(-n // 8) * 8 for n in sizes], out=base[1:])
        n = max(8, int(base[-1]))
        held: U8 | None = getattr(kept, "buf", None)
        if held is None or len(held) < n:  # the thread's buffer, kept clear: no page faults
            kept.buf = held = np.zeros(n, np.uint8)
        codes = game.unfold(tier, canon_codes)
        run_reach(full.kernel, full.tier_context(tier), mark, held[:n], base, codes, counts)
        words = held.view(np.uint64)
        for i, c in enumerate(kids):
            bits = np.empty((base[i + 1] - base[i]) // 8, np.uint8)
            if harvest(words, base[i] // 8, base[i + 1] // 8, bits):
                marks.merge_bits(c, bits)

    def walk_stored(canon: int, tiers: list[int]) -> npt.NDArray[np.int64]:
        """Walk the tiers of the full game that one stored tier holds (it and its image
        under the symmetry, of the same level), reading its codes once, on a worker."""
        counts = np.zeros(ncodes, np.int64)
        codes = table.pack(table.pack_of(canon)).tier_codes(canon)
        for tier in tiers:
            walk(tier, codes, counts)
        return counts

    nthreads = max(1, threads or os.cpu_count() or 1)

    def walk_level(pool: ThreadPoolExecutor, lv: int) -> npt.NDArray[np.int64]:
        nonlocal done
        level_total = np.zeros(ncodes, np.int64)
        stored: dict[int, list[int]] = {}
        for t in sorted(by_level[lv]):
            if flat.has(t) if flat is not None else marks.has(t):
                stored.setdefault(game.canonical_tier(t), []).append(t)
            else:
                done += full.tier_size(t)
        ntiers = len(by_level[lv])
        finished = ntiers - sum(len(v) for v in stored.values())
        running: dict[Future[npt.NDArray[np.int64]], list[int]] = {}

        def collect(futures: set[Future[npt.NDArray[np.int64]]]) -> None:
            nonlocal done, finished
            for f in futures:
                level_total[:] += f.result()
                for t in running.pop(f):
                    done += full.tier_size(t)
                    finished += 1
            if on_progress:
                on_progress(lv, finished, ntiers, done, all_positions)

        # largest first, so that no thread is left with a large tier while the other idles
        # at the level's end
        by_size = sorted(stored, key=lambda c: (-sum(full.tier_size(t) for t in stored[c]), c))
        for canon in by_size:
            if len(running) >= 2 * nthreads:  # a bounded number of tiers in memory
                ready, _ = wait(running, return_when=FIRST_COMPLETED)
                collect(ready)
            running[pool.submit(walk_stored, canon, stored[canon])] = stored[canon]
        collect(set(running))
        return level_total

    saved = time.monotonic()
    walked: list[int] = []  # tiers walked since the last save: their files are still needed
    with ThreadPoolExecutor(nthreads) as pool:
        for lv in sorted(by_level, reverse=True):  # parents first
            if lv >= walked_from:
                continue
            total[:ncodes] += walk_level(pool, lv)
            walked += by_level[lv]
            for t in by_level[lv]:
                marks.drop(t, file=False)
            if folder is not None and time.monotonic() - saved >= checkpoint:
                # the marks first, then the levels walked with their counts, then the files
                # of the tiers walked (a stop at any point resumes from the saved level)
                marks.flush()
                counts = [[int(c), int(total[c])] for c in np.flatnonzero(total)]
                _write_state(folder, {**identity, "level": lv, "counts": counts})
                for t in walked:
                    marks.drop(t)
                walked.clear()
                saved = time.monotonic()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    return total


def _split(counts: npt.NDArray[np.int64]) -> tuple[dict[str, int], dict[str, list[int]]]:
    nz = np.flatnonzero(counts)
    top = max(0, (int(nz[-1]) - 2) // 2) if len(nz) and nz[-1] >= 2 else 0
    hist = {"win": [0] * (top + 1), "loss": [0] * (top + 1)}
    for code in nz:
        if code >= 2:
            hist["loss" if code & 1 else "win"][(int(code) - 2) // 2] += int(counts[code])
    win, loss, draw = sum(hist["win"]), sum(hist["loss"]), int(counts[1])
    return {"win": win, "loss": loss, "draw": draw, "positions": win + loss + draw}, hist


def reach_folder(table: Tablebase) -> Path | None:
    """Where the reachability walk keeps its marks: in memory (None) up to REACH_IN_MEMORY
    positions of the full game, else `reach/` in the table's folder."""
    full = table.game.full_game()
    if sum(full.tier_size(t) for t in full.tiers()) <= REACH_IN_MEMORY:
        return None
    return Path(table.path) / "reach"


def table_stats(
    rules: Any,
    table: Tablebase,
    reachable: bool = True,
    folder: Path | None = None,
    on_progress: ReachProgress | None = None,
) -> TableStats:
    """Statistics of a complete table (reachable counts unless `reachable` is False; the
    walk's marks in `folder`, else where `reach_folder` says)."""
    h = table.header
    counts = np.zeros(65536, np.int64)
    for code, n in h["histogram"]:
        counts[code] = n
    all_counts, hist = _split(counts)
    start = rules.start()
    value, rem = table.probe(start)
    st = TableStats(
        all=all_counts,
        start={"position": str(start), "value": value.value, "remoteness": rem},
        max_remoteness=int(h["max_remoteness"]),
        histogram=hist,
    )
    if reachable:
        where = folder if folder is not None else reach_folder(table)
        counts = reachable_counts(table, start, folder=where, on_progress=on_progress)
        st.reachable, st.reachable_histogram = _split(counts)
    return st
