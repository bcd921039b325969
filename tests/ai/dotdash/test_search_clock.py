"""Level 4 on a clock never searches shallower than level 3."""

from __future__ import annotations

import random

from boardlab.ai.dotdash.levels import player_for_level
from boardlab.ai.dotdash.players import MIN_DEPTH, DotDashSearchPlayer
from boardlab.ai.dotdash.search import WIN
from boardlab.core import make_rules
from boardlab.games.dotdash.rules import DotDashRules

from .test_search_iterative import playouts


def test_a_spent_clock_still_buys_level_3s_plies() -> None:
    rules = make_rules("dotdash", "standard", 13)
    assert isinstance(rules, DotDashRules)
    level4 = player_for_level(4, rules)
    level3 = player_for_level(3, rules)
    assert isinstance(level4, DotDashSearchPlayer) and isinstance(level3, DotDashSearchPlayer)
    assert level4.time_limit is not None and level3.depth == MIN_DEPTH
    checked = 0
    for pos in playouts(rules, 41, 6):
        # a clock of a nanosecond runs out during the first ply
        result = level4.search(rules, pos, random.Random(0), level4.depth, 1e-9)
        if abs(result.score) >= WIN - 1000 or len(rules.legal_moves(pos)) == 1:
            continue  # decided, or forced: the search stops early on purpose
        assert result.depth == MIN_DEPTH
        checked += 1
    assert checked >= 3
