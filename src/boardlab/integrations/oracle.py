"""A perfect-play oracle for learners: how often an agent's moves give away value according
to a complete table.

A move *throws away a win* when the mover stood on a won position and the move leads to a
position that is not won for it, and *throws away a draw* when the mover stood on a drawn
position and the move loses. The oracle's measure is the fraction of an agent's moves, over
a set of games, that do either: 0 for a perfect player, and an exploitability-style score a
learner can drive down. Values are the table's, which does not see the game's history (a
move that repeats a position for the third time is judged by the position it reaches).

Tables exist for Dodgem boards the solver handles (`boardlab solve`); 3×3 and 4×4 are built
on first use in seconds.

>>> from boardlab.ai.base import RandomPlayer
>>> from boardlab.core.registry import make_rules
>>> from boardlab.integrations.oracle import evaluate_agent
>>> report = evaluate_agent(RandomPlayer(), make_rules("dodgem", "classic", 3), games=20)
>>> report.games, 0.0 < report.error_rate < 1.0
(20, True)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardlab.ai.base import Player, RandomPlayer
from boardlab.ai.match import play_game
from boardlab.core.errors import MissingTableError
from boardlab.core.outcome import Value
from boardlab.core.rules import Rules
from boardlab.solver.store import TableStore


class Table(Protocol):
    """Anything that gives the value of a position for the side to move (a `Tablebase`)."""

    def probe(self, position: Any) -> tuple[Value, int | None]:
        """(value for the side to move, plies to the end or None for a draw)."""
        ...


class Verdict(enum.StrEnum):
    """What a move did to the mover's game-theoretic value."""

    KEPT = "kept"  # the value stayed what it was (or the position was already lost)
    WIN_THROWN = "win-thrown"  # a won position left for a drawn or lost one
    DRAW_THROWN = "draw-thrown"  # a drawn position left for a lost one


def judge(rules: Rules[Any, Any], table: Table, position: Hashable, move: Any) -> Verdict:
    """The verdict on playing `move` in `position`."""
    before, _ = table.probe(position)
    after = table.probe(rules.play(position, move))[0].flipped()
    if before is Value.WIN and after is not Value.WIN:
        return Verdict.WIN_THROWN
    if before is Value.DRAW and after is Value.LOSS:
        return Verdict.DRAW_THROWN
    return Verdict.KEPT


@dataclass(slots=True)
class OracleReport:
    """Counts over an agent's moves in a set of games."""

    games: int = 0
    moves: int = 0
    from_won: int = 0  # moves made from won positions
    from_drawn: int = 0  # moves made from drawn positions
    wins_thrown: int = 0
    draws_thrown: int = 0
    results: dict[str, int] = field(default_factory=lambda: {"win": 0, "loss": 0, "draw": 0})

    @property
    def errors(self) -> int:
        """Moves that threw away a win or a draw."""
        return self.wins_thrown + self.draws_thrown

    @property
    def error_rate(self) -> float:
        """The oracle's measure: errors divided by moves (0 when no move was made)."""
        return self.errors / self.moves if self.moves else 0.0

    def add(self, verdict: Verdict, before: Value) -> None:
        """Count one judged move made from a position of value `before`."""
        self.moves += 1
        self.from_won += before is Value.WIN
        self.from_drawn += before is Value.DRAW
        self.wins_thrown += verdict is Verdict.WIN_THROWN
        self.draws_thrown += verdict is Verdict.DRAW_THROWN

    def summary(self) -> str:
        """One line for a report."""
        r = self.results
        return (
            f"{self.moves} moves in {self.games} games (W-L-D {r['win']}-{r['loss']}-"
            f"{r['draw']}): {self.wins_thrown} wins and {self.draws_thrown} draws thrown "
            f"away, error rate {self.error_rate:.3f}"
        )


def open_oracle_table(rules: Rules[Any, Any], tables: TableStore | None = None) -> Table:
    """The complete table of a ruleset from `tables` (default: the user's table folder),
    built first when missing (small boards take seconds); MissingTableError when the solver
    cannot table these rules."""
    store = TableStore() if tables is None else tables
    if not store.solvable(rules):
        raise MissingTableError(f"no complete table can be built for {rules.game} {rules.variant}")
    try:
        table: Table = store.open(rules)
    except MissingTableError:
        table = store.build(rules)
    return table


def evaluate_agent(
    agent: Player,
    rules: Rules[Any, Any],
    games: int = 100,
    opponent: Player | None = None,
    seed: int = 0,
    table: Table | None = None,
    max_plies: int = 1000,
) -> OracleReport:
    """Play `games` games of `agent` against `opponent` (default: random), the agent moving
    first in even games and second in odd ones, and judge every move the agent makes."""
    table = open_oracle_table(rules) if table is None else table
    opponent = RandomPlayer() if opponent is None else opponent
    report = OracleReport()
    for i in range(games):
        seat = i % 2
        players = [agent, opponent] if seat == 0 else [opponent, agent]
        session = play_game(rules, players, random.Random(f"{seed}/{i}"), max_plies=max_plies)
        report.games += 1
        for ply in session.plies:
            if rules.to_move(ply.before) != seat:
                continue
            before, _ = table.probe(ply.before)
            report.add(judge(rules, table, ply.before, ply.move), before)
        result = session.result
        if result is None or result.winner is None:
            report.results["draw"] += 1
        else:
            report.results["win" if result.winner == seat else "loss"] += 1
    return report
