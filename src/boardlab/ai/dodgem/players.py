"""Dodgem players built on the search: the noisy shallow searcher and the full searcher."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from boardlab.ai.base import Limits
from boardlab.ai.dodgem.search import MATE_BOUND, FastBoard, Searcher
from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.rules import Rules
from boardlab.games.dodgem.notation import DodgemMove, DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules


def _dodgem_args(
    rules: Rules[Any, Any], position: Hashable, history: Sequence[Hashable]
) -> tuple[DodgemRules, DodgemPosition, list[DodgemPosition]]:
    if not isinstance(rules, DodgemRules) or not isinstance(position, DodgemPosition):
        raise UsageError("this player plays Dodgem only")
    if rules.outcome(position) is not None:
        raise IllegalMoveError("no legal move: the game is over")
    hist = [p for p in history if isinstance(p, DodgemPosition)]
    return rules, position, hist


class _SearchOwner:
    """Keeps one searcher (and its transposition table) per ruleset; `contempt` is what
    the searcher thinks a draw by repetition costs it (hundredths of a step, see Searcher)."""

    def __init__(self, contempt: int = 0) -> None:
        self._searchers: dict[DodgemRules, Searcher] = {}
        self.contempt = contempt

    def searcher(self, rules: DodgemRules) -> Searcher:
        s = self._searchers.get(rules)
        if s is None:
            s = self._searchers[rules] = Searcher(FastBoard(rules), contempt=self.contempt)
        return s

    def trim(self, entries: int) -> None:
        """Empty any search table over `entries` entries (bounds a long-lived player)."""
        for s in self._searchers.values():
            if len(s.tt) > entries:
                s.tt.clear()
            if len(s.history_score) > entries:
                s.history_score.clear()


class NoisySearchPlayer(_SearchOwner):
    """A shallow searcher that misjudges: every move is scored `depth` plies deep, Gaussian
    noise of `noise` (hundredths of a step) is added, and with probability `blunder` a
    random move is played instead. Forced results it sees are never blurred by the noise."""

    def __init__(
        self, name: str, depth: int, noise: float, blunder: float = 0.0, contempt: int = 0
    ) -> None:
        super().__init__(contempt)
        self.name = name
        self.depth = depth
        self.noise = noise
        self.blunder = blunder

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> DodgemMove:
        """A move chosen from noisy shallow scores."""
        drules, pos, hist = _dodgem_args(rules, position, history)
        searcher = self.searcher(drules)
        board = searcher.board
        depth = limits.depth if limits is not None and limits.depth else self.depth
        scored = searcher.root_scores(pos, hist, max(1, depth))
        if rng.random() < self.blunder:
            return board.move_of(scored[rng.randrange(len(scored))][0])
        best_code, best = scored[0][0], -float("inf")
        for code, score in scored:
            value = float(score)
            if abs(score) < MATE_BOUND:
                value += rng.gauss(0.0, self.noise)
            if value > best:
                best_code, best = code, value
        return board.move_of(best_code)


class SearchPlayer(_SearchOwner):
    """Iterative-deepening alpha-beta with a node budget (reproducible) and a time cap.

    The node budget decides the move; the time cap only guards slow machines. `limits`
    replaces the time cap (`time`) or bounds the depth (`depth`).
    """

    def __init__(
        self, name: str, nodes: int, time_cap: float, max_depth: int = 64, contempt: int = 0
    ) -> None:
        super().__init__(contempt)
        self.name = name
        self.nodes = nodes
        self.time_cap = time_cap
        self.max_depth = max_depth

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> DodgemMove:
        """The best move the search finds within its budget."""
        drules, pos, hist = _dodgem_args(rules, position, history)
        searcher = self.searcher(drules)
        time_cap = self.time_cap
        depth = self.max_depth
        nodes: int | None = self.nodes
        if limits is not None:
            if limits.time is not None:
                time_cap = limits.time
                nodes = None
            if limits.depth is not None:
                depth = limits.depth
        result = searcher.search(
            pos, hist, rng, max_depth=depth, node_limit=nodes, time_limit=time_cap
        )
        return searcher.board.move_of(result.code)
