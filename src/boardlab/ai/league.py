"""Round-robin leagues between players, reproducible from one seed.

Every ordered pair of distinct players plays `games` games, the first named moving first.
Game `i` of a pair gets its own generator seeded from (seed, first, second, i) and fresh
players, so results do not depend on the order games run in or on how many processes share
them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from boardlab.ai.base import make_player
from boardlab.ai.match import play_game, score
from boardlab.core.registry import make_rules


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One league game: the ruleset by name, the two players and the game's seed."""

    game: str
    variant: str | None
    size: int | None
    first: str
    second: str
    index: int
    seed: int


@dataclass(slots=True)
class PairResult:
    """Wins, losses and draws of `first` (moving first) against `second`."""

    first: str
    second: str
    win: int = 0
    loss: int = 0
    draw: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON form used by `boardlab league --json`."""
        return {
            "first": self.first,
            "second": self.second,
            "win": self.win,
            "loss": self.loss,
            "draw": self.draw,
        }


def game_seed(seed: int, first: str, second: str, index: int) -> int:
    """The seed of one game, derived from the league seed (stable across runs and machines)."""
    return random.Random(f"{seed}/{first}/{second}/{index}").getrandbits(63)


def play_spec(spec: GameSpec) -> tuple[GameSpec, str, int]:
    """Play one league game; returns the spec, 'win'/'loss'/'draw' for the first player, plies."""
    rules = make_rules(spec.game, spec.variant, spec.size)
    players = [make_player(spec.first, rules), make_player(spec.second, rules)]
    session = play_game(rules, players, random.Random(spec.seed))
    return spec, score(session.result), len(session.plies)


def schedule(
    game: str,
    variant: str | None,
    size: int | None,
    players: Sequence[str],
    games: int,
    seed: int,
) -> list[GameSpec]:
    """Every game of the league, pair by pair."""
    return [
        GameSpec(game, variant, size, a, b, i, game_seed(seed, a, b, i))
        for a in players
        for b in players
        if a != b
        for i in range(games)
    ]


def run_league(
    game: str,
    variant: str | None,
    size: int | None,
    players: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[GameSpec, str], None] | None = None,
) -> list[PairResult]:
    """Play the league and return one result per ordered pair, in schedule order."""
    rules = make_rules(game, variant, size)
    for p in players:
        make_player(p, rules)  # reject unknown names before any game starts
    if any(p.strip().lower().removeprefix("level").strip() == "4" for p in players):
        _prepare_tables(rules)
    specs = schedule(game, variant, size, players, games, seed)
    results = {(a, b): PairResult(a, b) for a in players for b in players if a != b}

    def record(spec: GameSpec, outcome: str) -> None:
        pair = results[(spec.first, spec.second)]
        setattr(pair, outcome, getattr(pair, outcome) + 1)
        if on_game is not None:
            on_game(spec, outcome)

    if jobs <= 1:
        for spec in specs:
            _, outcome, _ = play_spec(spec)
            record(spec, outcome)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_spec, s) for s in specs]
            for fut in as_completed(futures):
                spec, outcome, _ = fut.result()
                record(spec, outcome)
    return list(results.values())


def _prepare_tables(rules: Any) -> None:
    """Open (building small ones) the table level 4 needs before workers start."""
    from boardlab.games.dodgem.rules import DodgemRules

    if isinstance(rules, DodgemRules):
        from boardlab.ai.tables import open_table

        open_table(rules, build=True)


def scores(results: Sequence[PairResult]) -> dict[str, tuple[float, int]]:
    """Per player: points (win 1, draw 1/2) over all its games, either colour, and games."""
    out: dict[str, list[float]] = {}
    for r in results:
        for name, pts in ((r.first, r.win + r.draw / 2), (r.second, r.loss + r.draw / 2)):
            acc = out.setdefault(name, [0.0, 0])
            acc[0] += pts
            acc[1] += r.win + r.loss + r.draw
    return {k: (v[0], int(v[1])) for k, v in out.items()}
