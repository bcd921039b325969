"""Dot Dash boards for the terminal: coloured stones, coordinates, the last move and the fives
marked, and the five counts and reserves under the board."""

from __future__ import annotations

from rich.text import Text

from boardlab.games.dotdash.notation import COLUMNS, DotDashMove, DotDashPosition, Point
from boardlab.games.dotdash.rules import DotDashRules

_STONE = {0: "bold white on red3", 1: "bold white on blue"}
_FIVE = {0: "bold yellow on red3", 1: "bold yellow on blue"}
_LETTER = "RB"


def _marks(last_move: DotDashMove | None) -> tuple[set[Point], set[Point]]:
    """(points of the slide: source and destination, points where stones were dropped)."""
    if last_move is None:
        return set(), set()
    try:
        drops = set(last_move.drops())
    except ValueError:
        drops = set()
    return {last_move.src, last_move.dst}, drops


def render_board(
    rules: DotDashRules, position: DotDashPosition, last_move: DotDashMove | None = None
) -> Text:
    """The board as rich Text: rows top to bottom, stones in fives shown as ◆, the last move's
    source and destination underlined and its drops shown in bold."""
    n = position.size
    slide, drops = _marks(last_move)
    in_five: set[Point] = set()
    for player in (0, 1):
        for line in rules.five_lines(position, player):
            in_five.update(line)
    text = Text()
    for rank in range(n - 1, -1, -1):
        text.append(f"{rank + 1:>2} ", style="dim")
        for file in range(n):
            pt = Point(file, rank)
            owner = position.at(pt)
            if owner is None:
                cell, style = " · ", "grey50 on grey15"
                if pt in slide:
                    cell, style = " ○ ", "bold on dark_goldenrod"
            else:
                five = pt in in_five
                cell = f" {'◆' if five else _LETTER[owner]} "
                style = (_FIVE if five else _STONE)[owner]
                if pt in slide:
                    style += " underline"
                elif pt in drops:
                    style += " italic"
            text.append(cell, style=style)
        text.append("\n")
    text.append("   " + "".join(f" {COLUMNS[f]} " for f in range(n)) + "\n", style="dim")
    fives = rules.fives(position)
    reserves = rules.reserves(position)
    for player in (0, 1):
        name = rules.player_names[player]
        left = "unlimited" if reserves[player] is None else str(reserves[player])
        mover = "  ◀ to move" if player == position.to_move else ""
        text.append(f" {_LETTER[player]} ", style=_STONE[player])
        text.append(f" {name:<5} fives {fives[player]}  reserve {left}{mover}\n")
    if last_move is not None:
        text.append(f" last move: {last_move}\n", style="dim")
    return text


def notation_help(rules: DotDashRules) -> str:
    """How Dot Dash moves are written, for the terminal's `help`."""
    capture = (
        " In this variant FROMxTO (e.g. G7xG4) ends the slide on an enemy stone and takes it."
        if rules.variant == "capture"
        else ""
    )
    return (
        "Points are named by column letter and row number (A1 is bottom left). A move slides "
        "one of your stones in a straight line (any of 8 directions) at least three points "
        "over empty points, written FROM-TO, e.g. G7-G4; two stones of yours are then dropped "
        "on the two points just behind it. Five in a row scores; longer runs score one more "
        "five for every four extra stones. At the start of your turn you win if you have "
        f"more fives than your opponent, and lose if you cannot move.{capture}"
    )
