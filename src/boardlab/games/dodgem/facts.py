"""Facts a board drawing needs beyond the position text, for front ends that draw the board
themselves (the web page): the way each side's cars step and the edge they leave by."""

from __future__ import annotations

from typing import Any

from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import _STEPS, DodgemRules

# A forward step off the board names the edge a car leaves by.
EDGES = {(1, 0): "east", (-1, 0): "west", (0, 1): "north", (0, -1): "south"}


def board_facts(rules: DodgemRules, position: DodgemPosition) -> dict[str, Any]:
    """`steps`: per player, the forward step then the two sideways ones as [dfile, drank];
    `exits`: per player, the edge its cars leave by ('east', 'west', 'north' or 'south').
    The same for every position of a ruleset."""
    steps = _STEPS[rules.geometry]
    return {
        "steps": [[list(step) for step in player] for player in steps],
        "exits": [EDGES[player[0]] for player in steps],
    }
