"""The slice index: a bijection between positions and valid entries, slices closed sideways."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.index import scheme_for, transpose_mask


@st.composite
def positions(draw: st.DrawFn) -> DodgemPosition:
    n = draw(st.integers(3, 5))
    squares = draw(st.permutations(range(n * n)))
    b = draw(st.integers(0, n - 1))
    r = draw(st.integers(0, n - 1))
    blue = sum(1 << q for q in squares[:b])
    red = sum(1 << q for q in squares[b : b + r])
    return DodgemPosition(n, blue, red, draw(st.integers(0, 1)))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_index_round_trip(p: DodgemPosition) -> None:
    sch = scheme_for(rules_for("classic", p.size))
    i = sch.index(p)
    assert 0 <= i < sch.total
    assert sch.position(i) == p


@settings(max_examples=300, deadline=None)
@given(positions())
def test_sideways_moves_stay_in_the_slice_forward_moves_climb_a_level(p: DodgemPosition) -> None:
    rules = rules_for("classic", p.size)
    sch = scheme_for(rules)
    k = sch.num_keys

    def where(q: DodgemPosition) -> tuple[int, int]:
        sl = int(np.searchsorted(sch.slice_offset, sch.index(q), side="right")) - 1
        return sl, sch.level(*divmod(sl, k))

    sl, level = where(p)
    for m in rules.car_moves(p):
        child = rules.play(p, m) if rules.outcome(p) is None else None
        if child is None:
            continue
        sideways = m.dst is not None and (
            (p.to_move == 0 and m.dst.file == m.src.file)  # type: ignore[union-attr]
            or (p.to_move == 1 and m.dst.rank == m.src.rank)  # type: ignore[union-attr]
        )
        csl, clevel = where(child)
        if sideways:
            assert csl == sl
        else:
            assert clevel == level + 1


def test_every_4x4_position_has_its_own_entry() -> None:
    sch = scheme_for(rules_for("classic", 4))
    seen = set()
    for b in range(4):
        for blue in itertools.combinations(range(16), b):
            mb = sum(1 << q for q in blue)
            for r in range(4):
                for red in itertools.combinations([q for q in range(16) if q not in blue], r):
                    mr = sum(1 << q for q in red)
                    for side in (0, 1):
                        seen.add(sch.index(DodgemPosition(4, mb, mr, side)))
    assert len(seen) == 555986
    assert all(sch.position(i) is not None for i in seen)


def test_transpose_is_an_involution_that_swaps_directions() -> None:
    n = 5
    for q in range(n * n):
        t = transpose_mask(1 << q, n).bit_length() - 1
        assert (t % n, t // n) == (q // n, q % n)
        assert transpose_mask(1 << t, n) == 1 << q
