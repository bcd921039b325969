"""Forced results in Dodgem (`GameInfo.forced` of the game; see `boardlab.ai.forced`).

A complete table answers exactly when one is open in the table store; otherwise a bounded
proof search (a few tens of milliseconds) answers when the result lies within its horizon.
Repetition counts as a draw the way the game counts it, so a proven result cannot be dodged
by repeating.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from boardlab.ai.dodgem.search import FastBoard, SearchTimeout
from boardlab.ai.forced import DEFAULT_BUDGET, Forced
from boardlab.core.outcome import Value
from boardlab.core.rules import Rules
from boardlab.games.dodgem.notation import DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore


class _Prover:
    """Depth-bounded win/loss proof search on raw Dodgem masks."""

    def __init__(self, board: FastBoard, history: Sequence[DodgemPosition], budget: float):
        self.board = board
        self.deadline = time.perf_counter() + budget
        self.nodes = 0
        counts: dict[int, int] = {}
        for p in history:
            k = board.pos_key(p)
            counts[k] = counts.get(k, 0) + 1
        self.counts = counts
        self.rep = board.repetition or 3
        self.path: set[int] = set()
        # key -> [smallest depth proven won, smallest depth proven lost, largest depth unknown]
        self.tt: dict[int, list[int]] = {}

    def solve(self, a: int, b: int, side: int, depth: int, ply: int) -> int:
        """1 if the side to move wins within `depth` plies, -1 if it loses within them, else 0."""
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise SearchTimeout
        board = self.board
        key = ((a << board.nn | b) << 1) | side
        if ply and (key in self.path or self.counts.get(key, 0) + 1 >= self.rep):
            return 0
        winner, kids = board.expand(a, b, side)
        if winner >= 0:
            return 1 if winner == side else -1
        if depth == 0:
            return 0
        entry = self.tt.get(key)
        if entry is None:
            entry = self.tt[key] = [1 << 30, 1 << 30, -1]
        elif entry[0] <= depth:
            return 1
        elif entry[1] <= depth:
            return -1
        elif entry[2] >= depth:
            return 0
        nside = 1 - side
        # Look for a move that ends the game at once before searching deeper.
        for _, na, nb in kids:
            if board.winner_if_cleared(na, nb, nside) == side:
                entry[0] = 1
                return 1
        all_lost = True
        self.path.add(key)
        try:
            for _, na, nb in kids:
                v = -self.solve(na, nb, nside, depth - 1, ply + 1)
                if v == 1:
                    entry[0] = depth
                    return 1
                if v == 0:
                    all_lost = False
        finally:
            self.path.discard(key)
        if all_lost:
            entry[1] = depth
            return -1
        entry[2] = depth
        return 0


def _search_dodgem(
    rules: DodgemRules,
    pos: DodgemPosition,
    history: Sequence[DodgemPosition],
    budget: float,
    max_depth: int,
) -> Forced | None:
    board = FastBoard(rules)
    prover = _Prover(board, history, budget)
    a, b, side = pos.first, pos.second, pos.to_move
    try:
        for depth in range(0, max_depth + 1):
            v = prover.solve(a, b, side, depth, 0)
            if v:
                return Forced(side if v > 0 else 1 - side, depth, "search")
    except SearchTimeout:
        return None
    return None


def _from_table(
    rules: DodgemRules,
    pos: DodgemPosition,
    history: Sequence[DodgemPosition],
    tables: TableStore | None,
) -> Forced | Literal[False] | None:
    """The table's answer, None for a drawn position, or False when no table is open."""
    if tables is None:
        return False
    probed = tables.probe(rules, pos)
    if probed is None:
        return False
    value, remoteness = probed
    if value is Value.DRAW or remoteness is None:
        return None
    side = pos.to_move
    rep = rules.repetition
    if rep is not None and history and rules.outcome(pos) is None:
        # A repetition the game's history allows may turn a table result into a draw.
        counts: dict[DodgemPosition, int] = {}
        for p in (*history, pos):
            counts[p] = counts.get(p, 0) + 1
        kids = [rules.play(pos, m) for m in rules.legal_moves(pos)]
        if value is Value.LOSS and any(counts.get(k, 0) + 1 >= rep for k in kids):
            return None
        if value is Value.WIN:
            ok = False
            for k in kids:
                if counts.get(k, 0) + 1 >= rep:
                    continue
                kp = tables.probe(rules, k)
                if kp is not None and kp[0] is Value.LOSS:
                    ok = True
                    break
            if not ok:
                return None
    winner = side if value is Value.WIN else 1 - side
    return Forced(winner, remoteness, "table")


def forced_dodgem(
    rules: Rules[Any, Any],
    position: Hashable,
    history: Sequence[Hashable] = (),
    tables: TableStore | None = None,
    budget: float = DEFAULT_BUDGET,
    max_depth: int = 40,
) -> Forced | None:
    """The forced result for the side to move in an unfinished `position` (the caller,
    `boardlab.ai.forced.forced_result`, answers for finished ones), or None.

    Uses a table open in `tables` when there is one (never builds one), else a proof search
    limited to `budget` seconds and `max_depth` plies."""
    if not isinstance(rules, DodgemRules) or not isinstance(position, DodgemPosition):
        return None
    hist = [p for p in history if isinstance(p, DodgemPosition)]
    from_table = _from_table(rules, position, hist, tables)
    if from_table is not False:
        return from_table
    return _search_dodgem(rules, position, hist, budget, max_depth)
