"""A league with some levels' settings changed for this run only: how a ladder's step is
tried before the calibrator or a person writes a setting into the game's level data.

    nice -n 5 python benchmarks/trial.py --set 4:qdepth=4 -- \\
        --game dotdash --variant frozen --size 12 --levels 3,4 --games 20 --seed 1 --setups \\
        --journal trial.jsonl
    nice -n 5 python benchmarks/trial.py --set 3:nodes=20000 -- \\
        --game dodgem --variant blocked-loses --size 8 --levels 2,3 --games 10 --seed 1

Everything after `--` is `boardlab league`'s command line. `--set LEVEL:FIELD=VALUE[,...]`
changes fields of that level's `boardlab.ai.levels.LevelSettings` (depth, nodes, time, noise,
blunder, style, qdepth, contempt) on the league's board, and `--set` may be repeated. The
change travels in the player's name (`3:nodes=20000`, which `boardlab league --levels` takes
as well), so worker processes (`--jobs`) and the journal see it. A journal written under
changed settings belongs to them: start a new file for each trial.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.ai.levels import LevelSettings, spec_of, split_spec
from boardlab.cli.main import main as boardlab_main
from boardlab.core.errors import UsageError

LEVELS = ("1", "2", "3", "4")


def parse_sets(sets: list[str]) -> dict[int, dict[str, Any]]:
    """'LEVEL:FIELD=VALUE[,FIELD=VALUE...]' items to changes by level (a one-line exit for
    anything else)."""
    changes: dict[int, dict[str, Any]] = {}
    for text in sets:
        level, sep, rest = text.partition(":")
        if not sep or level not in LEVELS:
            raise SystemExit(f"trial: {text!r} is not LEVEL:FIELD=VALUE (levels 1 to 4)")
        try:
            _, fields = split_spec(":".join([level, *rest.split(",")]))
            LevelSettings(depth=1).changed(**fields)
        except UsageError as exc:
            raise SystemExit(f"trial: {text!r}: {exc}") from None
        changes.setdefault(int(level), {}).update(fields)
    return changes


def rewrite_levels(league: list[str], changes: dict[int, dict[str, Any]]) -> list[str]:
    """The league's command line with each changed level named with its changes."""
    out = list(league)
    for i, arg in enumerate(out):
        if arg == "--levels" and i + 1 < len(out):
            out[i + 1] = _renamed(out[i + 1], changes)
        elif arg.startswith("--levels="):
            out[i] = "--levels=" + _renamed(arg.removeprefix("--levels="), changes)
    if not any(a == "--levels" or a.startswith("--levels=") for a in out):
        out += ["--levels", _renamed(",".join(LEVELS), changes)]
    return out


def _renamed(levels: str, changes: dict[int, dict[str, Any]]) -> str:
    names = [n.strip() for n in levels.split(",")]
    return ",".join(
        spec_of(int(n), changes[int(n)]) if n.isdigit() and int(n) in changes else n for n in names
    )


def main(argv: list[str]) -> int:
    if "--" not in argv:
        raise SystemExit("trial: give the league's command line after --")
    cut = argv.index("--")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", action="append", default=[], metavar="CHANGE", required=True)
    args = p.parse_args(argv[:cut])
    changes = parse_sets(args.set)
    said = "; ".join(
        f"level {level}: " + ", ".join(f"{k}={v}" for k, v in fields.items())
        for level, fields in sorted(changes.items())
    )
    print(header(f"trial ({said})"), file=sys.stderr)
    return boardlab_main(["league", *rewrite_levels(argv[cut + 1 :], changes)])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
