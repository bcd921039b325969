"""Notation of squares, moves and positions: examples from the rules page and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core import NotationError, make_rules
from boardlab.games.dodgem import DodgemMove, DodgemPosition, Square
from boardlab.games.dodgem.notation import parse_position


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("B2/B2/1RR b", "BR"),
        ("B3/B3/B3/1RRR b", "BR"),
        ("B4/B4/B4/B4/1RRRR b", "BR"),
        ("5G/R4G/R4G/R4G/R4G/R5 r", "RG"),
    ],
)
def test_rules_page_examples_round_trip(text: str, letters: str) -> None:
    assert str(parse_position(text, letters)) == text


def test_parsing_accepts_any_case() -> None:
    assert str(parse_position("b2/b2/1rr B")) == "B2/B2/1RR b"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("B2/B2/1RR", "side to move"),
        ("B2/B2/1RR x", "side to move"),
        ("B2/B2 b", "3 to 8 ranks"),
        ("B2/B3/1RR b", "4 squares"),
        ("B2/B2/1R b", "2 squares"),
        ("BB1/B2/1RR b", "at most 2"),
        ("Q2/B2/1RR b", "unexpected 'Q'"),
        ("", "not a Dodgem position"),
    ],
)
def test_malformed_positions(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_position(text)


def test_positions_of_another_size_are_refused_by_the_rules() -> None:
    with pytest.raises(NotationError, match="4×4 position"):
        make_rules("dodgem", "classic", 3).parse_position("B3/B3/B3/1RRR b")


@st.composite
def positions(draw: st.DrawFn) -> DodgemPosition:
    n = draw(st.integers(3, 8))
    squares = draw(st.permutations(range(n * n)))
    k = draw(st.integers(0, n - 1))
    m = draw(st.integers(0, n - 1))
    first = sum(1 << s for s in squares[:k])
    second = sum(1 << s for s in squares[k : k + m])
    letters = draw(st.sampled_from(["BR", "RG"]))
    return DodgemPosition(n, first, second, draw(st.integers(0, 1)), letters)


@given(positions())
def test_position_text_round_trips(pos: DodgemPosition) -> None:
    assert parse_position(str(pos), pos.letters) == pos
    assert hash(parse_position(str(pos), pos.letters)) == hash(pos)


@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7), st.integers(0, 7))
def test_move_text_round_trips(f1: int, r1: int, f2: int, r2: int) -> None:
    for move in (DodgemMove(Square(f1, r1), Square(f2, r2)), DodgemMove(Square(f1, r1), None)):
        assert DodgemMove.parse(str(move)) == move
        assert eval(repr(move)) == move  # repr pastes back into code
    assert str(DodgemMove.parse("pass")) == "pass"


def test_positions_are_immutable_and_hashable() -> None:
    pos = make_rules("dodgem", "classic", 4).start()
    with pytest.raises(AttributeError):
        pos.first = 0  # type: ignore[misc]
    assert len({pos, make_rules("dodgem", "classic", 4).start()}) == 1


def test_a_rank_with_too_many_squares_is_refused() -> None:
    with pytest.raises(NotationError, match=r"rank 3 of .* has 4 squares, not 3"):
        parse_position("B2R/B2/1RR b")
