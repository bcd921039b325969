"""The Dodgem family's own compiled kernel entries (solve row by row, and reach row by row where a
tier is stored without the mirror) agree with the generic kernels, which take the game's
functions as arguments, on small boards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numba as nb
import numpy as np
import pytest

from boardlab.core.retrograde import run_solve
from boardlab.core.retrograde_children import NO_CHILD_CODES, child_addresses, child_code
from boardlab.core.retrograde_work import DRAW, INVALID, work_arrays
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver.api import build_table, open_table
from boardlab.solver.packsolve import solve_in_memory
from boardlab.solver.plan import make_plan
from boardlab.solver.stats import reachable_counts


@pytest.mark.parametrize(
    ("variant", "size"),
    [("classic", 3), ("classic", 4), ("misere", 4), ("blocked-loses", 4), ("piecepack", 4)],
)
def test_specialised_entry_matches_generic_kernel(variant: str, size: int) -> None:
    fast = DodgemTiers(rules_for(variant, size))
    assert fast.kernel.solve is not None
    generic = DodgemTiers(rules_for(variant, size))
    # the same game with the entry removed: the engine falls back to the generic kernel
    generic.__dict__["kernel"] = dataclasses.replace(fast.kernel, solve=None)
    a = solve_in_memory(fast)
    b = solve_in_memory(generic)
    assert a.keys() == b.keys()
    for tier, codes in a.items():
        assert np.array_equal(codes, b[tier]), fast.tier_name(tier)
    joined = np.concatenate(list(a.values()))
    # a real table: wins and losses at several remotenesses, and overlapping placements
    assert len(np.unique(joined[joined >= 2])) > 6 and (joined == INVALID).any()
    assert ((joined == DRAW).any()) == (size > 3)  # 3×3 has no drawn position


@pytest.mark.parametrize("variant", ["classic", "piecepack", "misere", "blocked-loses"])
def test_specialised_reach_matches_generic(variant: str, tmp_path: Path) -> None:
    rules = rules_for(variant, 4)
    build_table(rules, tmp_path, 1)
    table = open_table(rules, tmp_path)
    fast = reachable_counts(table, rules.start())
    full = table.game.full_game()
    assert full.kernel.reach is not None
    generic_game = table.game
    # reachable_counts walks `full_game()`: give it a game whose kernel has no reach entry
    plain = dataclasses.replace(full.kernel, reach=None)
    original = type(generic_game).full_game

    def full_without_entry(self: DodgemTiers) -> DodgemTiers:
        g = original(self)
        g.__dict__["kernel"] = plain
        return g

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(generic_game), "full_game", full_without_entry)
        slow = reachable_counts(table, rules.start())
    assert np.array_equal(fast, slow)
    assert 0 < fast[1:].sum() < table.header["positions"]
    # the tiers of a level walked one at a time or on several threads: the same counts
    assert np.array_equal(reachable_counts(table, rules.start(), threads=1), fast)
    assert np.array_equal(reachable_counts(table, rules.start(), threads=4), fast)


@nb.njit
def _read_children(base, picks):  # type: ignore[no-untyped-def]
    out = np.empty(len(picks), np.int64)
    for j in range(len(picks)):
        out[j] = child_code(base[picks[j, 0]] + picks[j, 1])
    return out


def test_children_read_where_they_lie_are_their_codes() -> None:
    """A kernel that reads child tiers by address gets each child's own entries, the arrays
    not copied; an array it could not read that way is refused."""
    rng = np.random.default_rng(5)
    kids = [rng.integers(0, 65536, n).astype(np.uint16) for n in (1, 17, 4096)]
    picks = np.array([(s, i) for s, k in enumerate(kids) for i in (0, len(k) // 2, len(k) - 1)])
    got = _read_children(child_addresses(kids), picks)
    assert got.tolist() == [int(kids[s][i]) for s, i in picks]
    with pytest.raises(ValueError, match="contiguous aligned uint16"):
        child_addresses([kids[2][::2]])
    with pytest.raises(ValueError, match="contiguous aligned uint16"):
        child_addresses([kids[2].astype(np.uint32)])
    odd = np.frombuffer(bytes(9), np.uint16, count=4, offset=1)  # at an odd address
    assert not odd.flags.aligned
    with pytest.raises(ValueError, match="contiguous aligned uint16"):
        child_addresses([odd])


def test_work_arrays_serve_again_after_a_tier_left_half_way() -> None:
    """A tier whose first pass ran but not its propagation (an error, Ctrl-C between the two)
    leaves positions queued in the work arrays: the next tier solved with them empties the
    queue first and comes out as a fresh solve does."""
    game = DodgemTiers(rules_for("classic", 4))
    solved = solve_in_memory(game)
    plan = make_plan(game)
    tiers = sorted(plan.pack_of, key=lambda t: -game.tier_size(t))[:2]
    size = max(game.tier_size(t) for t in tiers)
    work = work_arrays(size, game.kernel.max_moves)
    first, then = tiers
    kids = [solved[c] for c in game.child_tiers(first)]
    code = np.empty(game.tier_size(first), np.uint16)
    assert game.kernel.first_pass is not None
    assert (
        game.kernel.first_pass(
            game.tier_context(first), len(code), NO_CHILD_CODES, child_addresses(kids), code, work
        )
        == 0
    )
    assert (work[1] >= 0).any()  # positions left in the queue
    again = np.empty(game.tier_size(then), np.uint16)
    kids = [solved[c] for c in game.child_tiers(then)]
    assert run_solve(game.kernel, game.tier_context(then), len(again), kids, again, work) >= 0
    assert np.array_equal(again, solved[then])
    assert (work[1] == -1).all() and not work[3].any()  # left empty, as work_arrays made them
