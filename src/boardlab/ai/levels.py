"""Computer levels as data: one settings shape for every game's levels, and per game a table
of boards (variant and size) with each level's settings, its measured rating and interval, and
the league that measured them.

Each game with levels ships a TOML file beside its players (`GameInfo.level_data` names it,
e.g. `boardlab.ai.dodgem/levels.toml`); its players read their settings from it, the app reads
the ratings, the docs' ladder tables are generated from it (`benchmarks/ladder.py --docs`),
and the calibrator (`benchmarks/ladder.py --calibrate`) is the only thing that writes it.

A player name may carry changed settings for one run: `3:nodes=2000:noise=6` is level 3 with
those two fields changed (what `benchmarks/trial.py` and the calibrator play).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from boardlab.core.errors import UsageError
from boardlab.core.registry import GameInfo


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """What sets one level's strength on one board; each game's players use the fields that
    apply to them and ignore the rest.

    - `depth`: plies searched (the deepest a node-budget or clocked search may go);
    - `nodes`: a node budget: iterative deepening until it is spent (None: a fixed depth);
    - `time`: seconds a move: a clock for deepening (Dot Dash), or only a cap that a slow
      machine reaches before the node budget (Dodgem);
    - `noise`: evaluation noise in the game's units (Dodgem: Gaussian, hundredths of a step
      of the race; Dot Dash: the range of the random tie-break);
    - `blunder`: the chance of a random move instead;
    - `style`: which evaluation the search uses (Dot Dash: 0 lines only, 1 full);
    - `qdepth`: plies of the race solver below the search (Dot Dash);
    - `contempt`: what a draw by repetition costs the searcher (Dodgem, hundredths of a step).
    """

    depth: int
    nodes: int | None = None
    time: float | None = None
    noise: float = 0.0
    blunder: float = 0.0
    style: int = 0
    qdepth: int = 0
    contempt: int = 0

    def changed(self, **values: Any) -> LevelSettings:
        """These settings with some fields changed (names checked; a clear error otherwise)."""
        known = {f.name: f for f in fields(self)}
        for name in values:
            if name not in known:
                raise UsageError(
                    f"unknown level setting {name!r} (known: {', '.join(sorted(known))})"
                )
        return replace(self, **values)


@dataclass(frozen=True, slots=True)
class Rating:
    """A level's rating (Bradley–Terry on the Elo scale, the random mover at 0) and its 95%
    interval, or None where the interval was never measured."""

    rating: int
    interval: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class League:
    """The seeded league that measured a board's ratings: when, how many games each ordered
    pairing played, the seed and the commit; `steps` when only neighbouring levels met. A
    field never recorded is None."""

    date: str | None = None
    games: int | None = None
    seed: int | None = None
    commit: str | None = None
    steps: bool = False


@dataclass(frozen=True, slots=True)
class BoardLevels:
    """One board's levels (1 to n in order), their ratings where measured, and the league."""

    variant: str
    size: int
    levels: tuple[LevelSettings, ...]
    ratings: tuple[Rating, ...] | None = None
    league: League | None = None

    def ratings_by_player(self) -> dict[str, int] | None:
        """'random' and '1'..'n' to ratings, as front ends show them; None if never rated."""
        if self.ratings is None:
            return None
        out = {"random": 0}
        out.update({str(i): r.rating for i, r in enumerate(self.ratings, 1)})
        return out


@dataclass(frozen=True)
class LevelTable:
    """A game's levels on every board it offers, read from its data file."""

    game: str
    boards: Mapping[tuple[str, int], BoardLevels] = field(default_factory=dict)
    path: Path | None = None
    # the values every level starts from before its own (the file's [defaults])
    defaults: Mapping[str, Any] = field(default_factory=dict)

    @property
    def usual(self) -> LevelSettings:
        """A level with nothing but the defaults (what docs leave out of each level)."""
        return LevelSettings(**{"depth": 0, **self.defaults})

    def board(self, variant: str, size: int) -> BoardLevels:
        """The levels of one board; UsageError for a board the data does not cover."""
        found = self.boards.get((variant, size))
        if found is None:
            raise UsageError(
                f"no {self.game} levels for {variant} {size}×{size}: calibrate the board "
                f"(python benchmarks/ladder.py --calibrate --game {self.game} "
                f"--variant {variant} --size {size})"
            )
        return found

    def settings(self, variant: str, size: int, level: int) -> LevelSettings:
        """One level's settings on one board (levels count from 1)."""
        levels = self.board(variant, size).levels
        if not 1 <= level <= len(levels):
            raise UsageError(f"unknown level {level} (levels are 1 to {len(levels)})")
        return levels[level - 1]

    def __iter__(self) -> Iterator[BoardLevels]:
        return iter(self.boards.values())


# ---------------------------------------------------------------------------------------
# Reading and writing the data file


def _settings(row: Mapping[str, Any], defaults: Mapping[str, Any], where: str) -> LevelSettings:
    values = {**defaults, **row}
    known = {f.name for f in fields(LevelSettings)}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"{where}: unknown level setting(s) {', '.join(sorted(unknown))}")
    if "depth" not in values:
        raise ValueError(f"{where}: a level needs a depth")
    return LevelSettings(**values)


def parse_table(game: str, data: Mapping[str, Any], path: Path | None = None) -> LevelTable:
    """A level table from a parsed data file (ValueError, naming the board, when malformed)."""
    defaults = data.get("defaults", {})
    boards: dict[tuple[str, int], BoardLevels] = {}
    for row in data.get("board", []):
        where = f"{game} {row.get('variant')} {row.get('size')}"
        levels = tuple(
            _settings(level, defaults, f"{where} level {i}")
            for i, level in enumerate(row["levels"], 1)
        )
        ratings: tuple[Rating, ...] | None = None
        if "ratings" in row:
            values = row["ratings"]
            intervals = row.get("intervals")
            if len(values) != len(levels) or (
                intervals is not None and len(intervals) != len(levels)
            ):
                raise ValueError(f"{where}: one rating (and interval) per level")
            ratings = tuple(
                Rating(
                    int(v),
                    None if intervals is None else (int(intervals[i][0]), int(intervals[i][1])),
                )
                for i, v in enumerate(values)
            )
        league = League(**row["league"]) if "league" in row else None
        key = (str(row["variant"]), int(row["size"]))
        if key in boards:
            raise ValueError(f"{where}: the board appears twice")
        boards[key] = BoardLevels(key[0], key[1], levels, ratings, league)
    return LevelTable(game, boards, path, dict(defaults))


def data_path(info: GameInfo) -> Path:
    """Where a game's level data lives (`GameInfo.level_data`, 'package/file')."""
    if info.level_data is None:
        raise UsageError(f"{info.title} declares no level data")
    package, _, name = info.level_data.partition("/")
    return Path(str(resources.files(package).joinpath(name)))


@functools.cache
def _load(game: str, path: Path) -> LevelTable:
    with path.open("rb") as f:
        return parse_table(game, tomllib.load(f), path)


def level_table(info: GameInfo) -> LevelTable:
    """A game's level table, read once."""
    return _load(info.name, data_path(info))


def reload() -> None:
    """Forget the tables read so far (after the calibrator writes one)."""
    _load.cache_clear()


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("level data holds finite numbers only")
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _level_row(settings: LevelSettings, defaults: Mapping[str, Any]) -> dict[str, Any]:
    base = LevelSettings(depth=0, **{k: v for k, v in defaults.items() if k != "depth"})
    row: dict[str, Any] = {}
    for f in fields(LevelSettings):
        value = getattr(settings, f.name)
        if f.name == "depth" or value != getattr(base, f.name):
            if value is None:
                raise ValueError(f"{f.name}: a default of None cannot be overridden by None")
            row[f.name] = value
    return row


def dump_table(table: LevelTable, header: str, defaults: Mapping[str, Any]) -> str:
    """The data file's text: `header` (comment lines), the defaults every level starts from,
    then one `[[board]]` per board in the table's order."""
    lines = [*(f"# {line}".rstrip() for line in header.splitlines()), ""]
    lines.append(f"game = {_toml_value(table.game)}")
    if defaults:
        lines += ["", "[defaults]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in defaults.items()]
    for board in table:
        lines += ["", "[[board]]", f"variant = {_toml_value(board.variant)}"]
        lines.append(f"size = {board.size}")
        lines.append("levels = [")
        lines += [f"  {_toml_value(_level_row(s, defaults))}," for s in board.levels]
        lines.append("]")
        if board.ratings is not None:
            lines.append(f"ratings = {_toml_value([r.rating for r in board.ratings])}")
            if all(r.interval is not None for r in board.ratings):
                spans = [list(r.interval) for r in board.ratings if r.interval is not None]
                lines.append(f"intervals = {_toml_value(spans)}")
        if board.league is not None:
            league = {
                k: v
                for k, v in dataclasses.asdict(board.league).items()
                if v is not None and not (k == "steps" and v is False)
            }
            lines.append(f"league = {_toml_value(league)}")
    return "\n".join(lines) + "\n"


def read_defaults(path: Path) -> tuple[str, dict[str, Any]]:
    """A data file's header comment and its defaults (what rewriting it keeps)."""
    text = path.read_text(encoding="utf-8")
    header = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        header.append(line.removeprefix("#").removeprefix(" "))
    return "\n".join(header), dict(tomllib.loads(text).get("defaults", {}))


def write_table(table: LevelTable, path: Path) -> None:
    """Write `table` over the data file at `path`, keeping its header and defaults; the file
    is replaced whole (written beside it, then renamed)."""
    header, defaults = read_defaults(path)
    text = dump_table(table, header, defaults)
    if parse_table(table.game, tomllib.loads(text)).boards != table.boards:
        raise ValueError("the level data did not read back as written")
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    reload()


# ---------------------------------------------------------------------------------------
# Player names with changed settings


def _number(text: str) -> Any:
    if text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{text!r} is not a number") from None


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'3:nodes=2000:noise=6' -> ('3', {'nodes': 2000, 'noise': 6}); a plain name has none."""
    head, *parts = spec.split(":")
    if not head.strip().isdigit():
        return spec, {}
    changes: dict[str, Any] = {}
    for part in parts:
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{spec!r}: changed settings are written LEVEL:FIELD=VALUE[:...]")
        changes[name.strip()] = _number(value.strip())
    return head.strip(), changes


def spec_of(level: int, changes: Mapping[str, Any]) -> str:
    """The player name of `level` with `changes` (the inverse of `split_spec`)."""
    return ":".join([str(level), *(f"{k}={v}" for k, v in sorted(changes.items()))])


def board_settings(
    info: GameInfo, variant: str, size: int, level: int, changes: Mapping[str, Any] | None = None
) -> LevelSettings:
    """A level's settings on a board from the game's data, with `changes` applied."""
    if changes and {f.name for f in fields(LevelSettings)} <= set(changes):
        return LevelSettings(**changes)  # every field given: a board the data may lack
    settings = level_table(info).settings(variant, size, level)
    return settings.changed(**changes) if changes else settings


def steps(ratings: Sequence[int]) -> list[float]:
    """The expected score of each level against the one below, from the ratings (the random
    mover at 0 below level 1)."""
    below = [0, *ratings[:-1]]
    return [1 / (1 + 10 ** ((b - a) / 400)) for a, b in zip(ratings, below, strict=True)]
