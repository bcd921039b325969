"""The solver's entries for the Dodgem family: a first pass that walks a tier row by row (a
row: one side to move and one first placement; `linepass` without the mirror, `mirrorpass`
with it), then the propagation; and the plain entry they are tested against."""

from __future__ import annotations

from typing import Any

import numba as nb

from boardlab.core.retrograde_body import propagate_body, solve_tier_body
from boardlab.core.retrograde_work import TOO_BIG
from boardlab.games.dodgem.tiers.kernel import (
    _moves_for_solve,
    dodgem_moves,
    dodgem_primitive,
    dodgem_unmoves,
    plain_shape,
)
from boardlab.games.dodgem.tiers.linepass import _first_pass_rows
from boardlab.games.dodgem.tiers.mirrorpass import _first_pass_mirror_rows
from boardlab.games.dodgem.tiers.plainprop import plain_propagate

KERNEL_FUNCS = (dodgem_primitive, dodgem_moves, dodgem_unmoves)


# The entries are compiled without reference counting (they allocate nothing) and cached on
# disk. Each flavour of tier has entries of its own: the first pass without the mirror or with
# it, the propagation with the un-moves written into it (neither the mirror nor passes) or the
# kernel's own; and a whole solve calls the two halves it needs, compiled once, rather than
# inlining them again. A process compiles only the flavour it solves, and once: the halves
# inlined into every entry cost a new install about two minutes of compiling for one 4×4
# solve (the first pass about 40 s of processor time, the propagation 13, a whole solve
# with both inlined 66 more).


@nb.njit(cache=True, nogil=True, _nrt=False)
def first_pass_rows(ctx, size, child_codes, child_base, code, work):
    """The first pass of a tier stored without the mirror, row by row (`linepass`)."""
    if size >= (1 << 29):
        return TOO_BIG
    return _first_pass_rows(ctx, size, child_codes, child_base, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def first_pass_mirror(ctx, size, child_codes, child_base, code, work):
    """The first pass of a tier stored with the mirror, row by row (`mirrorpass`)."""
    if size >= (1 << 29):
        return TOO_BIG
    return _first_pass_mirror_rows(ctx, size, child_codes, child_base, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def propagate_plain(ctx, size, code, work):
    """The propagation of a tier with neither the mirror nor passes: the un-moves written
    into it (`plain_propagate`) and the tier's numbers read once."""
    params, blob = ctx
    return plain_propagate(plain_shape(params, blob), blob, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def propagate_unmoves(ctx, size, code, work):
    """The kernel's own propagation, through `dodgem_unmoves` (the mirror, or passes)."""
    return propagate_body(dodgem_unmoves, ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def solve_rows_plain(ctx, size, max_moves, child_codes, child_base, code, work):
    """A whole tier without the mirror or passes (classic, blocked-loses, misère)."""
    status = first_pass_rows(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_plain(ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def solve_rows_unmoves(ctx, size, max_moves, child_codes, child_base, code, work):
    """A whole tier with passes, stored without the mirror (Piecepack unfolded)."""
    status = first_pass_rows(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_unmoves(ctx, size, code, work)


@nb.njit(cache=True, nogil=True, _nrt=False)
def solve_mirror(ctx, size, max_moves, child_codes, child_base, code, work):
    """A whole tier stored with the mirror (Piecepack)."""
    status = first_pass_mirror(ctx, size, child_codes, child_base, code, work)
    if status < 0:
        return status
    return propagate_unmoves(ctx, size, code, work)


def dodgem_entries(mirror: bool, passes: bool) -> tuple[Any, Any, Any]:
    """The compiled (solve, first pass, propagation) for tiers stored with the mirror or
    not, of rules where a blocked player passes or not: `boardlab.core.retrograde_body.
    solve_tier_body` for the Dodgem family, reading the children where they lie
    (`child_base` from `boardlab.core.retrograde_children.child_addresses`, `child_codes`
    unused). Every tier of one adapter is of one flavour (`DodgemTiers.tier_context`)."""
    if mirror:
        return solve_mirror, first_pass_mirror, propagate_unmoves
    if passes:
        return solve_rows_unmoves, first_pass_rows, propagate_unmoves
    return solve_rows_plain, first_pass_rows, propagate_plain


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
