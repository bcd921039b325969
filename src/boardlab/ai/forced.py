"""Forced results for any game: does the side to move have a forced win or loss, and in how
many plies? A finished position answers itself; otherwise the game's declared finder
(`GameInfo.forced`) answers, and a game without one has no answer."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from boardlab.core.registry import get_game
from boardlab.core.rules import Rules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore

DEFAULT_BUDGET = 0.06  # seconds of proof search per call


@dataclass(frozen=True, slots=True)
class Forced:
    """A forced result: `winner` (0 first player, 1 second) wins within `plies` plies
    whatever the loser does, as shown by a complete table or by a bounded search."""

    winner: int
    plies: int
    proven_by: Literal["table", "search"]


def forced_result(
    rules: Rules[Any, Any],
    position: Hashable,
    history: Sequence[Hashable] = (),
    tables: TableStore | None = None,
    budget: float = DEFAULT_BUDGET,
    max_depth: int = 40,
) -> Forced | None:
    """The forced result for the side to move in `position`, or None if none is known.

    A finished position gives its result with 0 plies. Otherwise the game's finder decides:
    for Dodgem a table in `tables` when one is open (never built here), else a proof search
    limited to `budget` seconds and `max_depth` plies."""
    end = rules.outcome(position)
    if end is not None:
        return None if end.winner is None else Forced(end.winner, 0, "search")
    finder = get_game(rules.game).forced
    if finder is None:
        return None
    found: Forced | None = finder(rules, position, history, tables, budget, max_depth)
    return found
