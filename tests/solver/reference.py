"""A slow, obviously correct retrograde solver over DodgemRules, for differential tests.

Positions are enumerated as DodgemPosition objects; values are found round by round:
round r decides exactly the positions whose remoteness is r (win: a child lost in r-1;
loss: every child won, the longest in r-1). Positions never decided are draws."""

from __future__ import annotations

import itertools

from boardlab.core.outcome import Value
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules


def all_positions(size: int, letters: str = "BR") -> list[DodgemPosition]:
    """Every placement of at most size-1 cars per side on distinct squares, either side to move."""
    squares = range(size * size)
    out = []
    for b in range(size):
        for blue in itertools.combinations(squares, b):
            rest = [q for q in squares if q not in blue]
            for r in range(size):
                for red in itertools.combinations(rest, r):
                    mb = sum(1 << q for q in blue)
                    mr = sum(1 << q for q in red)
                    for side in (0, 1):
                        out.append(DodgemPosition(size, mb, mr, side, letters))
    return out


def children_graph(rules: DodgemRules) -> tuple[list[DodgemPosition], list[list[int]]]:
    """All positions and, for each, the indices of the positions its legal moves lead to."""
    positions = all_positions(rules.size, rules.letters)
    where = {p: i for i, p in enumerate(positions)}
    kids = []
    for p in positions:
        if rules.outcome(p) is not None:
            kids.append([])
        else:
            kids.append([where[rules.play(p, m)] for m in rules.legal_moves(p)])
    return positions, kids


def solve(
    rules: DodgemRules, graph: tuple[list[DodgemPosition], list[list[int]]] | None = None
) -> dict[DodgemPosition, tuple[Value, int | None]]:
    """Value and remoteness of every position for the side to move."""
    positions, kids = graph if graph is not None else children_graph(rules)
    value: list[Value | None] = [None] * len(positions)
    rem: list[int] = [-1] * len(positions)
    for i, p in enumerate(positions):
        out = rules.outcome(p)
        if out is not None:
            value[i] = out.value_for(p.to_move)
            rem[i] = 0
    parents: list[list[int]] = [[] for _ in positions]
    for i, ch in enumerate(kids):
        for c in ch:
            parents[c].append(i)
    # Only a position with a child decided in the previous round can be decided in this one.
    last = [i for i in range(len(positions)) if value[i] is not None]
    r = 0
    while last:
        r += 1
        candidates = {q for c in last for q in parents[c] if value[q] is None}
        decided = []
        for i in candidates:
            ch = kids[i]
            if any(value[c] is Value.LOSS and rem[c] == r - 1 for c in ch):
                decided.append((i, Value.WIN))
            elif all(value[c] is Value.WIN and rem[c] < r for c in ch) and any(
                rem[c] == r - 1 for c in ch
            ):
                decided.append((i, Value.LOSS))
        for i, v in decided:
            value[i] = v
            rem[i] = r
        last = [i for i, _ in decided]
    return {
        p: (Value.DRAW, None) if value[i] is None else (value[i], rem[i])  # type: ignore[misc]
        for i, p in enumerate(positions)
    }
