"""A league with some levels' settings changed for this run only: how a ladder's step is
tried before a setting is kept in the code.

    nice -n 5 python benchmarks/trial.py --set 4:qdepth=4 -- \\
        --game dotdash --variant frozen --size 12 --levels 3,4 --games 20 --seed 1 --setups \\
        --journal trial.jsonl
    nice -n 5 python benchmarks/trial.py --set l3_nodes=20000 -- \\
        --game dodgem --variant blocked-loses --size 8 --levels 2,3 --games 10 --seed 1

Everything after `--` is `boardlab league`'s command line (its `--game`, `--variant` and
`--size` name the board whose levels change). Dot Dash: `--set LEVEL:FIELD=VALUE[,...]`
changes fields of that level's `LevelSettings` (depth, style, blunder, noise, time,
qdepth), and `--set` may be repeated. Dodgem: `--set FIELD=VALUE[,...]` changes fields of
the board's `Tuning`. Worker processes (`--jobs`) inherit the change. A journal written
under changed settings belongs to them: start a new file for each trial.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.ai.dodgem import levels as dodgem_levels
from boardlab.ai.dotdash import players as dotdash_players
from boardlab.cli.common import DEFAULT_GAME
from boardlab.cli.main import main as boardlab_main


def _value(text: str) -> Any:
    """A setting's value: none, an int, or a float."""
    if text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise SystemExit(f"trial: {text!r} is not a number") from None


def _fields(text: str, cls: type) -> dict[str, Any]:
    """FIELD=VALUE[,FIELD=VALUE...] checked against the dataclass `cls`."""
    known = {f.name for f in dataclasses.fields(cls)}
    out: dict[str, Any] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise SystemExit(
                f"trial: {item!r} is not FIELD=VALUE with a field of {cls.__name__} "
                f"({', '.join(sorted(known))})"
            )
        out[name] = _value(value.strip())
    return out


def change_dotdash(sets: list[str]) -> str:
    """Make `player_for_level` see the changed levels; returns what changed, in words."""
    changes: dict[int, dict[str, Any]] = {}
    for text in sets:
        level, sep, rest = text.partition(":")
        if not sep or level not in {"1", "2", "3", "4"}:
            raise SystemExit(f"trial: {text!r} is not LEVEL:FIELD=VALUE (levels 1 to 4)")
        changes.setdefault(int(level), {}).update(_fields(rest, dotdash_players.LevelSettings))
    original = dotdash_players.level_settings

    def level_settings(
        size: int, mode: str = "standard"
    ) -> tuple[dotdash_players.LevelSettings, ...]:
        levels = list(original(size, mode))
        for level, fields in changes.items():
            levels[level - 1] = dataclasses.replace(levels[level - 1], **fields)
        return tuple(levels)

    dotdash_players.level_settings = level_settings  # type: ignore[assignment]
    return "; ".join(
        f"level {level}: " + ", ".join(f"{k}={v}" for k, v in fields.items())
        for level, fields in sorted(changes.items())
    )


def change_dodgem(sets: list[str]) -> str:
    """Make `dodgem_player` see the changed tuning; returns what changed, in words."""
    fields: dict[str, Any] = {}
    for text in sets:
        fields.update(_fields(text, dodgem_levels.Tuning))
    original = dodgem_levels.tuning

    def tuning(variant: str, size: int) -> dodgem_levels.Tuning:
        return dataclasses.replace(original(variant, size), **fields)

    dodgem_levels.tuning = tuning  # type: ignore[assignment]
    return ", ".join(f"{k}={v}" for k, v in fields.items())


def main(argv: list[str]) -> int:
    if "--" not in argv:
        raise SystemExit("trial: give the league's command line after --")
    cut = argv.index("--")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", action="append", default=[], metavar="CHANGE", required=True)
    args = p.parse_args(argv[:cut])
    league = argv[cut + 1 :]
    # the league's own reading of --game (either "--game NAME" or "--game=NAME")
    board = argparse.ArgumentParser(add_help=False)
    board.add_argument("--game", default=DEFAULT_GAME)
    game = board.parse_known_args(league)[0].game
    if game == "dotdash":
        said = change_dotdash(args.set)
    elif game == "dodgem":
        said = change_dodgem(args.set)
    else:
        raise SystemExit(f"trial: no settings to change for {game!r}")
    print(header(f"trial ({said})"), file=sys.stderr)
    return boardlab_main(["league", *league])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
