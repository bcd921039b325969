"""Notation: points, moves, positions and setups read and print back identically."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core import NotationError, make_rules
from boardlab.games.dotdash.notation import (
    COLUMNS,
    DotDashMove,
    DotDashPosition,
    Point,
    parse_board,
)
from boardlab.games.dotdash.rules import DotDashRules


def test_columns_use_the_letter_i() -> None:
    assert COLUMNS[8] == "I"
    assert str(Point.parse("i10")) == "I10"
    assert Point.parse("I10") == Point(8, 9)


@pytest.mark.parametrize("text", ["F7-I10", "F7xI10", "A1-A4", "S19-P16"])
def test_move_round_trip(text: str) -> None:
    move = DotDashMove.parse(text)
    assert str(move) == text
    assert eval(repr(move)) == move  # repr pastes back into code


def test_move_parse_is_lenient_about_case_and_spaces() -> None:
    assert DotDashMove.parse(" f7 x i10 ") == DotDashMove(Point(5, 6), Point(8, 9), True)


@pytest.mark.parametrize("text", ["", "F7", "F7-", "F7–I10", "T1-T4", "A0-A3", "A20-A17", "F7+I10"])
def test_bad_moves_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        DotDashMove.parse(text)


def test_start_position_text(rules: DotDashRules) -> None:
    start = rules.start()
    assert rules.format_position(start) == "13/13/13/13/13/6B6/6RB5/13/13/13/13/13/13 r"
    assert start.setup_text() == "setup R:G7 B:G8,H7 r"
    assert rules.parse_position("setup R:G7 B:G8,H7 r") == start
    assert rules.parse_setup("setup R:G7 B:G8,H7 r") == start
    assert rules.parse_position(str(start)) == start


def test_setup_without_side_lets_the_single_stone_move(rules: DotDashRules) -> None:
    assert rules.parse_setup("setup B:A1 R:C3,D4").to_move == 1
    with pytest.raises(NotationError):
        rules.parse_setup("setup R:A1,B1 B:C3,D4")


@pytest.mark.parametrize(
    "text",
    [
        "setup R:G7 B:G7 r",  # same point twice
        "setup R:G7 R:G8 r",  # colour twice
        "setup X:G7 r",
        "setup R:N1 r",  # off a 13×13 board
        "setup R:G7 q",
        "13/13 r",
        "13/13/13/13/13/6B6/6RB5/13/13/13/13/13/12 r",  # short row
        "13/13/13/13/13/6B6/6RB5/13/13/13/13/13/14 r",  # long row
        "13/13/13/13/13/6B6/6RX5/13/13/13/13/13/13 r",
        "7/7/7/7/7/7/7 r",  # wrong size for these rules
    ],
)
def test_bad_positions_are_notation_errors(rules: DotDashRules, text: str) -> None:
    with pytest.raises(NotationError):
        rules.parse_position(text)


def test_too_many_stones_for_the_reserve() -> None:
    rules = make_rules("dotdash", "standard", 9)
    full = "/".join(["RRRRRRRRR"] * 7 + ["9", "9"]) + " b"  # 63 red stones
    with pytest.raises(NotationError):
        rules.parse_position(full)
    assert make_rules("dotdash", "standard-unlimited", 9).parse_position(full).count(0) == 63


@st.composite
def positions(draw: st.DrawFn) -> DotDashPosition:
    n = draw(st.integers(7, 19))
    cells = draw(st.lists(st.sampled_from(".RB"), min_size=n * n, max_size=n * n))
    red = blue = 0
    for i, cell in enumerate(cells):
        bit = 1 << ((i // n) * (n + 1) + i % n)
        if cell == "R":
            red |= bit
        elif cell == "B":
            blue |= bit
    return DotDashPosition(n, red, blue, draw(st.integers(0, 1)))


@given(positions())
def test_position_round_trip(position: DotDashPosition) -> None:
    text = str(position)
    assert parse_board(text) == position
    assert parse_board(text.lower()) == position
    rules = DotDashRules(size=position.size, reserve=None)
    assert rules.parse_position(position.setup_text()) == position


@given(
    st.integers(0, 18), st.integers(0, 18), st.integers(0, 18), st.integers(0, 18), st.booleans()
)
def test_move_text_round_trip(a: int, b: int, c: int, d: int, capture: bool) -> None:
    move = DotDashMove(Point(a, b), Point(c, d), capture)
    assert DotDashMove.parse(str(move)) == move
