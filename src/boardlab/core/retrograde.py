"""One compiled retrograde kernel for every game: solves a tier for "the side to move".

Codes (value for the side to move): 0 invalid index, 1 draw, 2 + 2r win in r plies,
3 + 2r loss in r plies. The game's compiled functions are those of `boardlab.core.tiers`.

Positions are decided in order of remoteness, level by level: a win in r + 1 as soon as a
child loss in r is known (or at once, from a solved child tier), a loss when the last child
is known to be a win for the opponent, its remoteness the largest of theirs plus one.
Whatever is left undecided is a draw.

The kernel is written once, as `solve_tier_body`. A game may compile its own entry point that
calls it with the game's functions (see `solve_tier_body`, and `TierKernel.solve`): numba then
inlines the game's functions into one function without reference counting, which runs about a
quarter faster and is cached on disk. Otherwise `solve_tier` takes the functions as arguments
(compiled once per process, as numba cannot cache it). The kernel lives in `core` so that a
game can build its entry point without depending on the solver.

This module drives a solve (`run_solve`, and the generic `solve_tier`); the kernel's parts
live beside it, one job each: `retrograde_work` (codes, work arrays), `retrograde_children`
(reading the child tiers), `retrograde_body` (the first pass and the propagation),
`retrograde_reach` (the reachability walk) and `timing` (the phases' clocks); import their
names from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.core.retrograde_body import solve_tier_body
from boardlab.core.retrograde_children import NO_CHILD_CODES, child_addresses, side_by_side
from boardlab.core.retrograde_work import pooled_work
from boardlab.core.timing import add_time, stamp

if TYPE_CHECKING:
    from boardlab.core.tiers import TierKernel


def run_solve(
    kernel: TierKernel,
    ctx: tuple[Any, ...],
    size: int,
    children: Sequence[npt.NDArray[np.uint16]],
    code: npt.NDArray[np.uint16],
    work: tuple[npt.NDArray[Any], ...] | None = None,
    timings: dict[str, float] | None = None,
) -> int:
    """Solve a tier from its children's codes (in `child_tiers` order) with the game's
    compiled entry, or the generic kernel without one; `work` from `pooled_work` or
    `work_arrays` (for at least `size` indices), else the thread's. With `timings`, the
    seconds spent setting the children side by side ("join", where the entry does not read
    them where they lie), and, for a game that has the two halves of its entry, those of the
    first pass and of the propagation are added to it."""
    if work is None:
        work = pooled_work(size, kernel.max_moves)
    t = stamp()
    if kernel.child_addresses and kernel.solve is not None:
        child_codes, child_base = NO_CHILD_CODES, child_addresses(children)
    else:
        child_codes, child_base = side_by_side(children, np.uint16)
    if timings is not None:
        t = add_time(timings, "join", t)
    if timings is not None and kernel.first_pass is not None and kernel.propagate is not None:
        status = int(kernel.first_pass(ctx, size, child_codes, child_base, code, work))
        t = add_time(timings, "first pass", t)
        if status >= 0:
            status = int(kernel.propagate(ctx, size, code, work))
        add_time(timings, "propagation", t)
        return status
    if kernel.solve is not None:
        return int(kernel.solve(ctx, size, kernel.max_moves, child_codes, child_base, code, work))
    return int(
        solve_tier(
            kernel.primitive,
            kernel.moves,
            kernel.unmoves,
            ctx,
            size,
            kernel.max_moves,
            child_codes,
            child_base,
            code,
            work,
        )
    )


# not cached on disk: numba's cache cannot match a function that takes other compiled
# functions as arguments in a new process (it would compile again and pile up entries, and
# saving fails once an old entry's functions are gone); it compiles once per process
@nb.njit(cache=False, nogil=True)
def solve_tier(
    primitive, moves, unmoves, ctx, size, max_moves, child_codes, child_base, code, work
):
    """`solve_tier_body` for a game that has no compiled entry of its own (`work`: the
    tuple of `work_arrays`)."""
    return solve_tier_body(
        primitive, moves, unmoves, ctx, size, max_moves, child_codes, child_base, code, work
    )
