"""The solver's entry for the Dodgem family: a first pass that walks a tier row by row (a
row: one side to move and one first placement; `linepass` without the mirror, `mirrorpass`
with it), then the kernel's propagation, compiled together; and the plain entry it is tested
against."""

from __future__ import annotations

import numba as nb

from boardlab.core.retrograde_body import propagate_body, solve_tier_body
from boardlab.core.retrograde_work import TOO_BIG
from boardlab.games.dodgem.kernel import BLOCKED_PASSES
from boardlab.games.dodgem.tiers.kernel import (
    _moves_for_solve,
    dodgem_moves,
    dodgem_primitive,
    dodgem_unmoves,
    plain_shape,
)
from boardlab.games.dodgem.tiers.layout import P_BLOCKED, P_MIR
from boardlab.games.dodgem.tiers.linepass import _first_pass_rows
from boardlab.games.dodgem.tiers.mirrorpass import _first_pass_mirror_rows
from boardlab.games.dodgem.tiers.plainprop import plain_propagate

KERNEL_FUNCS = (dodgem_primitive, dodgem_moves, dodgem_unmoves)


# the retrograde kernel with the functions above inlined, compiled without reference counting
# (it allocates nothing) and cached on disk
@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_solve_tier(ctx, size, max_moves, child_codes, child_base, code, work):
    """`boardlab.core.retrograde_body.solve_tier_body` for the Dodgem family: the row pass
    (`_first_pass_rows`) where the tier is stored without the mirror, then the kernel's
    propagation. It reads the children where they lie: `child_base` from
    `boardlab.core.retrograde_children.child_addresses`, `child_codes` unused (no copy of
    them)."""
    if size >= (1 << 29):
        return TOO_BIG
    if ctx[0][P_MIR]:
        status = _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work)
    else:
        status = _first_pass_rows(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return _propagate(ctx, size, code, work)


@nb.njit(cache=True, inline="always")
def _propagate(ctx, size, code, work):
    """The kernel's propagation: where the tier has neither the mirror nor passes, with the
    un-moves written into it (`plain_propagate`) and the tier's numbers read once."""
    params, blob = ctx
    if params[P_MIR] == 0 and params[P_BLOCKED] != BLOCKED_PASSES:
        return plain_propagate(plain_shape(params, blob), blob, size, code, work)
    return propagate_body(dodgem_unmoves, ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_first_pass(ctx, size, child_codes, child_base, code, work):
    """The first half of `dodgem_solve_tier` (the solver times the halves apart)."""
    if size >= (1 << 29):
        return TOO_BIG
    if ctx[0][P_MIR]:
        return _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work)
    return _first_pass_rows(ctx, size, child_codes, child_base, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_propagate(ctx, size, code, work):
    """The second half of `dodgem_solve_tier`."""
    return _propagate(ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def dodgem_solve_tier_plain(ctx, size, max_moves, child_codes, child_base, code, work):
    """The same with the kernel's own first pass, one position at a time: the reference the
    row pass is tested against (its children side by side, as `side_by_side` sets them)."""
    return solve_tier_body(
        dodgem_primitive,
        _moves_for_solve,
        dodgem_unmoves,
        ctx,
        size,
        max_moves,
        child_codes,
        child_base,
        code,
        work,
    )
