"""Round-robin leagues between players, reproducible from one seed.

Every ordered pair of distinct players plays `games` games, the first named moving first.
Game `i` of a pair gets its own generator seeded from (seed, first, second, i) and fresh
players, so results do not depend on the order games run in or on how many processes share
them.

With `setups`, a game with a setup stage (Dot Dash's pie) starts each game from a random
setup instead of the standard start: games `i` of the pairs (a, b) and (b, a) share one
setup, and the first named player takes the side to move in it, so over the league every
setup is played from both sides and neither player profits from a lucky one.

`max_plies` ends a game that is still going after that many plies as a draw (1,000 by
default): an adjudication for boards where imperfect players can shuffle for thousands of
plies without a third repetition (Dodgem misère on 6×6 and up).

With `steps`, only players next to each other in the list meet (a ladder: random against
level 1, level 1 against level 2, and so on). The ratings are still fitted from every game,
and the costliest player plays one pairing instead of all of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from boardlab.ai.base import Limits, make_player, normalise
from boardlab.ai.match import MAX_PLIES, play_game, score
from boardlab.core.errors import UsageError
from boardlab.core.registry import get_game, make_rules
from boardlab.solver.store import TableStore


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One league game: the ruleset by name, the two players, the game's seed, and what
    every game of the league shares (setups, time per move, the tables folder)."""

    game: str
    variant: str | None
    size: int | None
    first: str
    second: str
    index: int
    seed: int
    setup_seed: int | None = None
    time: float | None = None
    tables: str | None = None
    max_plies: int = MAX_PLIES


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


def setup_seed(seed: int, first: str, second: str, index: int) -> int:
    """The seed of the setup of game `index` of a pair; the same for (a, b) and (b, a)."""
    lo, hi = sorted((first, second))
    return random.Random(f"{seed}/setup/{lo}/{hi}/{index}").getrandbits(63)


_stores: dict[str, TableStore] = {}  # one store per tables folder in each worker process


def _store(folder: str | None) -> TableStore | None:
    if folder is None:
        return None
    store = _stores.get(folder)
    if store is None:
        store = _stores[folder] = TableStore(Path(folder))
    return store


def play_spec(spec: GameSpec) -> tuple[GameSpec, str, int]:
    """Play one league game; returns the spec, 'win'/'loss'/'draw' for the first player, plies."""
    rules = make_rules(spec.game, spec.variant, spec.size)
    tables = _store(spec.tables)
    first = make_player(spec.first, rules, tables)
    second = make_player(spec.second, rules, tables)
    limits = Limits(time=spec.time) if spec.time is not None else None
    start = None
    swapped = False
    if spec.setup_seed is not None:
        stage = get_game(spec.game).setup
        assert stage is not None
        start = stage.random_setup(rules, random.Random(spec.setup_seed))
        swapped = rules.to_move(start) == 1  # the first named takes the side to move
    players = [second, first] if swapped else [first, second]
    session = play_game(
        rules,
        players,
        random.Random(spec.seed),
        start=start,
        limits=limits,
        max_plies=spec.max_plies,
    )
    result = score(session.result)
    if swapped:
        result = {"win": "loss", "loss": "win"}.get(result, result)
    return spec, result, len(session.plies)


def schedule(
    game: str,
    variant: str | None,
    size: int | None,
    players: Sequence[str],
    games: int,
    seed: int,
    setups: bool = False,
    time: float | None = None,
    tables: Path | None = None,
    steps: bool = False,
    max_plies: int = MAX_PLIES,
) -> list[GameSpec]:
    """Every game of the league, pair by pair (only neighbours in `players` with `steps`)."""
    folder = None if tables is None else str(tables)
    return [
        GameSpec(
            game,
            variant,
            size,
            a,
            b,
            i,
            game_seed(seed, a, b, i),
            setup_seed(seed, a, b, i) if setups else None,
            time,
            folder,
            max_plies,
        )
        for a, b in pairings(players, steps)
        for i in range(games)
    ]


def pairings(players: Sequence[str], steps: bool = False) -> list[tuple[str, str]]:
    """The ordered pairs that meet: every pair of distinct players, or with `steps` each
    player and its neighbours in the list, both ways round."""
    if not steps:
        return [(a, b) for a in players for b in players if a != b]
    out: list[tuple[str, str]] = []
    for a, b in pairwise(players):
        out += [(a, b), (b, a)]
    return out


def run_league(
    game: str,
    variant: str | None,
    size: int | None,
    players: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[GameSpec, str], None] | None = None,
    setups: bool = False,
    time: float | None = None,
    tables: TableStore | None = None,
    steps: bool = False,
    max_plies: int = MAX_PLIES,
) -> list[PairResult]:
    """Play the league and return one result per ordered pair, in schedule order.

    `tables` is where players read complete tables (the default folder's store if None);
    small ones that level 4 needs are built before any game starts."""
    if max_plies < 1:
        raise UsageError(f"a game needs at least one ply (max plies {max_plies})")
    rules = make_rules(game, variant, size)
    if setups and get_game(game).setup is None:
        raise UsageError(f"{get_game(game).title} has no setup stage to draw setups from")
    store = tables if tables is not None else TableStore()
    for p in players:
        make_player(p, rules, store)  # reject unknown names before any game starts
    top = str(get_game(game).level_count)
    if any(normalise(p) == top for p in players):  # the strongest level reads tables:
        store.get(rules, build=True)  # open (or build, if small) them once, before workers
    specs = schedule(
        game, variant, size, players, games, seed, setups, time, store.folder, steps, max_plies
    )
    _stores.setdefault(str(store.folder), store)
    results = {(a, b): PairResult(a, b) for a, b in pairings(players, steps)}

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


def scores(results: Sequence[PairResult]) -> dict[str, tuple[float, int]]:
    """Per player: points (win 1, draw 1/2) over all its games, either colour, and games."""
    out: dict[str, list[float]] = {}
    for r in results:
        for name, pts in ((r.first, r.win + r.draw / 2), (r.second, r.loss + r.draw / 2)):
            acc = out.setdefault(name, [0.0, 0])
            acc[0] += pts
            acc[1] += r.win + r.loss + r.draw
    return {k: (v[0], int(v[1])) for k, v in out.items()}


def head_to_head(results: Sequence[PairResult], a: str, b: str) -> tuple[float, int]:
    """Points `a` scored against `b` (win 1, draw 1/2) over both colours, and the games."""
    won = 0.0
    games = 0
    for x in results:
        n = x.win + x.loss + x.draw
        if (x.first, x.second) == (a, b):
            won += x.win + x.draw / 2
            games += n
        elif (x.first, x.second) == (b, a):
            won += x.loss + x.draw / 2
            games += n
    return won, games


__all__ = [
    "MAX_PLIES",
    "GameSpec",
    "PairResult",
    "game_seed",
    "head_to_head",
    "pairings",
    "play_spec",
    "run_league",
    "schedule",
    "scores",
    "setup_seed",
]
