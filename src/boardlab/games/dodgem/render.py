"""Dodgem boards for the terminal: coloured cars, file and rank labels, the last move marked."""

from __future__ import annotations

from rich.text import Text

from boardlab.games.dodgem.notation import FILES, DodgemMove, DodgemPosition, Square
from boardlab.games.dodgem.rules import _STEPS, DodgemRules

_STYLE = {"B": "bold white on blue", "R": "bold white on red3", "G": "bold white on green4"}
_EDGE_STYLE = {"B": "bold blue", "R": "bold red3", "G": "bold green4"}
_ARROWS = {  # the direction a side's cars drive, shown beside the board
    ("classic", 0): "→",
    ("classic", 1): "↑",
    ("piecepack", 0): "↑",
    ("piecepack", 1): "↓",
}


_EDGE = {(1, 0): "east", (0, 1): "north", (0, -1): "south"}
_EXIT_MARK = {"east": "▶", "north": "▲", "south": "▼"}


def exit_edges(rules: DodgemRules) -> tuple[str, str]:
    """The edge each side's cars leave by: "east", "north" or "south"."""
    steps = _STEPS[rules.geometry]
    return _EDGE[steps[0][0]], _EDGE[steps[1][0]]


def render_board(
    rules: DodgemRules, position: DodgemPosition, last_move: DodgemMove | None = None
) -> Text:
    """The board as rich Text: ranks top to bottom, each side's exit edge drawn in its
    colour beyond the board, the squares of the last move highlighted, and a car that just
    left the board shown as a mark on the exit edge where it went off."""
    n = position.size
    marked: set[Square] = set()
    gone: Square | None = None  # the square a car left the board from
    if last_move is not None and last_move.src is not None:
        marked.add(last_move.src)
        if last_move.dst is not None:
            marked.add(last_move.dst)
        else:
            gone = last_move.src
    mover_edge = exit_edges(rules)[1 - position.to_move] if gone is not None else None
    edges = exit_edges(rules)
    owner_of = {edge: p for p, edge in enumerate(edges)}
    letters = position.letters

    def edge_row(edge: str) -> None:
        p = owner_of[edge]
        text.append("   ")
        for file in range(n):
            trace = edge == mover_edge and gone is not None and gone.file == file
            mark = " ◆ " if trace else f" {_EXIT_MARK[edge]} "
            text.append(mark, style=_EDGE_STYLE.get(letters[p], "bold"))
        text.append("\n")

    text = Text()
    if "north" in owner_of:
        edge_row("north")
    for rank in range(n - 1, -1, -1):
        text.append(f"{rank + 1:>2} ", style="dim")
        for file in range(n):
            sq = Square(file, rank)
            owner = position.at(sq)
            shade = "on grey27" if (file + rank) % 2 else "on grey19"
            if owner is None:
                cell, style = " · ", shade
            else:
                letter = letters[owner]
                cell, style = f" {letter} ", _STYLE.get(letter, "bold")
            if sq in marked:
                style = f"{style} underline" if owner is not None else "on dark_goldenrod"
            text.append(cell, style=style)
        if "east" in owner_of:
            p = owner_of["east"]
            trace = mover_edge == "east" and gone is not None and gone.rank == rank
            text.append(
                " ◆" if trace else f" {_EXIT_MARK['east']}",
                style=_EDGE_STYLE.get(letters[p], "bold"),
            )
        text.append("\n")
    if "south" in owner_of:
        edge_row("south")
    text.append("   " + "".join(f" {FILES[f]} " for f in range(n)) + "\n", style="dim")
    names = rules.player_names
    over = rules.outcome(position) is not None
    for player in (0, 1):
        letter = letters[player]
        arrow = _ARROWS[(rules.geometry, player)]
        mover = "  ◀ to move" if player == position.to_move and not over else ""
        text.append(f" {letter} ", style=_STYLE.get(letter, "bold"))
        left = position.count(player)
        edge = _EXIT_MARK[edges[player]]
        text.append(f" {names[player]} {arrow}  {left} on board, exit {edge}{mover}\n")
    if last_move is not None:
        text.append(f" last move: {last_move}\n", style="dim")
    return text


_COMPASS = {(1, 0): "east", (-1, 0): "west", (0, 1): "north", (0, -1): "south"}
_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def notation_help(rules: DodgemRules) -> str:
    """How Dodgem moves go and are written, and how these rules end, for the terminal's
    `help`: each side's directions and exit edge come from the rules themselves."""
    names = rules.player_names
    edges = exit_edges(rules)
    words = {"east": "the right-hand file", "north": "the top rank", "south": "the bottom rank"}
    steps = _STEPS[rules.geometry]

    def directions(player: int) -> str:
        forward, *side = (_COMPASS[step] for step in steps[player])
        return f"a {names[player]} car {forward} (forward), {' or '.join(side)}"

    goal = "wins" if rules.goal == "normal" else "loses"
    blocked = {
        "wins": "A player left without a move on their turn wins.",
        "loses": "A player left without a move on their turn loses.",
        "passes": "A player without a move passes.",
    }[rules.blocked]
    repeat = ""
    if rules.repetition is not None:
        nth = _ORDINAL.get(rules.repetition, f"{rules.repetition}th")
        repeat = f" The same position with the same side to move a {nth} time is a draw."
    n = rules.size
    (dx, dy), edge = steps[0][0], edges[0]  # examples for the first side: a step, a way off
    step = f"b2-{FILES[1 + dx]}{2 + dy}"
    off = {"east": f"{FILES[n - 1]}2-off", "north": f"b{n}-off", "south": "b1-off"}[edge]
    return (
        "Squares are named by file letter and rank number (a1 is bottom left). Each turn one "
        f"car steps one square onto an empty square: {directions(0)}; {directions(1)}. "
        f"Such a move is written FROM-TO, e.g. {step}. A car on its exit edge "
        f"({names[0]}: {words[edges[0]]}, {names[1]}: {words[edges[1]]}) may instead drive "
        f"off the board, written FROM-off, e.g. {off}. Cars never jump or capture. The first "
        f"to get all of its cars off {goal}. {blocked}{repeat}"
    )
