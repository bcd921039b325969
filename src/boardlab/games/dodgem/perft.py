"""Perft for Dodgem: the number of leaves of the move tree, by the compiled rules kernel.

A finished game (a side has cleared its cars, or a blocked side under blocked = wins or
loses) has no children; a Piecepack pass is a move; repetition is ignored. At the last ply
the moves are counted without being played.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.errors import UsageError
from boardlab.core.rules import perft_by_rules
from boardlab.games.dodgem import kernel
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules


def perft(rules: DodgemRules, position: DodgemPosition, depth: int) -> int:
    """Leaf count of the move tree of `position` at `depth` plies."""
    if depth < 0:
        raise UsageError("perft depth must be 0 or more")
    count: int = int(
        kernel.perft(
            np.uint64(position.first),
            np.uint64(position.second),
            position.to_move,
            depth,
            kernel.step_array(rules),
            kernel.blocked_code(rules.blocked),
            rules.goal == "misere",
            kernel.perft_buffer(rules.size, depth),
        )
    )
    return count


def perft_reference(rules: DodgemRules, position: DodgemPosition, depth: int) -> int:
    """The same count through the rules object (slow; for checking the kernel)."""
    return perft_by_rules(rules, position, depth)
