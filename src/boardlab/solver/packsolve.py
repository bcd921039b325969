"""Solving one pack: its tiers in order, each from its children's codes through the game's
compiled kernel, then the pack's file. The unit of work of a thread or a Dask worker."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.retrograde import run_solve
from boardlab.core.retrograde_work import (
    BAD_CHILD,
    NO_MOVES,
    TOO_BIG,
    TOO_DEEP,
    pooled_work,
    tally,
)
from boardlab.core.tiers import TierGame
from boardlab.core.timing import Stamp, add_time, processor_clock, stamp
from boardlab.solver.childcache import child_cache, shared_game
from boardlab.solver.folder import pack_path, summarise
from boardlab.solver.plan import Pack, SolveError, make_plan
from boardlab.solver.tierfile import DEFAULT_CODEC, write_pack

BYTES_PER_POSITION = 10  # kernel work arrays while a tier is solved (9.3, codes included)


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
    code = np.empty(size, np.uint16)  # the kernel writes every entry
    if timings is not None:
        add_time(timings, "join", t0)
    ctx = game.tier_context(tier)
    res = run_solve(game.kernel, ctx, size, children, code, work, timings)
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
    "join": "new codes; children side by side",
    "first pass": "kernel: first pass",
    "propagation": "kernel: propagation",
    "counts": "counting values",
    "write": "compressing and writing packs",
    "sync": "syncing packs to disk (a thread apart)",
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
    game = shared_game(spec)
    where = Path(folder)
    cache = child_cache(memory)
    solved: Solved = []
    held = 0  # bytes of the solved tiers, kept until the pack's file is written
    counts = np.zeros(65536, np.int64)
    work = pooled_work(largest, game.kernel.max_moves)  # one set for all of them
    hint = game.rebuild_command
    for tier in tiers:
        children = game.child_tiers(tier)
        t0 = stamp()
        kids = [cache.get(where, c, pack_of[c], hint) for c in children]
        add_time(timings, "children", t0)
        copied = len(kids) > 1 and not game.kernel.child_addresses
        joined = 2 * sum(len(k) for k in kids) if copied else 0
        need = BYTES_PER_POSITION * largest + joined + held  # the work arrays are kept
        cache.make_room(need, {cache.key(where, c) for c in children})
        code, rem = solve_one_tier(game, tier, kids, work, timings)
        del kids
        t0 = stamp()
        game.weighted_counts(tier, code, counts, tally(work, rem))
        add_time(timings, "counts", t0)
        solved.append((tier, code))
        held += code.nbytes
    return solved, counts


def pack_head(
    spec: dict[str, Any], pack: Pack, counts: npt.NDArray[np.int64]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A pack's file header and its summary (positions and counts), from its tiers' counts."""
    game = shared_game(spec)
    summary = summarise(counts)
    layout = {k: v for k, v in spec.items() if k != "adapter"}
    header = {
        "ruleset": game.ruleset_id,
        "layout": layout,
        "pack": pack.name,
        "level": pack.level,
        **summary,
    }
    return header, {"pack": pack.name, "positions": pack.positions, **summary}


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
    header, summary = pack_head(spec, pack, counts)
    t0 = stamp()
    size = write_pack(pack_path(Path(folder), pack.name), solved, header, codec)
    add_time(timings, "write", t0)
    keep_solved(folder, solved, memory)
    return {**summary, "bytes": size}


def keep_solved(folder: str, solved: Solved, memory: int) -> None:
    """Keep a pack's codes in the cache of child tiers: the next levels read them from
    memory while they fit."""
    cache = child_cache(memory)
    where = Path(folder)
    for tier, code in solved:
        cache.put(where, tier, code)


def book_python_rest(timings: dict[str, float], started: Stamp) -> None:
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
    counts), the same that its header holds, and under "timings" its phases' seconds (their
    processor seconds too: a worker cannot know whether the solve asked for them)."""
    with processor_clock():
        started = stamp()
        timings: dict[str, float] = {}
        solved, counts = solve_tiers(
            spec, folder, pack.tiers, pack.largest, pack_of, memory, timings
        )
        out = write_solved_pack(spec, folder, pack, solved, counts, memory, codec, timings)
        book_python_rest(timings, started)
    return {**out, "timings": timings}
