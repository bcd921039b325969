"""How often the searching levels throw away a win or a draw, judged by a complete table.

Positions come from real games: seeded games between the computer levels (level 1 against
level 3 and level 2 against level 3, colours alternated) on the board, every position with a
choice of moves, deduplicated, then a seeded sample. At each position every measured player
picks its move (the history of the game that reached it is passed along, as in play) and the
table says whether the move keeps the position's value: from a won position a move must leave
the opponent lost; from a drawn one it must not leave the opponent a win. Level 4's search is
the search the app uses where no table is installed (level 4 without its table).

This is the yardstick for 7×7 and 8×8, where no table can exist: measure it where one does.

    python benchmarks/strength.py --size 6 --variant classic --tables DIR --positions 300
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.ai.base import Player
from boardlab.ai.dodgem.levels import player_for_level
from boardlab.ai.dodgem.perfect import PerfectPlayer
from boardlab.core.outcome import Value
from boardlab.core.session import GameSession
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore

GAME_PAIRS = ((1, 3), (2, 3))  # the levels whose games supply the positions
MAX_PLIES = 300


@dataclass
class Tally:
    """One player's record over the sampled positions."""

    seen: Counter[Value] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def line(self, name: str) -> str:
        """The table row of this player."""
        chances = self.seen[Value.WIN] + self.seen[Value.DRAW]
        wrong = sum(self.errors.values())
        share = 100 * wrong / chances if chances else 0.0
        moves = sum(self.seen.values())
        ms = 1000 * self.seconds / moves if moves else 0.0
        return (
            f"{name:<16} {self.seen[Value.WIN]:5d} {self.seen[Value.DRAW]:5d} "
            f"{self.seen[Value.LOSS]:5d}   {self.errors['win→draw']:8d} "
            f"{self.errors['win→loss']:8d} {self.errors['draw→loss']:9d}   "
            f"{wrong:3d}/{chances:<4d} {share:5.1f}%  {ms:8.0f}"
        )


def search_player(level: int, size: int, variant: str) -> Player:
    """The level's player without a table: level 4 is its search alone."""
    player = player_for_level(level, rules_for(variant, size))
    if isinstance(player, PerfectPlayer):
        return player.fallback
    return player


def game_positions(rules: Any, games: int, seed: int) -> list[tuple[Any, tuple[Any, ...]]]:
    """(position, history before it) for every position with a choice in seeded games
    between the levels of GAME_PAIRS, first occurrence only."""
    seen: set[Any] = set()
    out: list[tuple[Any, tuple[Any, ...]]] = []
    size, variant = rules.size, rules.variant
    for g in range(games):
        low, high = GAME_PAIRS[g % len(GAME_PAIRS)]
        players = [search_player(low, size, variant), search_player(high, size, variant)]
        if (g // len(GAME_PAIRS)) % 2:
            players.reverse()
        rng = random.Random(seed * 10_007 + g)
        session: GameSession[Any, Any] = GameSession(rules)
        while not session.is_over and len(session.plies) < MAX_PLIES:
            pos = session.position
            if pos not in seen and len(rules.legal_moves(pos)) > 1:
                seen.add(pos)
                out.append((pos, tuple(session.positions[:-1])))
            move = players[session.to_move].choose(rules, pos, session.positions[:-1], rng)
            session.play(move)
    return out


def judge(
    rules: Any, tables: TableStore, players: dict[str, Player], sample: list[Any], seed: int
) -> dict[str, Tally]:
    """Each player's choice at each sampled position, judged by the table."""
    tallies = {name: Tally() for name in players}
    for k, (pos, history) in enumerate(sample):
        found = tables.probe(rules, pos)
        if found is None:
            raise SystemExit(f"no table for {rules.ruleset_id()} in {tables.folder}")
        value = found[0]
        for name, player in players.items():
            rng = random.Random(seed * 7919 + k)
            t0 = time.perf_counter()
            move = player.choose(rules, pos, list(history), rng)
            tallies[name].seconds += time.perf_counter() - t0
            tallies[name].seen[value] += 1
            child = tables.probe(rules, rules.play(pos, move))
            assert child is not None
            after = child[0].flipped()  # the child's value seen by the mover
            if value is Value.WIN and after is not Value.WIN:
                tallies[name].errors[f"win→{after.value}"] += 1
            elif value is Value.DRAW and after is Value.LOSS:
                tallies[name].errors["draw→loss"] += 1
        if (k + 1) % 25 == 0 or k + 1 == len(sample):
            print(f"  {k + 1}/{len(sample)} positions judged", file=sys.stderr, flush=True)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--tables", type=Path, default=None, help="tablebase folder")
    parser.add_argument("--positions", type=int, default=300, help="positions to judge")
    parser.add_argument("--games", type=int, default=40, help="games that supply them")
    parser.add_argument("--levels", default="3,4", help="levels to measure (4: its search)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.positions < 1 or args.games < 1:
        parser.error("--positions and --games must be at least 1")
    print(header("Searching levels judged by the complete table"))
    rules = rules_for(args.variant, args.size)
    tables = TableStore(args.tables)
    if tables.get(rules, build=args.size <= 4) is None:
        raise SystemExit(f"no table for {rules.ruleset_id()}: build it with boardlab solve")
    pool = game_positions(rules, args.games, args.seed)
    sample = random.Random(args.seed).sample(pool, min(args.positions, len(pool)))
    print(f"{rules.ruleset_id()}: {len(sample)} positions from {len(pool)} in {args.games} games")
    levels = [int(x) for x in args.levels.split(",")]
    players = {
        (f"level {lv} search" if lv == 4 else f"level {lv}"): search_player(
            lv, args.size, args.variant
        )
        for lv in levels
    }
    tallies = judge(rules, tables, players, sample, args.seed)
    print(
        "player             won drawn  lost   win→draw win→loss draw→loss   thrown away     ms/move"
    )
    for name, tally in tallies.items():
        print(tally.line(name))


if __name__ == "__main__":
    main()
