"""Board facts the page draws but should not work out again in JavaScript: the step
geometry and exit edges of Dodgem, the credited five-in-a-rows and reserves of Dot Dash."""

from __future__ import annotations

from typing import Any

from boardlab.core.registry import AnyRules
from boardlab.web import schemas as s

# A forward step off the board names the edge a car leaves by.
_EDGE = {(1, 0): "east", (-1, 0): "west", (0, 1): "north", (0, -1): "south"}


def board_facts(rules: AnyRules, position: Any) -> s.BoardFactsOut | None:
    """What the board shows beyond the stones and cars (None for a game without facts)."""
    from boardlab.games.dodgem.rules import _STEPS, DodgemRules
    from boardlab.games.dotdash.rules import DotDashRules

    if isinstance(rules, DodgemRules):
        steps = _STEPS[rules.geometry]
        return s.BoardFactsOut(
            steps=[[list(step) for step in player] for player in steps],
            exits=[_EDGE[player[0]] for player in steps],
        )
    if isinstance(rules, DotDashRules):
        lines = [
            s.FiveLineOut(player=p, points=[str(pt) for pt in line])
            for p in (0, 1)
            for line in rules.five_lines(position, p)
        ]
        return s.BoardFactsOut(
            fives=list(rules.fives(position)),
            lines=lines,
            reserves=list(rules.reserves(position)),
        )
    return None
