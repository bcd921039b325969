"""The terminal board and the pie dialogue."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from rich.console import Console

from boardlab.core import NotationError, make_rules
from boardlab.games.dotdash.pie import parse_colour, pie_position, pie_setup, run_pie
from boardlab.games.dotdash.render import render_board
from boardlab.games.dotdash.rules import DotDashRules


def plain(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_shows_stones_fives_scores_and_reserves(rules: DotDashRules) -> None:
    pos = rules.parse_setup("setup R:A1,B1,C1,D1,E1,G7 B:G8,H7 b")
    move = rules.parse_move("A4-A1")  # not played here; only marked
    text = plain(render_board(rules, pos, move))
    lines = text.splitlines()
    assert lines[0].startswith("13")
    row1 = next(line for line in lines if line.startswith(" 1 "))
    assert row1.count("◆") == 5  # the five is highlighted
    assert " A  B  C  D  E  F  G  H  I  J  K  L  M" in text
    assert "red   fives 1  reserve 54" in text
    assert "blue  fives 0  reserve 58  ◀ to move" in text
    assert "last move: A4-A1" in text


def scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    feed: Iterator[str] = iter(answers)
    said: list[str] = []
    return (lambda prompt: next(feed)), said


def test_two_humans_default_setup(rules: DotDashRules) -> None:
    ask, said = scripted(["", "blue"])
    result = run_pie(rules, ask, said.append)
    assert result.position == rules.parse_setup("setup R:G7 B:G8,H7 r")
    assert result.chooser_colour == 1
    assert said[-1] == "Red holds the single stone and moves first."


def test_bad_answers_are_asked_again(rules: DotDashRules) -> None:
    ask, said = scripted(["R:G7 B:G8", "setup R:A1,A2 B:C3", "x", "r"])
    pos = pie_setup(rules, ask, said.append)
    assert pos == rules.parse_setup("setup B:C3 R:A1,A2 b")
    assert pos.to_move == 1
    assert len([s for s in said if s.startswith("  ")]) == 2  # two error lines


def test_computer_roles(rules: DotDashRules) -> None:
    requests: list[str] = []

    def computer(request: str) -> str:
        requests.append(request)
        return "setup R:C3 B:K11,K3" if request == "place" else "b"

    ask, said = scripted(["r"])
    result = run_pie(rules, ask, said.append, computer, "placer")
    assert requests == ["place"] and result.chooser_colour == 0
    ask, said = scripted(["setup R:C3 B:K11,K3"])
    result = run_pie(rules, ask, said.append, computer, "chooser")
    assert requests[-1] == "choose setup R:C3 B:K11,K3 r"
    assert result.chooser_colour == 1 and "The computer chooses blue." in said


def test_pie_setup_validation() -> None:
    rules = make_rules("dotdash", "standard", 9)
    assert isinstance(rules, DotDashRules)
    with pytest.raises(NotationError, match="single stone"):
        pie_position(rules, "setup R:A1 B:A2,A3 b")
    with pytest.raises(NotationError):
        pie_position(rules, "setup R:A1 B:A2")
    with pytest.raises(NotationError):
        parse_colour("green")


def test_play_command_sides(rules: DotDashRules) -> None:
    """`boardlab play` passes its sides list: a computer side means the fixed setup."""
    said: list[str] = []
    pos = pie_setup(rules, lambda prompt: "should not be asked", said.append, ["human", "3"])
    assert pos == rules.parse_setup("setup R:G7 B:G8,H7 r")
    ask, said = scripted(["setup R:C3 B:K11,K3", "b"])
    assert pie_setup(rules, ask, said.append, ["human", "human"]).setup_text() == (
        "setup R:C3 B:K11,K3 r"
    )
