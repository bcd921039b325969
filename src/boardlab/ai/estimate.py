"""Search estimates of a position for boards without a complete table (`GameInfo.estimate`).

A game's estimator runs its strongest search (the level that plays from tables elsewhere)
under a node budget of its own (about a second of search on its boards), so an answer is the
same on every machine, and reports what the search saw: its score for the side to move,
turned into a share of a bar by a logistic curve in the game's own units, the depth it
finished, the line it expects and whether the result is proven (a forced win or loss inside
the search's horizon) or only an estimate.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from boardlab.core.outcome import Value
from boardlab.core.registry import get_game

PV_LENGTH = 8  # moves of the expected line that are reported


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a bounded search says of a position, from the side to move's point of view.

    `share` is in [0, 1]: 1 for a proven win, 0 for a proven loss, else the logistic of the
    score (0.5 for an even position); `plies` is the length of a proven result, else None.
    `line` is the expected line in notation, starting with the move the search prefers.
    """

    score: int
    share: float
    depth: int
    nodes: int
    line: tuple[str, ...]
    proven: bool
    plies: int | None = None


def share_of(score: int, scale: float) -> float:
    """The logistic of `score` in units of `scale` (the score that gives about 73%)."""
    x = max(-50.0, min(50.0, score / scale))
    return 1.0 / (1.0 + math.exp(-x))


def forced_move(
    rules: Any, position: Hashable, history: Sequence[Hashable], move: Any, nodes: int
) -> Estimate:
    """The estimate of a position with a single legal move: that move, then the estimate of
    the position it leads to (through the game's own estimator), seen from this side."""
    after = rules.play(position, move)
    text = rules.format_move(move)
    outcome = rules.outcome(after)
    mover = rules.to_move(position)
    if outcome is not None:
        value = outcome.value_for(mover)
        won = value == Value.WIN
        if value == Value.DRAW:
            return Estimate(0, 0.5, 1, 0, (text,), True, 1)
        return Estimate(1 if won else -1, 1.0 if won else 0.0, 1, 0, (text,), True, 1)
    estimate = get_game(rules.game).estimate
    assert estimate is not None  # only a game's own estimator calls this
    child: Estimate = estimate(rules, after, (*history, position), nodes)
    same = rules.to_move(after) == mover
    return Estimate(
        score=child.score if same else -child.score,
        share=child.share if same else 1.0 - child.share,
        depth=child.depth + 1,
        nodes=child.nodes,
        line=(text, *child.line[: PV_LENGTH - 1]),
        proven=child.proven,
        plies=None if child.plies is None else child.plies + 1,
    )
