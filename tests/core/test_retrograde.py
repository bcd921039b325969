"""The Dodgem family's own compiled kernel entry agrees with the generic kernel, which takes
the game's functions as arguments, on every tier of small boards."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from boardlab.core.retrograde import DRAW, INVALID
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver.engine import solve_in_memory


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
