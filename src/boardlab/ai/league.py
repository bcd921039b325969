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

With a `journal` file every finished game is appended to it as it ends (`Journal`), and the
games already in it are not played again: a league stopped part way resumes where it
stopped, and one run again with more games or another player plays only the new games.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from boardlab.ai.base import Limits, make_player, normalise
from boardlab.ai.levels import split_spec
from boardlab.ai.match import MAX_PLIES, play_game, score
from boardlab.core.errors import UsageError
from boardlab.core.files import read_regular
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


JOURNAL_KIND = "boardlab league journal"
MAX_JOURNAL_BYTES = 256 << 20  # about a million games


class Journal:
    """The finished games of a league on one ruleset, one JSON object a line: a header
    (the ruleset, the time per move and the ply cap, which every game shares) and then one
    line a game (its players, index, seeds, outcome for the first player and plies).

    A game is known by everything that decides it but the players' code, so a journal only
    serves leagues of the same players' version: start a new file after changing a level.
    A last line cut short (the run was killed while writing) is dropped and played again;
    any other line that is not a game of this ruleset is an error, and nothing is lost."""

    def __init__(self, path: Path, ruleset: dict[str, Any]) -> None:
        self.path = path
        self.header = {"kind": JOURNAL_KIND, **ruleset}
        self.games: dict[tuple[str, str, int, int, int | None], str] = {}  # the outcomes
        try:
            data = read_regular(path, MAX_JOURNAL_BYTES)
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            reason = exc.strerror or str(exc)  # a FIFO, device or folder: said by its type
            raise UsageError(f"cannot read the journal {path}: {reason}") from None
        end = data.rfind(b"\n") + 1
        lines = data[:end].decode("utf-8", "replace").splitlines()
        try:
            if lines:
                self._read(lines)
            with path.open("r+b" if data else "wb") as f:
                f.truncate(end)  # drop a last line cut short
                if not lines:
                    f.write((json.dumps(self.header) + "\n").encode())
        except OSError as exc:
            raise UsageError(f"cannot write the journal {path}: {exc.strerror}") from None

    def _read(self, lines: list[str]) -> None:
        def fail(n: int, why: str) -> UsageError:
            return UsageError(f"{self.path}: line {n} {why}; use another file or mend it")

        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("kind") != JOURNAL_KIND:
            raise fail(1, "is not the header of a league journal")
        if head != self.header:
            shown = "; ".join(
                f"{k} {head.get(k)} here, not {v}"
                for k, v in self.header.items()
                if head.get(k) != v
            )
            raise fail(1, f"is another league's header ({shown})")
        for n, text in enumerate(lines[1:], start=2):
            try:
                g = json.loads(text)
                key = (str(g["first"]), str(g["second"]), int(g["index"]), int(g["seed"]))
                setup, outcome = g["setup_seed"], g["outcome"]
                int(g["plies"])  # a game line has its length, though only the file keeps it
            except (ValueError, KeyError, TypeError):
                raise fail(n, "is not a league game") from None
            if outcome not in ("win", "loss", "draw") or not (
                setup is None or isinstance(setup, int)
            ):
                raise fail(n, "is not a league game")
            self.games[(*key, setup)] = outcome

    @staticmethod
    def key(spec: GameSpec) -> tuple[str, str, int, int, int | None]:
        """What tells one game of a ruleset from another."""
        return (spec.first, spec.second, spec.index, spec.seed, spec.setup_seed)

    def played(self, spec: GameSpec) -> str | None:
        """The outcome (for the first player) of `spec` if the journal holds it."""
        return self.games.get(self.key(spec))

    def add(self, spec: GameSpec, outcome: str, plies: int) -> None:
        """Append a finished game (written through, so a kill loses at most this line)."""
        line = {
            "first": spec.first,
            "second": spec.second,
            "index": spec.index,
            "seed": spec.seed,
            "setup_seed": spec.setup_seed,
            "outcome": outcome,
            "plies": plies,
        }
        try:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            raise UsageError(f"cannot write the journal {self.path}: {exc.strerror}") from None
        self.games[self.key(spec)] = outcome


_IGNORE_INTERRUPT = (signal.SIGINT, signal.SIG_IGN)


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
    journal: Path | None = None,
    on_resume: Callable[[int, int], None] | None = None,
) -> list[PairResult]:
    """Play the league and return one result per ordered pair, in schedule order.

    `tables` is where players read complete tables (the default folder's store if None);
    small ones that level 4 needs are built before any game starts. With `journal`, games
    already in that file count without being played and each new one is added to it as it
    ends; `on_resume(found, total)` hears how many of the league's games it held (`on_game`
    hears only the games played now)."""
    if max_plies < 1:
        raise UsageError(f"a game needs at least one ply (max plies {max_plies})")
    rules = make_rules(game, variant, size)
    if setups and get_game(game).setup is None:
        raise UsageError(f"{get_game(game).title} has no setup stage to draw setups from")
    store = tables if tables is not None else TableStore()
    for p in players:
        make_player(p, rules, store)  # reject unknown names before any game starts
    top = str(get_game(game).level_count)
    # the strongest level reads tables: open (or build, if small) them once, before workers
    if any(split_spec(normalise(p))[0] == top for p in players):
        store.get(rules, build=True)
    specs = schedule(
        game, variant, size, players, games, seed, setups, time, store.folder, steps, max_plies
    )
    _stores.setdefault(str(store.folder), store)
    results = {(a, b): PairResult(a, b) for a, b in pairings(players, steps)}
    book = None
    if journal is not None:
        ruleset = {
            "game": rules.game,
            "variant": rules.variant,
            "size": rules.size,
            "time": time,
            "max_plies": max_plies,
        }
        book = Journal(journal, ruleset)

    def count(spec: GameSpec, outcome: str) -> None:
        pair = results[(spec.first, spec.second)]
        setattr(pair, outcome, getattr(pair, outcome) + 1)

    def record(spec: GameSpec, outcome: str, plies: int) -> None:
        if book is not None:
            book.add(spec, outcome, plies)
        count(spec, outcome)
        if on_game is not None:
            on_game(spec, outcome)

    todo = []
    for spec in specs:
        outcome = None if book is None else book.played(spec)
        if outcome is None:
            todo.append(spec)
        else:
            count(spec, outcome)
    if book is not None and on_resume is not None:
        on_resume(len(specs) - len(todo), len(specs))
    if jobs <= 1:
        for spec in todo:
            _, outcome, plies = play_spec(spec)
            record(spec, outcome, plies)
    else:
        # Ctrl-C reaches the whole process group: the workers ignore it and the parent ends
        # them at once, games in play and all (a journal keeps every game that finished)
        pool = multiprocessing.Pool(jobs, initializer=signal.signal, initargs=_IGNORE_INTERRUPT)
        try:
            for spec, outcome, plies in pool.imap_unordered(play_spec, todo):
                record(spec, outcome, plies)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
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
    "Journal",
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
