"""Each Dodgem rule and variant on hand-made positions written in notation."""

from __future__ import annotations

import pytest

from boardlab.core import GameSession, IllegalMoveError, NotationError, Outcome, Reason, make_rules
from boardlab.games.dodgem import PASS, DodgemRules


def moves(rules: DodgemRules, text: str) -> list[str]:
    return [str(m) for m in rules.legal_moves(rules.parse_position(text))]


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (3, "B2/B2/1RR b"),
        (4, "B3/B3/B3/1RRR b"),
        (5, "B4/B4/B4/B4/1RRRR b"),
        (6, "B5/B5/B5/B5/B5/1RRRRR b"),
        (7, "B6/B6/B6/B6/B6/B6/1RRRRRR b"),
        (8, "B7/B7/B7/B7/B7/B7/B7/1RRRRRRR b"),
    ],
)
def test_start_positions(size: int, text: str) -> None:
    rules = make_rules("dodgem", "classic", size)
    assert str(rules.start()) == text
    assert rules.start().count(0) == rules.start().count(1) == size - 1


def test_piecepack_start() -> None:
    rules = make_rules("dodgem", "piecepack")
    assert rules.size == 6
    assert str(rules.start()) == "5G/R4G/R4G/R4G/R4G/R5 r"
    assert rules.player_names == ("red", "green")


def test_blue_moves_east_north_south_and_red_north_west_east() -> None:
    rules = make_rules("dodgem", "classic", 3)
    assert moves(rules, "R2/1B1/3 b") == ["b2-c2", "b2-b3", "b2-b1"]
    assert moves(rules, "B2/1R1/3 r") == ["b2-b3", "b2-a2", "b2-c2"]


def test_cars_never_move_backwards_or_onto_cars() -> None:
    rules = make_rules("dodgem", "classic", 3)
    pos = rules.parse_position("B2/BR1/2R b")
    assert moves(rules, "B2/BR1/2R b") == ["a2-a1", "a3-b3"]
    with pytest.raises(IllegalMoveError, match="occupied"):
        rules.play(pos, rules.parse_move("a2-b2"))
    with pytest.raises(IllegalMoveError, match="not such a step"):
        rules.play(pos, rules.parse_move("a3-c3"))


def test_exit_only_from_the_far_edge() -> None:
    rules = make_rules("dodgem", "classic", 3)
    pos = rules.parse_position("2B/B2/1R1 b")
    assert "c3-off" in moves(rules, "2B/B2/1R1 b")
    after = rules.play(pos, rules.parse_move("c3-off"))
    assert str(after) == "3/B2/1R1 r"
    with pytest.raises(IllegalMoveError, match="exit edge"):
        rules.play(pos, rules.parse_move("a2-off"))
    red = rules.parse_position("1R1/B2/1R1 r")
    assert moves(rules, "1R1/B2/1R1 r")[0] == "b1-b2"
    assert "b3-off" in [str(m) for m in rules.legal_moves(red)]


def test_clearing_all_cars_wins_and_misere_loses() -> None:
    normal = make_rules("dodgem", "classic", 3)
    misere = make_rules("dodgem", "misere", 3)
    pos = normal.parse_position("2B/3/1R1 b")
    after = normal.play(pos, normal.parse_move("c3-off"))
    assert normal.outcome(after) is not None
    assert normal.outcome(after).winner == 0  # type: ignore[union-attr]
    assert normal.outcome(after).reason is Reason.CLEARED  # type: ignore[union-attr]
    assert misere.outcome(after).winner == 1  # type: ignore[union-attr]
    assert normal.legal_moves(after) == []


@pytest.mark.parametrize(("variant", "winner"), [("classic", 0), ("blocked-loses", 1)])
def test_blocked_player(variant: str, winner: int) -> None:
    rules = make_rules("dodgem", variant, 3)
    # Blue's only car on a1 is boxed in: b1 red, a2 red; it cannot move south or west.
    pos = rules.parse_position("3/R2/BR1 b")
    assert rules.legal_moves(pos) == []
    outcome = rules.outcome(pos)
    assert outcome is not None and outcome.winner == winner and outcome.reason is Reason.BLOCKED


def test_piecepack_directions_and_exits() -> None:
    rules = make_rules("dodgem", "piecepack")
    # Red drives north and sideways; green south and sideways; both leave from their far rank.
    assert moves(rules, "6/6/2R3/6/6/5G r") == ["c4-c5", "c4-b4", "c4-d4"]
    assert moves(rules, "6/6/2G3/6/6/R5 g") == ["c4-c3", "c4-b4", "c4-d4"]
    assert moves(rules, "3R2/6/6/6/6/5G r") == ["d6-off", "d6-c6", "d6-e6"]
    assert moves(rules, "R5/6/6/6/6/3G2 g") == ["d1-off", "d1-c1", "d1-e1"]


def test_piecepack_blocked_player_passes_and_two_blocked_players_draw() -> None:
    rules = make_rules("dodgem", "piecepack", 3)
    pos = rules.parse_position("3/G2/RG1 r")
    assert moves(rules, "3/G2/RG1 r") == ["pass"]
    assert rules.outcome(pos) is None
    after = rules.play(pos, rules.parse_move("pass"))
    assert str(after) == "3/G2/RG1 g"
    with pytest.raises(IllegalMoveError, match="only when no car can move"):
        rules.play(after, rules.parse_move("pass"))
    classic = make_rules("dodgem", "classic", 3)
    with pytest.raises(IllegalMoveError):
        classic.play(classic.parse_position("3/R2/BR1 b"), classic.parse_move("pass"))
    # The blocked player is not out of the game: it passes, and when the play that follows
    # goes round in a circle the third occurrence of a position draws.
    session = GameSession(rules, pos)
    cycle = ["a1-b1", "a2-b2", "b1-a1", "b2-a2"]
    for move in ["pass", "b1-off", *cycle, *cycle]:
        assert session.result is None
        session.play(move)
    assert session.result == Outcome(None, Reason.REPETITION)
    assert session.occurrences() == 3 and session.moves[0] == PASS


def test_threefold_repetition_draws() -> None:
    rules = make_rules("dodgem", "classic", 3)
    session = GameSession(rules, rules.parse_position("3/B2/1R1 b"))
    cycle = ["a2-a3", "b1-a1", "a3-a2", "a1-b1"]
    for move in cycle:
        session.play(move)
    assert session.occurrences() == 2 and session.result is None
    for move in cycle:
        session.play(move)
    assert session.occurrences() == 3
    assert session.result is not None
    assert session.result.winner is None and session.result.reason is Reason.REPETITION
    with pytest.raises(IllegalMoveError):
        session.play("a2-b2")


def test_wrong_side_and_empty_square_are_illegal() -> None:
    rules = make_rules("dodgem", "classic", 3)
    start = rules.start()
    with pytest.raises(IllegalMoveError, match="red's"):
        rules.play(start, rules.parse_move("b1-b2"))
    with pytest.raises(IllegalMoveError, match="no car"):
        rules.play(start, rules.parse_move("b2-c2"))


def test_errors_tell_notation_from_legality() -> None:
    rules = make_rules("dodgem", "classic", 3)
    for bad in ("a2b2", "a9-a1", "x1-x2", "", "off-a1"):
        with pytest.raises(NotationError):
            rules.parse_move(bad)
    with pytest.raises(NotationError, match="not on a 3×3"):
        rules.parse_move("d4-d5")
    assert not issubclass(NotationError, IllegalMoveError)
    assert issubclass(NotationError, ValueError) and issubclass(IllegalMoveError, ValueError)


def test_move_notation_is_forgiving_on_input_and_canonical_on_output() -> None:
    rules = make_rules("dodgem", "classic", 3)
    assert str(rules.parse_move(" A2 - B2 ")) == "a2-b2"
    assert str(rules.parse_move("C3-OFF")) == "c3-off"
    assert str(rules.parse_move("Pass")) == "pass"
