"""Dodgem boards for the terminal: coloured cars, file and rank labels, the last move marked."""

from __future__ import annotations

from rich.text import Text

from boardlab.games.dodgem.notation import FILES, DodgemMove, DodgemPosition, Square
from boardlab.games.dodgem.rules import DodgemRules

_STYLE = {"B": "bold white on blue", "R": "bold white on red3", "G": "bold white on green4"}
_ARROWS = {  # the direction a side's cars drive, shown beside the board
    ("classic", 0): "→",
    ("classic", 1): "↑",
    ("piecepack", 0): "↑",
    ("piecepack", 1): "↓",
}


def render_board(
    rules: DodgemRules, position: DodgemPosition, last_move: DodgemMove | None = None
) -> Text:
    """The board as rich Text: ranks top to bottom, squares of the last move highlighted."""
    n = position.size
    marked: set[Square] = set()
    if last_move is not None and last_move.src is not None:
        marked.add(last_move.src)
        if last_move.dst is not None:
            marked.add(last_move.dst)
    text = Text()
    for rank in range(n - 1, -1, -1):
        text.append(f"{rank + 1:>2} ", style="dim")
        for file in range(n):
            sq = Square(file, rank)
            owner = position.at(sq)
            shade = "on grey27" if (file + rank) % 2 else "on grey19"
            if owner is None:
                cell, style = " · ", shade
            else:
                letter = position.letters[owner]
                cell, style = f" {letter} ", _STYLE.get(letter, "bold")
            if sq in marked:
                style = f"{style} underline" if owner is not None else "on dark_goldenrod"
            text.append(cell, style=style)
        text.append("\n")
    text.append("   " + "".join(f" {FILES[f]} " for f in range(n)) + "\n", style="dim")
    names = rules.player_names
    for player in (0, 1):
        letter = position.letters[player]
        arrow = _ARROWS[(rules.geometry, player)]
        mover = "  ◀ to move" if player == position.to_move else ""
        text.append(f" {letter} ", style=_STYLE.get(letter, "bold"))
        left = position.count(player)
        text.append(f" {names[player]} {arrow}  {left} on board{mover}\n")
    if last_move is not None:
        text.append(f" last move: {last_move}\n", style="dim")
    return text
