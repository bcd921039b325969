"""The perfect Dodgem player: plays from the complete table, and sets traps in drawn games.

- Won: the fastest win (so it never repeats a position on the way).
- Lost: a move that draws by repetition if the game's history offers one, else the slowest
  loss, among equally slow ones the one with the fewest opponent replies that do not lose.
- Drawn: a move that keeps the draw and puts the opponent under pressure: the drawing moves
  are ranked by a 3-ply heuristic search (the race as the searching levels see it) plus a
  bonus for the chance that the opponent errs next move. That chance weights each reply by
  how good it looks to the opponent (a softmax over the static evaluation) and sums the
  weights of the losing replies. A third repetition is played only when no other drawing
  move exists.

Tables come from the `TableStore` the player is given (the default folder's when none is);
small boards build theirs on first use. Without a table (boards over 4×4 not built,
Piecepack, 6×6 and up) it plays by search and says so once on stderr.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from boardlab.ai.base import Limits
from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer, _dodgem_args
from boardlab.ai.dodgem.search import MATE_BOUND, FastBoard, Searcher
from boardlab.core.outcome import Value
from boardlab.core.rules import Rules
from boardlab.games.dodgem.notation import DodgemMove, DodgemPosition
from boardlab.games.dodgem.rules import DodgemRules

if TYPE_CHECKING:
    from boardlab.solver.store import TableStore

_warned: set[str] = set()
TRAP_TEMPERATURE = 100.0
TRAP_WEIGHT = 200.0  # a sure trap is worth two steps of the race
PRESSURE_DEPTH = 3  # plies of the heuristic search that ranks drawing moves


def _warn_once(rules: DodgemRules) -> None:
    key = rules.ruleset_id()
    if key not in _warned:
        _warned.add(key)
        print(
            f"note: no complete table for {key}; level 4 plays by search "
            "(build one with `boardlab solve`)",
            file=sys.stderr,
        )


class PerfectPlayer:
    """Level 4: perfect play from the table where one exists, else the strongest search."""

    def __init__(
        self,
        fallback: SearchPlayer | NoisySearchPlayer,
        tables: TableStore | None = None,
        build_small: bool = True,
    ) -> None:
        self.name = "level 4"
        self.fallback = fallback
        self.build_small = build_small
        self._tables = tables

    @property
    def tables(self) -> TableStore:
        """The store this player reads tables from."""
        if self._tables is None:
            from boardlab.solver.store import TableStore

            self._tables = TableStore()
        return self._tables

    def table(self, rules: DodgemRules) -> Any | None:
        """The complete table for `rules` (built at once on small boards), or None."""
        return self.tables.get(rules, build=self.build_small)

    def trim(self, entries: int) -> None:
        """Bound the fallback search's tables (see SearchPlayer.trim)."""
        self.fallback.trim(entries)

    def has_table(self, rules: DodgemRules) -> bool:
        """True if a complete table is open (or can be built at once) for `rules`."""
        return self.table(rules) is not None

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> DodgemMove:
        """The table's best move (see the module docstring), or the search's."""
        drules, pos, hist = _dodgem_args(rules, position, history)
        table = self.table(drules)
        if table is None:
            _warn_once(drules)
            return self.fallback.choose(rules, position, history, rng, limits)
        return choose_from_table(drules, table, pos, hist, rng)


def _probe(table: Any, pos: DodgemPosition) -> tuple[Value, int]:
    value, remoteness = table.probe(pos)
    return Value(value), -1 if remoteness is None else int(remoteness)


@lru_cache(maxsize=16)
def _board(rules: DodgemRules) -> FastBoard:
    return FastBoard(rules)


def _trap(looks: list[tuple[float, bool]]) -> float:
    """Chance the opponent errs if it favours replies that look good to it: a softmax over
    its static view of each reply (one step of the race = 100), summed over the errors."""
    if not looks:
        return 0.0
    top = max(x for x, _ in looks)
    weights = [(math.exp((x - top) / TRAP_TEMPERATURE), bad) for x, bad in looks]
    total = sum(w for w, _ in weights)
    return round(sum(w for w, bad in weights if bad) / total, 3)


def choose_from_table(
    rules: DodgemRules,
    table: Any,
    pos: DodgemPosition,
    history: Sequence[DodgemPosition],
    rng: random.Random,
) -> DodgemMove:
    """The perfect player's move in `pos` given the game's earlier positions."""
    rep = rules.repetition or 1 << 30
    board = _board(rules)
    draw_codes: list[int] = []
    counts: dict[DodgemPosition, int] = {}
    for p in (*history, pos):
        counts[p] = counts.get(p, 0) + 1
    wins: list[tuple[int, DodgemMove]] = []
    draws: list[tuple[tuple[float, ...], DodgemMove]] = []
    losses: list[tuple[tuple[float, ...], DodgemMove]] = []
    for move in rules.legal_moves(pos):
        child = rules.play(pos, move)
        seen = counts.get(child, 0)
        if seen + 1 >= rep:  # this move ends the game in a draw by repetition
            draws.append(((1, 0, 0, seen), move))
            continue
        theirs, remoteness = _probe(table, child)
        mine = theirs.flipped()
        if mine is Value.WIN:
            wins.append((remoteness, move))
            continue
        # The opponent's replies as it sees them, marked when they are mistakes: a reply
        # that loses for it, or, when we are lost, one that does not win for it (a third
        # repetition is a draw).
        looks: list[tuple[float, bool]] = []
        losing = mistakes = 0
        for reply in rules.legal_moves(child):
            grand = rules.play(child, reply)
            look = float(-board.evaluate(grand.first, grand.second, grand.to_move))
            if counts.get(grand, 0) + 1 >= rep:
                looks.append((look, mine is Value.LOSS))
                continue
            v, _ = _probe(table, grand)
            bad = v is Value.WIN if mine is Value.DRAW else v is not Value.LOSS
            losing += v is Value.WIN
            mistakes += bad
            looks.append((look, bad))
        if mine is Value.DRAW:
            draws.append(((0, -_trap(looks), -losing, seen), move))
            draw_codes.append(board.code_of(move))
        else:
            losses.append(((-remoteness, len(looks) - losing, seen), move))
    if wins:
        best_r = min(r for r, _ in wins)
        pool = [m for r, m in wins if r == best_r]
    elif draws:
        if len(draw_codes) > 1 and PRESSURE_DEPTH > 0:
            draws = _pressure(rules, pos, history, draws, draw_codes)
        best_k = min(k for k, _ in draws)
        pool = [m for k, m in draws if k == best_k]
    else:
        best_l = min(k for k, _ in losses)
        pool = [m for k, m in losses if k == best_l]
    return pool[rng.randrange(len(pool))]


def _pressure(
    rules: DodgemRules,
    pos: DodgemPosition,
    history: Sequence[DodgemPosition],
    draws: list[tuple[tuple[float, ...], DodgemMove]],
    draw_codes: list[int],
) -> list[tuple[tuple[float, ...], DodgemMove]]:
    """Re-rank the drawing moves by a shallow search score plus the trap chance."""
    searcher = Searcher(_board(rules))
    heuristic = dict(searcher.root_scores(pos, history, PRESSURE_DEPTH))
    out: list[tuple[tuple[float, ...], DodgemMove]] = []
    codes = iter(draw_codes)
    for key, move in draws:
        if key[0] != 0:
            out.append((key, move))
            continue
        h = max(-MATE_BOUND, min(MATE_BOUND, heuristic[next(codes)]))
        out.append(((0, -(h + TRAP_WEIGHT * -key[1]), *key[2:]), move))
    return out
