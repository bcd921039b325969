"""Positions and moves read ASCII digits only (issue item 13): other scripts' digits, which
Python's `\\d` and `int` accept, are refused rather than read as numbers."""

from __future__ import annotations

import pytest

from boardlab.core.errors import NotationError
from boardlab.core.registry import make_rules


@pytest.mark.parametrize(
    "text",
    [
        "B٣/B3/B3/1RRR b",  # Arabic-Indic three
        "B３/B3/B3/1RRR b",  # fullwidth three
        "B3/B3/B3/१RRR b",  # Devanagari one
        "B003/B3/B3/1RRR b",  # a run too long to be a run
    ],
)
def test_dodgem_positions_take_ascii_digits_only(text: str) -> None:
    rules = make_rules("dodgem", None, 4)
    with pytest.raises(NotationError):
        rules.parse_position(text)
    assert rules.parse_position("B3/B3/B3/1RRR b") == rules.start()


@pytest.mark.parametrize("text", ["a٣-b٣", "g７-g８", "a1-a２"])
def test_dotdash_moves_take_ascii_digits_only(text: str) -> None:
    rules = make_rules("dotdash", None, 9)
    with pytest.raises(NotationError):
        rules.parse_move(text)
