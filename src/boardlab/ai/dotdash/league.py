"""Head-to-head matches between Dot Dash levels, for the measured tables in the docs.

Each pair of games starts from one random pie setup (one stone of one colour and two of the
other on the central points; the single stone moves first) and is played twice with the sides
swapped, so neither level profits from a lucky setup. Run:

    python -m boardlab.ai.dotdash.league --a 2 --b 1 --games 100 --size 13 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from boardlab.ai.base import Limits, Player
from boardlab.ai.dotdash.players import player_for_level
from boardlab.ai.match import play_game
from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.rules import DotDashRules, rules_for


def random_setup(rules: DotDashRules, rng: random.Random) -> DotDashPosition:
    """A random pie setup on the central points (at least 2 points from every edge)."""
    n = rules.size
    w = n + 1
    spots = [r * w + f for r in range(2, n - 2) for f in range(2, n - 2)]
    a, b, c = rng.sample(spots, 3)
    single = rng.randrange(2)
    masks = [0, 0]
    masks[single] = 1 << a
    masks[1 - single] = 1 << b | 1 << c
    return DotDashPosition(n, masks[0], masks[1], single)


def match(
    rules: DotDashRules,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    limits: Limits | None = None,
) -> Counter[str]:
    """Play `games` games (in colour-swapped pairs); counts of 'a', 'b' and 'draw' wins."""
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for g in range(games):
        if g % 2 == 0:
            start = random_setup(rules, rng)
        # the side to move at the start is the index of its colour; `a` takes it in even games
        mover, other = (a, b) if g % 2 == 0 else (b, a)
        seats: list[Player] = [mover, other] if start.to_move == 0 else [other, mover]
        session = play_game(rules, seats, rng, start=start, limits=limits)
        result = session.result
        if result is None or result.winner is None:
            tally["draw"] += 1
        else:
            tally["a" if seats[result.winner] is a else "b"] += 1
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    """Print one result line for a pair of levels."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=int, required=True, help="level of the first player")
    ap.add_argument("--b", type=int, required=True, help="level of the second player")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--size", type=int, default=13)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=None, help="seconds per move for level 4")
    args = ap.parse_args(argv)
    rules = rules_for(args.variant, args.size)
    a, b = player_for_level(args.a, rules), player_for_level(args.b, rules)
    limits = Limits(time=args.time) if args.time is not None else None
    t0 = time.perf_counter()
    tally = match(rules, a, b, args.games, args.seed, limits)
    secs = time.perf_counter() - t0
    print(
        f"level {args.a} vs level {args.b} ({args.variant}, {args.size}x{args.size}, "
        f"{args.games} games, seed {args.seed}, time {args.time}): "
        f"{tally['a']} wins, {tally['b']} losses, {tally['draw']} draws  [{secs:.0f} s]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
