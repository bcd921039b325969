"""Dot Dash's board facts (`GameInfo.board_facts`): credited fives, their lines, reserves."""

from __future__ import annotations

from boardlab.core.registry import get_game, make_rules


def test_fives_lines_and_reserves() -> None:
    info = get_game("dotdash")
    assert info.board_facts is not None
    rules = make_rules("dotdash", "standard", 9)
    position = rules.parse_position("9/9/9/9/RRRRR4/9/BB7/9/9 b")
    facts = info.board_facts(rules, position)
    assert facts["fives"] == [1, 0]
    assert facts["lines"] == [{"player": 0, "points": ["A5", "B5", "C5", "D5", "E5"]}]
    reserve = rules.reserve
    assert reserve is not None
    assert facts["reserves"] == [reserve - 5, reserve - 2]
    unlimited = make_rules("dotdash", "standard-unlimited", 9)
    facts = info.board_facts(unlimited, unlimited.parse_position("9/9/9/9/RRRRR4/9/BB7/9/9 b"))
    assert facts["reserves"] == [None, None]
    start = info.board_facts(rules, rules.start())
    assert start["fives"] == [0, 0] and start["lines"] == []
