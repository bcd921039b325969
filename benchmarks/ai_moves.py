"""Move times of the computer levels and of the forced-result API.

Plays a few games of each level against level 2 on a board (default 5×5, classic) and
times every move of the measured level; then times `forced_result` on the start and on
random positions of boards 3×3 to 8×8.

    python benchmarks/ai_moves.py [--size 5] [--games 4] [--levels 1,2,3,4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.ai.base import make_player
from boardlab.ai.forced import forced_result
from boardlab.core.session import GameSession
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore

TABLES = TableStore()  # the default folder


def time_level(rules: Any, level: str, games: int) -> list[float]:
    """Seconds per move of `level` over `games` games against level 2, colours alternated."""
    times: list[float] = []
    for g in range(games):
        rng = random.Random(g)
        players = [make_player(level, rules, TABLES), make_player("2", rules, TABLES)]
        me = g % 2
        if me:
            players.reverse()
        session: GameSession[Any, Any] = GameSession(rules)
        while not session.is_over and len(session.plies) < 400:
            player = players[session.to_move]
            history = session.positions[:-1]
            t0 = time.perf_counter()
            move = player.choose(rules, session.position, history, rng)
            dt = time.perf_counter() - t0
            if session.to_move == me:
                times.append(dt)
            session.play(move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--levels", default="1,2,3,4")
    args = parser.parse_args()
    print(header("AI move times"))
    rules = rules_for(args.variant, args.size)
    table = TABLES.get(rules, build=True)
    print(f"{rules.ruleset_id()}: level 4 {'plays from the table' if table else 'searches'}")
    print("level  moves  median ms  mean ms  max ms")
    for level in args.levels.split(","):
        t = time_level(rules, level.strip(), args.games)
        print(
            f"{level:>5}  {len(t):5d}  {1000 * statistics.median(t):9.1f}  "
            f"{1000 * statistics.mean(t):7.1f}  {1000 * max(t):6.1f}"
        )
    print("forced_result (start and 20 random positions per size)")
    print("size  median ms  max ms  proven")
    for size in range(3, 9):
        r = rules_for("classic", size)
        rng = random.Random(size)
        positions = [r.start()]
        while len(positions) < 21:
            pos = r.start()
            for _ in range(rng.randrange(1, 8 * size)):
                moves = r.legal_moves(pos)
                if not moves:
                    break
                pos = r.play(pos, moves[rng.randrange(len(moves))])
            if r.outcome(pos) is None:
                positions.append(pos)
        times, proven = [], 0
        for pos in positions:
            t0 = time.perf_counter()
            f = forced_result(r, pos, tables=TABLES)
            times.append(time.perf_counter() - t0)
            proven += f is not None
        print(
            f"{size:4d}  {1000 * statistics.median(times):9.1f}  {1000 * max(times):6.1f}  "
            f"{proven:3d}/{len(positions)}"
        )


if __name__ == "__main__":
    main()
