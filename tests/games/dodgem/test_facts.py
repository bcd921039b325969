"""Dodgem's board facts (`GameInfo.board_facts`) agree with the rules' own step table."""

from __future__ import annotations

import pytest

from boardlab.core.registry import get_game
from boardlab.games.dodgem.rules import EXIT

EDGE_SQUARES = {
    "east": lambda f, r, n: f == n - 1,
    "west": lambda f, r, n: f == 0,
    "north": lambda f, r, n: r == n - 1,
    "south": lambda f, r, n: r == 0,
}


@pytest.mark.parametrize("variant", get_game("dodgem").variant_names)
@pytest.mark.parametrize("size", [3, 5])
def test_steps_and_exits_are_the_rules_steps(variant: str, size: int) -> None:
    info = get_game("dodgem")
    assert info.board_facts is not None
    rules = info.rules(variant, size)
    facts = info.board_facts(rules, rules.start())
    n = size
    for player in (0, 1):
        steps = facts["steps"][player]
        edge = facts["exits"][player]
        assert len(steps) == 3
        for i, dests in enumerate(rules.step_table[player]):
            f, r = i % n, i // n
            expected = []
            for k, (df, dr) in enumerate(steps):
                nf, nr = f + df, r + dr
                if 0 <= nf < n and 0 <= nr < n:
                    expected.append(nr * n + nf)
                elif k == 0:
                    expected.append(EXIT)  # only the forward step leaves the board
            assert list(dests) == expected, (player, i)
            assert (EXIT in dests) == EDGE_SQUARES[edge](f, r, n), (player, i, edge)
    assert facts["exits"][0] != facts["exits"][1]
