"""Train a tabular Q-learning agent on 3×3 Dodgem by self-play and score it with the oracle.

    python examples/train_tabular_3x3.py --episodes 20000

The agent learns one value per (position, move) with the negamax form of Q-learning (a
move's value for the mover is minus the best value of the opponent's reply), exploring with
ε-greedy self-play. Before and after training, `boardlab.integrations.oracle` plays it against
a random opponent and reports the fraction of its moves that throw away a win or a draw
according to the complete 3×3 table (built on first use in a few seconds).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import Any

from boardlab.ai.base import Limits, RandomPlayer
from boardlab.core.registry import make_rules
from boardlab.core.rules import Rules
from boardlab.core.session import GameSession
from boardlab.integrations.oracle import evaluate_agent

QTable = defaultdict[tuple[Hashable, Any], float]


class GreedyQPlayer:
    """Plays the move with the highest learned value (ties broken at random)."""

    name = "tabular Q"

    def __init__(self, q: QTable) -> None:
        self.q = q

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        """The greedy move."""
        moves = rules.legal_moves(position)
        best = max(self.q[(position, m)] for m in moves)
        return rng.choice([m for m in moves if self.q[(position, m)] == best])


def train(
    rules: Rules[Any, Any], episodes: int, seed: int, alpha: float = 0.3, epsilon: float = 0.2
) -> QTable:
    """Self-play Q-learning; returns the table of move values for the mover."""
    rng = random.Random(seed)
    q: QTable = defaultdict(float)
    for _ in range(episodes):
        session: GameSession[Any, Any] = GameSession(rules)
        while not session.is_over and len(session.plies) < 200:
            pos = session.position
            moves = session.legal_moves()
            if rng.random() < epsilon:
                move = rng.choice(list(moves))
            else:
                best = max(q[(pos, m)] for m in moves)
                move = rng.choice([m for m in moves if q[(pos, m)] == best])
            session.play(move)
            result = session.result
            if result is not None:
                mover = rules.to_move(pos)
                target = 0.0 if result.winner is None else (1.0 if result.winner == mover else -1.0)
            else:
                nxt = session.position
                target = -max(q[(nxt, m)] for m in session.legal_moves())
            q[(pos, move)] += alpha * (target - q[(pos, move)])
    return q


def main(argv: Sequence[str] | None = None) -> int:
    """Train, then print the oracle's measure for a random agent and the trained one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20000, help="self-play games")
    parser.add_argument("--games", type=int, default=200, help="games the oracle judges")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rules = make_rules("dodgem", "classic", 3)
    before = evaluate_agent(RandomPlayer(), rules, games=args.games, seed=args.seed)
    print(f"random agent:  {before.summary()}")
    q = train(rules, args.episodes, args.seed)
    after = evaluate_agent(GreedyQPlayer(q), rules, games=args.games, seed=args.seed)
    print(f"after {args.episodes} episodes: {after.summary()}")
    print(f"positions-and-moves learned: {len(q)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
