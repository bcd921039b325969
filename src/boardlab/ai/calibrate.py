"""The calibrator: finds each level's settings on one board so that it scores 70-85% against
the level below, then rates the ladder and writes the board's row of the game's level data.

For each level from the second up (level 1 keeps its settings: it must beat a random mover),
one strength knob is searched: the node budget where the level searches on one, else its
blunder rate, else its noise, else its depth. A setting is played against the level below
(already calibrated) in batches of games; after each batch the score's 95% Wilson interval
decides: inside the band, the setting is kept; wholly above or below it, the knob moves
(halving or doubling until the band is bracketed, then bisecting); straddling an edge, the
setting plays another batch, up to `MAX_BATCHES`, after which its score decides. A level
stops when its interval is inside the band, when the knob cannot move between two tried
values, or when the budget of games is spent (then the setting whose score came nearest the
middle of the band is kept). A ladder of neighbouring levels (random, 1, 2, ...) then rates
the board; the budget keeps back the games it needs.

Every game goes to a journal (`run_league`'s), and players are named by their full settings,
so a stopped calibration run again with the same arguments replays its decisions from the
journal and plays only the games it lacks. Only the data file is written, and only at the
end: a recalibration of one board changes that board's row and nothing else.
"""

from __future__ import annotations

import datetime
import math
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from boardlab.ai.league import head_to_head, run_league
from boardlab.ai.levels import (
    BoardLevels,
    League,
    LevelSettings,
    LevelTable,
    Rating,
    data_path,
    level_table,
    parse_table,
    spec_of,
    write_table,
)
from boardlab.ai.ratings import fit
from boardlab.core.errors import UsageError
from boardlab.core.registry import get_game

LOW, HIGH = 0.70, 0.85  # each level's score against the one below
TARGET = (LOW + HIGH) / 2
MAX_BATCHES = 4  # batches a setting straddling an edge plays before its score decides
Z = 1.96  # 95% intervals


def wilson(points: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a score of `points` in `games` (draws count half)."""
    if games <= 0:
        return 0.0, 1.0
    p = points / games
    denom = 1 + Z * Z / games
    centre = (p + Z * Z / (2 * games)) / denom
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Knob:
    """The one setting the calibrator turns for a level: `stronger_up` when a larger value
    makes the level stronger (node budget, depth)."""

    field: str
    stronger_up: bool

    def value(self, settings: LevelSettings) -> float:
        got: float = getattr(settings, self.field)
        return got

    def set(self, settings: LevelSettings, value: float) -> LevelSettings:
        if self.field in ("nodes", "depth"):
            return replace(settings, **{self.field: max(1, round(value))})
        if self.field == "noise":
            return replace(settings, noise=float(max(0, round(value))))
        return replace(settings, blunder=min(0.45, max(0.0, round(value, 3))))

    def weaker(self, value: float) -> float:
        """One step weaker from `value`, before the band is bracketed."""
        if self.field == "nodes":
            return value / 2
        if self.field == "depth":
            return value - 1
        if self.field == "noise":
            return value * 2 if value else 10
        return value * 2 if value else 0.02

    def stronger(self, value: float) -> float:
        """One step stronger from `value`, before the band is bracketed."""
        if self.field == "nodes":
            return value * 2
        if self.field == "depth":
            return value + 1
        return value / 2

    def between(self, a: float, b: float) -> float:
        """The middle of two tried values (geometric for a node budget)."""
        if self.field == "nodes":
            return math.sqrt(a * b)
        return (a + b) / 2


def knob_for(settings: LevelSettings) -> Knob:
    """The knob a level's settings call for (see the module docstring)."""
    if settings.nodes is not None:
        return Knob("nodes", True)
    if settings.blunder > 0:
        return Knob("blunder", False)
    if settings.noise > 0:
        return Knob("noise", False)
    return Knob("depth", True)


def player_name(level: int, settings: LevelSettings) -> str:
    """A level named by all its settings (so the name alone says how it plays, on any board,
    in the journal and in worker processes)."""
    values = {f.name: getattr(settings, f.name) for f in fields(LevelSettings)}
    return spec_of(level, values)


@dataclass
class Trial:
    """One setting of one level, and its games so far against the level below."""

    settings: LevelSettings
    points: float = 0.0
    games: int = 0

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.games)


@dataclass
class Calibration:
    """What a calibration found: each level's settings, what it tried, and the ratings."""

    levels: list[LevelSettings]
    trials: dict[int, list[Trial]]
    ratings: list[Rating]
    league: League
    games_played: int
    budget_spent: bool


def _commit(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def calibrate(
    game: str,
    variant: str,
    size: int,
    *,
    batch: int = 10,
    budget: int = 2000,
    seed: int = 1,
    journal: Path,
    levels: Sequence[int] | None = None,
    rating_games: int | None = None,
    jobs: int = 1,
    start: LevelTable | None = None,
    say: Callable[[str], None] = lambda _: None,
    max_plies: int | None = None,
) -> Calibration:
    """Calibrate one board (see the module docstring). `batch` is games per ordered pairing
    in each batch, `budget` the most games in all (the rating ladder included), `levels` the
    levels to calibrate (default: every level from 2 up), `rating_games` the games per
    ordered pairing of the rating ladder (default `batch`). `start` is the table whose row
    for the board (or, for a board it lacks, the nearest size of the variant) the search
    starts from (default: the game's data)."""
    info = get_game(game)
    table = start if start is not None else level_table(info)
    board = _starting_board(table, variant, size)
    settings = list(board.levels)
    todo = sorted(levels) if levels is not None else list(range(2, len(settings) + 1))
    for n in todo:
        if not 2 <= n <= len(settings):
            raise UsageError(f"levels 2 to {len(settings)} can be calibrated, not {n}")
    extra: dict[str, Any] = {} if max_plies is None else {"max_plies": max_plies}
    setups = info.setup is not None
    played = 0
    ladder_cost = 2 * len(settings) * (rating_games or batch)  # the rating ladder at the end

    def play(players: list[str], games: int, steps: bool = False) -> list[Any]:
        return run_league(
            game, variant, size, players, games, seed=seed, jobs=jobs, setups=setups,
            steps=steps, journal=journal, **extra,
        )  # fmt: skip

    trials: dict[int, list[Trial]] = {}
    spent = False
    for level in todo:
        knob = knob_for(settings[level - 1])
        below = player_name(level - 1, settings[level - 2])  # as calibrated already
        tried: list[Trial] = []
        trials[level] = tried
        current = settings[level - 1]
        kept: Trial | None = None
        while kept is None:
            trial = next((t for t in tried if t.settings == current), None)
            if trial is None:
                trial = Trial(current)
                tried.append(trial)
            if played + 2 * batch + ladder_cost > budget:
                spent = True
                break
            name = player_name(level, current)
            games = trial.games // 2 + batch
            results = play([name, below], games)
            won, total = head_to_head(results, name, below)
            played += total - trial.games
            trial.points, trial.games = won, total
            lo, hi = trial.interval
            say(
                f"level {level} {knob.field}={knob.value(current):g}: {100 * trial.score:.0f}% "
                f"over {total} games ({100 * lo:.0f}-{100 * hi:.0f}%)"
            )
            if lo >= LOW and hi <= HIGH:
                kept = trial
                break
            if (lo <= LOW <= hi or lo <= HIGH <= hi) and trial.games < MAX_BATCHES * 2 * batch:
                continue  # straddles an edge: more games decide
            if LOW <= trial.score <= HIGH:
                kept = trial  # as many batches as a setting gets, and in the band on the whole
                break
            current = _next(knob, tried, trial.score > HIGH)
            if any(t.settings == current for t in tried if t.games):
                break  # the knob cannot move between two tried values: keep the nearest
        if kept is None:
            scored = [t for t in tried if t.games]
            kept = min(scored, key=lambda t: abs(t.score - TARGET), default=None)
        if kept is not None:
            settings[level - 1] = kept.settings
        if spent:
            break
    players = ["random", *(player_name(n, s) for n, s in enumerate(settings, 1))]
    results = play(players, rating_games or batch, steps=True)
    played += sum(r.win + r.loss + r.draw for r in results)
    fitted = fit(results, players)[1:]
    ratings = [Rating(round(r.rating), (round(r.low), round(r.high))) for r in fitted]
    league = League(
        date=datetime.date.today().isoformat(),
        games=rating_games or batch,
        seed=seed,
        commit=_commit(Path(__file__).resolve().parent),
        steps=True,
    )
    return Calibration(settings, trials, ratings, league, played, spent)


def _next(knob: Knob, tried: list[Trial], too_strong: bool) -> LevelSettings:
    """The next setting to try: between the nearest too strong and too weak tried values
    once both exist, else one step away from the last."""
    strong = [t for t in tried if t.games and t.score > HIGH]
    weak = [t for t in tried if t.games and t.score < LOW]
    sign = 1 if knob.stronger_up else -1
    last = tried[-1].settings
    if strong and weak:
        a = min((knob.value(t.settings) for t in strong), key=lambda v: sign * v)
        b = max((knob.value(t.settings) for t in weak), key=lambda v: sign * v)
        return knob.set(last, knob.between(a, b))
    value = knob.value(last)
    return knob.set(last, knob.weaker(value) if too_strong else knob.stronger(value))


def _starting_board(table: LevelTable, variant: str, size: int) -> BoardLevels:
    found = table.boards.get((variant, size))
    if found is not None:
        return found
    same = [b for b in table if b.variant == variant] or list(table)
    if not same:
        raise UsageError(f"no {table.game} levels to start from")
    return min(same, key=lambda b: (abs(b.size - size), b.size))


def write_board(info_game: str, result: Calibration, variant: str, size: int, path: Path) -> None:
    """Put the calibrated board's row into the data file at `path` (every other row kept)."""
    import tomllib

    with path.open("rb") as f:
        table = parse_table(info_game, tomllib.load(f), path)
    boards = dict(table.boards)
    boards[variant, size] = BoardLevels(
        variant, size, tuple(result.levels), tuple(result.ratings), result.league
    )
    if (variant, size) not in table.boards:  # a new board: keep the file's order by variant
        boards = dict(sorted(boards.items(), key=lambda kv: _order(table, kv[0])))
    write_table(replace(table, boards=boards), path)


def _order(table: LevelTable, key: tuple[str, int]) -> tuple[int, int]:
    variants = list(dict.fromkeys(v for v, _ in table.boards))
    rank = variants.index(key[0]) if key[0] in variants else len(variants)
    return rank, key[1]


def default_path(game: str) -> Path:
    """The game's data file (what the calibrator writes unless told another)."""
    return data_path(get_game(game))
