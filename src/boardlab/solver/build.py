"""Solving whole boards: slice order, symmetry, parallel workers and resumable work dirs.

A work dir holds `scratch.u8` (the whole index space, shared by the workers through mmap;
`scratch.u16` under `wide/` if some code does not fit a byte) and part files of solved
slices (`parts/<bk>-<rk>.part`, named by their first slice, each written to a temporary name
and renamed). A run first loads every valid part into the scratch file, then solves the
rest in level order; the part files alone decide what is done, so any interruption is safe.

`plan` and `solve_slices` are the interface a cluster scheduler can drive: run the levels
in order, and within a level hand out the slice lists to any number of workers that share
the work dir.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardLabError
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.solver.index import IndexScheme, geometry_rules, scheme_for
from boardlab.solver.kernel import mirror_slice, solve_slice

Table = npt.NDArray[Any]
Scratch = np.memmap[Any, np.dtype[Any]]
Slice = tuple[int, int]
PART_MAGIC = b"BLPART1\n"


class SolveError(BoardLabError):
    """The solver found its own state inconsistent (a bug, never bad input)."""


class CodeOverflow(SolveError):
    """A remoteness too large for the scratch table's element type."""


def plan(rules: DodgemRules, symmetry: bool = True) -> list[list[Slice]]:
    """Slices to solve, grouped by level from the highest (first to solve) down.

    With `symmetry`, only slices with blue key <= red key are listed; the others are
    copies made by `solve_slices`."""
    sch = scheme_for(geometry_rules(rules))
    k = sch.num_keys
    by_level: dict[int, list[Slice]] = {}
    for bk in range(k):
        for rk in range(k):
            if symmetry and bk > rk:
                continue
            by_level.setdefault(sch.level(bk, rk), []).append((bk, rk))
    return [by_level[lv] for lv in sorted(by_level, reverse=True)]


def _kernel_args(sch: IndexScheme) -> tuple[object, ...]:
    b, r = sch.blue_moves, sch.red_moves
    return (
        sch.num_keys,
        sch.key_size,
        sch.key_offset,
        sch.slice_offset,
        sch.key_of,
        sch.blue_mask,
        sch.red_mask,
        b.dest,
        b.child,
        b.kind,
        b.un_src,
        b.un_parent,
        r.dest,
        r.child,
        r.kind,
        r.un_src,
        r.un_parent,
    )


def solve_one(table: Table, rules: DodgemRules, bk: int, rk: int, symmetry: bool) -> int:
    """Solve one slice in place (and its mirror with `symmetry`); returns its max remoteness."""
    sch = scheme_for(geometry_rules(rules))
    res = int(
        solve_slice(  # type: ignore[call-arg]
            table,
            bk,
            rk,
            *_kernel_args(sch),
            rules.blocked == "wins",
            rules.goal == "misere",
            int(np.iinfo(table.dtype).max),
        )
    )
    if res == -1:
        raise SolveError(f"slice {bk}-{rk} of {rules.ruleset_id()} needs an unsolved slice")
    if res == -2:
        raise CodeOverflow(f"slice {bk}-{rk} of {rules.ruleset_id()}: codes exceed {table.dtype}")
    if symmetry and bk != rk:
        mirror_slice(table, bk, rk, sch.num_keys, sch.key_size, sch.slice_offset)
    return res


def check_supported(rules: DodgemRules) -> None:
    """Raise unless the solver handles these rules (sizes 3-5, classic geometry, no pass)."""
    if rules.geometry != "classic" or rules.blocked == "passes" or not 3 <= rules.size <= 5:
        raise BoardLabError(
            f"no tablebase for {rules.ruleset_id()}: the solver covers classic Dodgem "
            "(blocked wins or loses, any goal) on 3×3 to 5×5 boards"
        )


def solve_in_memory(rules: DodgemRules, symmetry: bool = True) -> Table:
    """The complete code table of a board, solved in this process (small boards, tests)."""
    check_supported(rules)
    sch = scheme_for(geometry_rules(rules))
    table = np.zeros(sch.total, dtype=np.uint16)
    for level in plan(rules, symmetry):
        for bk, rk in level:
            solve_one(table, rules, bk, rk, symmetry)
    return table


# -- work dir ----------------------------------------------------------------------------


_RECORD = struct.Struct("<IIQI")  # bk, rk, byte length, CRC-32 of the codes


def _write_part(work: Path, table: Table, sch: IndexScheme, slices: Sequence[Slice]) -> None:
    """One part file for a list of solved slices, written to a temporary name and renamed."""
    chunks = [PART_MAGIC, struct.pack("<I", len(slices))]
    for bk, rk in slices:
        lo = int(sch.slice_offset[bk * sch.num_keys + rk])
        data = table[lo : lo + sch.slice_size(bk, rk)].tobytes()
        chunks += [_RECORD.pack(bk, rk, len(data), zlib.crc32(data)), data]
    bk, rk = slices[0]
    path = work / "parts" / f"{bk}-{rk}.part"
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"".join(chunks))
    os.replace(tmp, path)


def _read_parts(work: Path, sch: IndexScheme) -> dict[Slice, Table]:
    """Every slice of every intact part file (damaged or foreign records are skipped)."""
    dtype = _dtype(work)
    out: dict[Slice, Table] = {}
    for path in sorted((work / "parts").glob("*.part")):
        raw = path.read_bytes()
        if not raw.startswith(PART_MAGIC) or len(raw) < len(PART_MAGIC) + 4:
            continue
        (count,) = struct.unpack_from("<I", raw, len(PART_MAGIC))
        at = len(PART_MAGIC) + 4
        for _ in range(count):
            if at + _RECORD.size > len(raw):
                break
            bk, rk, length, crc = _RECORD.unpack_from(raw, at)
            at += _RECORD.size
            data = raw[at : at + length]
            at += length
            k = sch.num_keys
            if bk >= k or rk >= k or length != dtype.itemsize * sch.slice_size(bk, rk):
                break
            if len(data) != length or zlib.crc32(data) != crc:
                break
            out[(bk, rk)] = np.frombuffer(data, dtype=dtype)
    return out


_WORKER: dict[str, object] = {}


def _dtype(work: Path) -> np.dtype[Any]:
    """Work dirs named `wide` hold 16-bit codes, others 8-bit."""
    return np.dtype(np.uint16) if work.name == "wide" else np.dtype(np.uint8)


def _open_scratch(work: Path, total: int) -> Scratch:
    dtype = _dtype(work)
    path = work / f"scratch.u{8 * dtype.itemsize}"
    mode: Any = "r+" if path.exists() and path.stat().st_size == dtype.itemsize * total else "w+"
    mm: Scratch = np.memmap(str(path), dtype=dtype, mode=mode, shape=(total,))
    return mm


def solve_slices(rules: DodgemRules, work: Path, slices: Sequence[Slice], symmetry: bool) -> int:
    """Solve slices whose children are done, writing scratch and part files; max remoteness."""
    sch = scheme_for(geometry_rules(rules))
    key = str(work)
    if _WORKER.get("work") != key:
        _WORKER["work"] = key
        _WORKER["table"] = _open_scratch(work, sch.total)
    table = _WORKER["table"]
    assert isinstance(table, np.memmap)
    arr = table.view(np.ndarray)
    best = 0
    for bk, rk in slices:
        best = max(best, solve_one(arr, rules, bk, rk, symmetry))
    if slices:
        _write_part(work, arr, sch, slices)
    return best


def _worker_solve_args(job: tuple[dict[str, Any], str, list[Slice], bool]) -> list[Slice]:
    opts, work, slices, symmetry = job
    solve_slices(DodgemRules(**opts), Path(work), slices, symmetry)
    return slices


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(items: list[Slice], parts: int, most: int = 64) -> list[list[Slice]]:
    size = max(1, min(most, len(items) // (4 * parts) or 1))
    return [items[i : i + size] for i in range(0, len(items), size)]


def solve_to_workdir(
    rules: DodgemRules,
    work: Path,
    jobs: int = 1,
    symmetry: bool = True,
    on_progress: Callable[[int, int, int], None] | None = None,
    per_part: int = 64,
) -> Scratch:
    """Solve every slice not yet in `work`; returns the scratch table (a memmap).

    Codes are bytes unless `work` is named `wide` (then 16 bits); CodeOverflow says a byte
    was too small.
    `on_progress(done_slices, total_slices, positions_done)` follows every finished chunk."""
    check_supported(rules)
    sch = scheme_for(geometry_rules(rules))
    (work / "parts").mkdir(parents=True, exist_ok=True)
    table = _open_scratch(work, sch.total)
    arr = table.view(np.ndarray)
    levels = plan(rules, symmetry)
    total = sum(len(lv) for lv in levels)
    done = 0
    positions = 0
    todo: list[list[Slice]] = []
    parts = _read_parts(work, sch)
    for level in levels:
        rest = []
        for bk, rk in level:
            part = parts.pop((bk, rk), None)
            if part is None:
                rest.append((bk, rk))
                continue
            lo = int(sch.slice_offset[bk * sch.num_keys + rk])
            arr[lo : lo + len(part)] = part
            if symmetry and bk != rk:
                mirror_slice(arr, bk, rk, sch.num_keys, sch.key_size, sch.slice_offset)
            done += 1
            positions += sch.slice_size(bk, rk)
        todo.append(rest)
    if on_progress:
        on_progress(done, total, positions)
    table.flush()
    opts: dict[str, Any] = {"size": rules.size, "blocked": rules.blocked, "goal": rules.goal}
    # Forking is quick but unsafe in a process with other threads (a web server, a progress
    # bar): then the workers are started fresh.
    method = "fork" if threading.active_count() == 1 else "spawn"
    pool = mp.get_context(method).Pool(jobs, initializer=_ignore_sigint) if jobs > 1 else None
    clean = False
    try:
        for rest in todo:
            if not rest:
                continue
            if pool is None or len(rest) < 4:
                for chunk in _chunks(rest, 1, per_part):
                    solve_slices(rules, work, chunk, symmetry)
                    done += len(chunk)
                    positions += sum(sch.slice_size(*sl) for sl in chunk)
                    if on_progress:
                        on_progress(done, total, positions)
                continue
            chunks = _chunks(rest, jobs)
            args = [(opts, str(work), chunk, symmetry) for chunk in chunks]
            for chunk in pool.imap_unordered(_worker_solve_args, args):
                done += len(chunk)
                positions += sum(sch.slice_size(*sl) for sl in chunk)
                if on_progress:
                    on_progress(done, total, positions)
        clean = True
    finally:
        _WORKER.clear()
        if pool is not None:
            if clean:
                pool.close()
            else:  # interrupted or failed: stop the workers now (their parts are atomic)
                pool.terminate()
            pool.join()
    return table


@nb.njit(cache=True)
def _count(codes):  # type: ignore[no-untyped-def]
    counts = np.zeros(65536, np.int64)
    for i in range(codes.shape[0]):
        counts[codes[i]] += 1
    return counts


def count_codes(codes: Table) -> npt.NDArray[np.int64]:
    """How many entries hold each code (up to the largest code present)."""
    counts: npt.NDArray[np.int64] = _count(codes)
    nz = np.flatnonzero(counts)
    return counts[: int(nz[-1]) + 1 if len(nz) else 2]
