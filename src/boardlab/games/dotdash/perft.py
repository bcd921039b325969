"""Dot Dash perft: leaves of the move tree at a depth, the move generator's oracle.

A finished game (outcome not None) has no children; leaves at the given depth are counted
whether finished or not. Repetition and the ply limit of the capture variant are ignored.
"""

from __future__ import annotations

from boardlab.core.errors import UsageError
from boardlab.core.rules import perft_by_rules
from boardlab.games.dotdash.kernel import perft_arrays
from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.rules import DotDashRules


def perft(rules: DotDashRules, position: DotDashPosition, depth: int) -> int:
    """Leaf count at `depth` below `position`, by the compiled kernel."""
    if depth < 0:
        raise UsageError("perft depth must be 0 or more")
    rules.check_position(position)
    return perft_arrays(position, depth, rules.mode, rules.reserve)


def perft_reference(rules: DotDashRules, position: DotDashPosition, depth: int) -> int:
    """The same count through the rules object (slow; for checking the kernel)."""
    return perft_by_rules(rules, position, depth)
