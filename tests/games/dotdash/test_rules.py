"""The rules page's worked examples, the start-of-turn check, reserves and the variants."""

from __future__ import annotations

import pytest

from boardlab.core import GameSession, IllegalMoveError, Outcome, Reason, make_rules
from boardlab.core.registry import get_game
from boardlab.games.dotdash.notation import DotDashPosition, Point
from boardlab.games.dotdash.rules import DotDashRules


def pts(position: DotDashPosition, player: int) -> set[str]:
    return {str(p) for p in position.points(player)}


def test_registered_with_its_variants() -> None:
    info = get_game("dotdash")
    assert info.title == "Dot Dash"
    assert {"standard", "frozen", "capture"} <= set(info.variant_names)
    assert (info.sizes, info.default_size) == ((7, 19), 13)
    rules = make_rules("dot-dash", "frozen", 9)
    assert (rules.game, rules.variant, rules.size) == ("dotdash", "frozen", 9)


def test_draw_limits_only_under_capture() -> None:
    for variant in ("standard", "frozen"):
        r = make_rules("dotdash", variant)
        assert (r.repetition, r.max_plies) == (None, None)
    r = make_rules("dotdash", "capture")
    assert (r.repetition, r.max_plies) == (3, 300)


def test_first_move_count_on_13(rules: DotDashRules) -> None:
    # shared/rules/dot-dash.md: 24 legal moves on the first move of the fixed setup
    moves = rules.legal_moves(rules.start())
    assert len(moves) == 24
    assert all(m.src == Point.parse("G7") for m in moves)


def test_figure_2_slide_and_drop(rules: DotDashRules) -> None:
    before = rules.parse_setup("setup R:F7 B:J5,K6 r")
    after = rules.play(before, rules.parse_move("F7-I10"))
    assert pts(after, 0) == {"I10", "H9", "G8"}
    assert after.at(Point.parse("F7")) is None
    assert pts(after, 1) == {"J5", "K6"}
    assert after.to_move == 1


def test_figure_1_blocking(rules: DotDashRules) -> None:
    # the fixed setup: G7 cannot slide through G8 or H7, nor along the blocked lines
    start = rules.start()
    dests = {str(m.dst) for m in rules.legal_moves(start)}
    assert "G11" not in dests and "K7" not in dests and "J10" in dests
    for text, reason in [
        ("G7-G11", "blocked"),
        ("G7-G9", "at least 3"),
        ("G7-H9", "straight"),
        ("G8-G11", "blue"),
        ("A1-A4", "no stone"),
    ]:
        with pytest.raises(IllegalMoveError, match=reason):
            rules.play(start, rules.parse_move(text))


FIG3 = "setup R:A2,B2,C2,D2,E2,A4,B4,C4,D4,E4 B:E11,F11,G11,H11,I11,D10,F10,G10,H10 b"


def test_figure_3_shift_loses_two_to_one(rules: DotDashRules) -> None:
    """Blue moves F11 to C8: the drop on E10 makes D10..H10, but E11..I11 is broken."""
    before = rules.parse_setup(FIG3)
    assert rules.fives(before) == (2, 1)
    assert rules.outcome(before) is None  # blue is behind but may still move
    after = rules.play(before, rules.parse_move("F11-C8"))
    assert pts(after, 1) >= {"D10", "E10", "F10", "G10", "H10", "D9", "C8"}
    assert after.at(Point.parse("F11")) is None
    assert rules.fives(after) == (2, 1)
    assert rules.outcome(after) == Outcome(0, Reason.FIVES)
    assert [[str(p) for p in line] for line in rules.five_lines(after, 1)] == [
        ["D10", "E10", "F10", "G10", "H10"]
    ]


def test_more_fives_wins_at_the_start_of_the_turn(rules: DotDashRules) -> None:
    pos = rules.parse_setup("setup R:A1,B1,C1,D1,E1 B:A5,A7 r")
    assert rules.outcome(pos) == Outcome(0, Reason.FIVES)
    assert rules.legal_moves(pos) == []
    with pytest.raises(IllegalMoveError):
        rules.play(pos, rules.parse_move("A1-A4"))
    # the same board with blue to move: blue is behind but the game goes on
    blue = rules.parse_setup("setup R:A1,B1,C1,D1,E1 B:A5,A7 b")
    assert rules.outcome(blue) is None


def test_no_legal_move_loses() -> None:
    rules = make_rules("dotdash", "standard", 7)
    # red's only stone sits in a corner boxed in by blue
    pos = rules.parse_setup("setup R:A1 B:A2,B2,B1 r")
    assert rules.legal_moves(pos) == []
    assert rules.outcome(pos) == Outcome(1, Reason.BLOCKED)


def test_a_move_needs_two_stones_in_reserve() -> None:
    rules = DotDashRules(size=9, reserve=12)
    red = "A1,B3,C5,D7,E9,F1,G3,H5,I7,A9,B6"  # 11 stones, no five
    pos = rules.parse_setup(f"setup R:{red} B:I1 r")
    assert rules.reserve_left(pos, 0) == 1
    assert rules.legal_moves(pos) == []
    assert rules.outcome(pos) == Outcome(1, Reason.BLOCKED)
    unlimited = DotDashRules(size=9, reserve=None).parse_setup(f"setup R:{red} B:I1 r")
    assert DotDashRules(size=9, reserve=None).legal_moves(unlimited)


def test_frozen_stones_may_not_move() -> None:
    text = "setup R:B2,C2,D2,E2,F2,H8 B:A9,B9,C9,D9,E9,I1 r"
    frozen = make_rules("dotdash", "frozen", 9)
    standard = make_rules("dotdash", "standard", 9)
    pos = frozen.parse_setup(text)
    assert frozen.fives(pos) == (1, 1)
    assert {m.src for m in frozen.legal_moves(pos)} == {Point.parse("H8")}
    assert Point.parse("B2") in {m.src for m in standard.legal_moves(standard.parse_setup(text))}
    with pytest.raises(IllegalMoveError, match="frozen"):
        frozen.play(pos, frozen.parse_move("D2-D5"))
    # shifting is allowed in the standard game (and here leaves red behind, so blue wins)
    after = standard.play(standard.parse_setup(text), standard.parse_move("D2-D5"))
    assert standard.outcome(after) == Outcome(1, Reason.FIVES)


def test_sacrificial_capture() -> None:
    rules = make_rules("dotdash", "capture", 9)
    pos = rules.parse_setup("setup R:A1 B:D4,I9 r")
    moves = {str(m) for m in rules.legal_moves(pos)}
    assert "A1xD4" in moves and "A1-A4" in moves
    assert "A1-C3" not in moves and "A1-E5" not in moves  # too short; blocked
    after = rules.play(pos, rules.parse_move("A1xD4"))
    assert pts(after, 0) == {"C3", "B2"}  # the landing point ends empty
    assert pts(after, 1) == {"I9"}
    assert rules.reserves(after) == (58, 59)
    # too close: a capture also needs distance 3
    near = rules.parse_setup("setup R:A1 B:C3,I9 r")
    assert not any(m.capture for m in rules.legal_moves(near))
    # the standard game has no captures
    standard = make_rules("dotdash", "standard", 9)
    with pytest.raises(IllegalMoveError, match="capture"):
        standard.play(standard.parse_setup("setup R:A1 B:D4,I9 r"), standard.parse_move("A1xD4"))
    with pytest.raises(IllegalMoveError, match="occupied"):
        rules.play(pos, rules.parse_move("A1-D4"))


def test_capture_needs_one_stone_in_reserve() -> None:
    rules = DotDashRules(size=9, mode="capture", reserve=12)
    red = "A1,B3,C5,D7,E9,F1,G3,H5,I7,A9,B6"  # 11 stones: 1 left in reserve
    pos = rules.parse_setup(f"setup R:{red} B:A4,I1 r")
    moves = rules.legal_moves(pos)
    assert moves and all(m.capture for m in moves)
    after = rules.play(pos, moves[0])
    assert rules.reserve_left(after, 0) == 0


class _ShortCapture(DotDashRules):
    """Capture rules with a ply limit of 4, to see the limit reach a session."""

    @property
    def max_plies(self) -> int | None:
        return 4


def test_capture_ply_limit_draws_in_a_session() -> None:
    rules = _ShortCapture(size=9, mode="capture")
    session = GameSession(rules, rules.start())
    for move in ["E5-H8", "E6-E9", "H8-H5", "F5-C5"]:
        assert session.result is None
        session.play(move)
    assert session.result == Outcome(None, Reason.MOVE_LIMIT)
    # the plain rules would go on
    plain = GameSession(make_rules("dotdash", "capture", 9), rules.start())
    for move in ["E5-H8", "E6-E9", "H8-H5", "F5-C5"]:
        plain.play(move)
    assert plain.result is None
