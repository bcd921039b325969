"""Facts a board drawing needs beyond the position text, for front ends that draw the board
themselves (the web page): the credited fives, their lines and the stones left in reserve."""

from __future__ import annotations

from typing import Any

from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.rules import DotDashRules


def board_facts(rules: DotDashRules, position: DotDashPosition) -> dict[str, Any]:
    """`fives`: red's and blue's credited five-in-a-rows; `lines`: each credited five as
    {"player", "points"} (point names); `reserves`: stones each side still holds (None for
    unlimited)."""
    return {
        "fives": list(rules.fives(position)),
        "lines": [
            {"player": p, "points": [str(pt) for pt in line]}
            for p in (0, 1)
            for line in rules.five_lines(position, p)
        ],
        "reserves": list(rules.reserves(position)),
    }
