"""The reachability walk of a tier (for `stats`): `reach_tier_body`, written once for
every game and inlined into a game's own entry, or run through the generic `reach_tier`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba as nb
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from boardlab.core.tiers import TierKernel


@nb.njit(inline="always")
def reach_tier_body(
    primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
):
    """Mark everything reachable inside a tier from its marked positions (`mark`, one byte
    per index), mark the children reached (child s at `child_marks[child_base[s]:]`), and add
    the codes of the tier's reached positions to `counts`. `stack` holds an index per
    position of the tier (each is pushed at most once); `slot` and `idx` hold the moves of
    one position. Allocates nothing: a game's entry can be compiled like its solve entry."""
    top = 0
    for i in range(mark.shape[0]):
        if mark[i]:
            stack[top] = i
            top += 1
    while top > 0:
        top -= 1
        p = np.int64(stack[top])
        if primitive(ctx, p) != 1:
            continue
        n = moves(ctx, p, slot, idx)
        for j in range(n):
            s = slot[j]
            if s >= 0:
                child_marks[child_base[s] + idx[j]] = 1
            elif mark[idx[j]] == 0:
                mark[idx[j]] = 1
                stack[top] = idx[j]
                top += 1
    for i in range(mark.shape[0]):
        if mark[i]:
            counts[codes[i]] += 1
    return 0


# not cached on disk, like solve_tier
@nb.njit(cache=False, nogil=True)
def reach_tier(
    primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
):
    """`reach_tier_body` for a game that has no compiled entry of its own."""
    return reach_tier_body(
        primitive, moves, ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx
    )


def run_reach(
    kernel: TierKernel,
    ctx: tuple[Any, ...],
    mark: npt.NDArray[np.uint8],
    child_marks: npt.NDArray[np.uint8],
    child_base: npt.NDArray[np.int64],
    codes: npt.NDArray[np.uint16],
    counts: npt.NDArray[np.int64],
) -> None:
    """Walk a tier's reachable positions with the game's compiled entry, or the generic one."""
    stack = np.empty(len(mark), np.uint32)
    slot, idx = np.empty(kernel.max_moves, np.int64), np.empty(kernel.max_moves, np.int64)
    if kernel.reach is not None:
        kernel.reach(ctx, mark, child_marks, child_base, codes, counts, stack, slot, idx)
    else:
        reach_tier(
            kernel.primitive,
            kernel.moves,
            ctx,
            mark,
            child_marks,
            child_base,
            codes,
            counts,
            stack,
            slot,
            idx,
        )
