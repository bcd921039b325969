"""How far the retrograde kernel stands from the machine's floor: its cost per edge (a child
read of the first pass, or a parent of the propagation) against a plain compiled loop that
makes the same number of reads from an array that stays in the first-level cache.

The largest tiers of a board (Dodgem, classic 5×5 by default) are solved one at a time with
their real children, read from a solved table (`--tables`, built first if missing), or with
stand-in children (`--stand-ins`, no table needed). Each tier is timed several times and the
fastest run kept (processor time of the thread: a busy machine leaves it comparable).

    python benchmarks/kernel_floor.py [--size 5] [--variant classic] [--tiers 6] [--stand-ins]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
from _machine import header

from boardlab.core.retrograde_body import child_value
from boardlab.core.retrograde_children import NO_CHILD_CODES, child_addresses, side_by_side
from boardlab.core.retrograde_work import DRAW, INVALID, NONE, pooled_work
from boardlab.core.tiers import TierGame
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import ensure_table, require_game
from boardlab.solver.estimate import stand_in_codes
from boardlab.solver.packsolve import solve_one_tier
from boardlab.solver.plan import make_plan

REPEATS = 5


@nb.njit(cache=False, nogil=True)  # takes compiled functions: not cacheable
def count_edges(primitive, moves, unmoves, ctx, size, child_codes, child_base, code, slot, idx):  # type: ignore[no-untyped-def]
    """(child reads, in-tier moves) of the undecided positions and the parents listed by the
    un-moves of every position that the solve decides (a win or a loss): the edges the kernel
    walks."""
    reads = 0
    inside = 0
    parents = 0
    for p in range(size):
        pr = primitive(ctx, p)
        if pr == 1:
            n = moves(ctx, p, slot, idx)
            for j in range(n):
                if slot[j] < 0:
                    inside += 1
                else:
                    reads += 1
        if code[p] != INVALID and code[p] != DRAW:
            parents += unmoves(ctx, p, idx)
    return reads, inside, parents


@nb.njit(cache=True, nogil=True)
def plain_reads(codes, count):  # type: ignore[no-untyped-def]
    """`count` reads of `codes` (which stays in cache) at scattered places, each folded into a
    fastest win, a longest loss and a drawn flag by the kernel's own `child_value` (which
    has no branch on the code: the codes come in no order a processor could predict)."""
    mask = codes.shape[0] - 1
    win = NONE
    loss = 0
    drawn = 0
    h = np.uint64(0)
    for _ in range(count):
        h = h * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        cc = codes[np.int64(h >> np.uint64(40)) & mask]
        win, loss, drawn = child_value(cc, win, loss, drawn)
    return win + loss + drawn


@nb.njit(cache=True, nogil=True)
def plain_sum(codes, count):  # type: ignore[no-untyped-def]
    """`count` reads of `codes` at the same scattered places, only summed: the floor of a
    read from the first-level cache."""
    mask = codes.shape[0] - 1
    total = 0
    h = np.uint64(0)
    for _ in range(count):
        h = h * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        total += codes[np.int64(h >> np.uint64(40)) & mask]
    return total


def best_of(fn: Callable[[], Any], repeats: int = REPEATS) -> float:
    """The fastest of `repeats` runs, in seconds of this thread's processor time."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best


def children_of(game: TierGame, tier: int, table: Any | None) -> list[npt.NDArray[np.uint16]]:
    """The codes of a tier's children: from the table, else stand-ins."""
    if table is None:
        return [stand_in_codes(game.tier_size(c), c) for c in game.child_tiers(tier)]
    out = []
    plan_pack = table.manifest["pack_tiers"]
    where = {t: name for name, ts in plan_pack.items() for t in ts}
    for c in game.child_tiers(tier):
        out.append(table.pack(where[c]).tier_codes(c))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--tiers", type=int, default=6, help="how many of the largest tiers")
    ap.add_argument("--tables", type=Path, default=None, help="tables folder (built if missing)")
    ap.add_argument("--stand-ins", action="store_true", help="stand-in children, no table")
    args = ap.parse_args()
    print(header("kernel per-edge cost against the floor"))
    rules = rules_for(args.variant, args.size)
    game = require_game(rules)
    with tempfile.TemporaryDirectory() as tmp:
        table = None
        if not args.stand_ins:
            table = ensure_table(rules, args.tables or Path(tmp))
        plan = make_plan(game)
        tiers = sorted(plan.pack_of, key=lambda t: (-game.tier_size(t), t))[: args.tiers]
        k = game.kernel
        floor_codes = np.ones(1 << 13, np.uint16)  # 16 KiB: stays in the first-level cache
        floor_codes[::3] = 7
        floor_codes[1::3] = 10
        plain_reads(floor_codes, 10)
        plain_sum(floor_codes, 10)
        print(
            "floor: as many reads of a 16 KiB array as the tier has edges, folded as the kernel"
            " folds a child's code (fold), or only summed (sum)"
        )
        print(
            f"{'tier':>9} {'positions':>10} {'reads':>11} {'in-tier':>10} {'parents':>11}"
            f" {'solve ms':>9} {'ns/pos':>7} {'ns/edge':>8} {'fold ns':>8} {'sum ns':>7}"
            f" {'ratio':>6}"
        )
        tot_edges = tot_s = tot_floor = tot_sum = 0.0
        for tier in tiers:
            kids = children_of(game, tier, table)
            size = game.tier_size(tier)
            code, _ = solve_one_tier(game, tier, kids)
            joined, base = side_by_side(kids, np.uint16)
            ctx = game.tier_context(tier)
            work = pooled_work(size, k.max_moves)
            out = np.zeros(size, np.uint16)

            # the entry reads the children where they lie, or side by side (see TierKernel)
            by_address = (NO_CHILD_CODES, child_addresses(kids)) if k.child_addresses else None
            given = by_address or (joined, base)

            def solve(
                ctx: Any = ctx,
                size: int = size,
                given: Any = given,
                kids: Any = kids,  # kept alive while the entry reads them
                out: Any = out,
                work: Any = work,
            ) -> None:
                assert k.solve is not None
                k.solve(ctx, size, k.max_moves, given[0], given[1], out, work)

            seconds = best_of(solve)
            slot = np.empty(k.max_moves, np.int64)
            idx = np.empty(k.max_moves, np.int64)
            reads, inside, parents = count_edges(
                k.primitive, k.moves, k.unmoves, ctx, size, joined, base, code, slot, idx
            )
            edges = reads + inside + parents
            floor = best_of(lambda edges=edges: plain_reads(floor_codes, edges))
            summed = best_of(lambda edges=edges: plain_sum(floor_codes, edges))
            tot_edges += edges
            tot_s += seconds
            tot_floor += floor
            tot_sum += summed
            print(
                f"{game.tier_name(tier):>9} {size:10,} {reads:11,} {inside:10,} {parents:11,}"
                f" {seconds * 1e3:9.1f} {seconds / size * 1e9:7.1f} {seconds / edges * 1e9:8.2f}"
                f" {floor / edges * 1e9:8.2f} {summed / edges * 1e9:7.2f} {seconds / floor:6.1f}"
            )
        per_edge = tot_s / tot_edges * 1e9
        per_read = tot_floor / tot_edges * 1e9
        per_sum = tot_sum / tot_edges * 1e9
        print(
            f"all: {per_edge:.2f} ns per edge; floor {per_read:.2f} ns per read folded "
            f"({tot_s / tot_floor:.1f} times), {per_sum:.2f} ns summed "
            f"({tot_s / tot_sum:.1f} times)"
        )


if __name__ == "__main__":
    main()
