"""The docs' level tables, generated from the games' level data (`boardlab.ai.levels`).

A Markdown page asks for a table with a pair of comments, and everything between them is
replaced by the table:

    <!-- levels: GAME settings -->
    ...
    <!-- /levels -->

`settings` gives each board's level settings, `ratings` each board's ratings with their
intervals and the league that measured them. `python benchmarks/ladder.py --docs` rewrites
the pages; a test checks that they match the data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields

from boardlab.ai.levels import BoardLevels, LevelSettings, LevelTable, level_table, steps
from boardlab.core.registry import get_game

_BLOCK = re.compile(r"(<!-- levels: (\S+) (settings|ratings) -->\n)(.*?)(<!-- /levels -->)", re.S)


def _board(b: BoardLevels) -> str:
    return f"{b.variant} {b.size}×{b.size}"


def _number(value: float | int) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:,}" if isinstance(value, int) else str(value)


def describe(settings: LevelSettings, usual: LevelSettings) -> str:
    """A level's settings in short: the depth, then every field that differs from `usual`."""
    out = [f"depth {settings.depth}"]
    for f in fields(LevelSettings):
        value = getattr(settings, f.name)
        if f.name != "depth" and value is not None and value != getattr(usual, f.name):
            out.append(f"{f.name} {_number(value)}")
    return ", ".join(out)


def settings_table(table: LevelTable) -> str:
    """One row per board: each level's settings (fields at the file's defaults left out)."""
    base = table.usual
    levels = max((len(b.levels) for b in table), default=0)
    head = "| board | " + " | ".join(f"level {n}" for n in range(1, levels + 1)) + " |"
    rows = [head, "| --- " * (levels + 1) + "|"]
    for b in table:
        cells = [describe(s, base) for s in b.levels]
        rows.append(f"| {_board(b)} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _league(b: BoardLevels) -> str:
    league = b.league
    if league is None:
        return "unknown"
    parts = [league.date or "date unknown"]
    parts.append(f"{league.games} games each way" if league.games else "games unknown")
    parts.append(f"seed {league.seed}" if league.seed is not None else "seed unknown")
    parts.append(f"commit {league.commit}" if league.commit else "commit unknown")
    if league.steps:
        parts.append("neighbours only")
    return ", ".join(parts)


def ratings_table(table: LevelTable) -> str:
    """One row per rated board: each level's rating with its 95% interval, the score each
    level is expected to make against the one below (from the ratings), and the league."""
    rated = [b for b in table if b.ratings is not None]
    levels = max((len(b.levels) for b in rated), default=0)
    head = "| board | " + " | ".join(f"level {n}" for n in range(1, levels + 1))
    rows = [head + " | steps | league |", "| --- " * (levels + 3) + "|"]
    for b in rated:
        assert b.ratings is not None
        cells = []
        for r in b.ratings:
            span = (
                "interval unknown" if r.interval is None else f"{r.interval[0]} … {r.interval[1]}"
            )
            cells.append(f"{r.rating} ({span})")
        expected = ", ".join(f"{100 * p:.0f}%" for p in steps([r.rating for r in b.ratings]))
        rows.append(f"| {_board(b)} | " + " | ".join(cells) + f" | {expected} | {_league(b)} |")
    unrated = [_board(b) for b in table if b.ratings is None]
    note = f"\nNot measured: {', '.join(unrated)}.\n" if unrated else ""
    return "\n".join(rows) + "\n" + note


def render(text: str, tables: Callable[[str], LevelTable] | None = None) -> str:
    """`text` with every generated block replaced by the table it asks for."""
    load = tables or (lambda game: level_table(get_game(game)))

    def block(m: re.Match[str]) -> str:
        table = load(m.group(2))
        body = settings_table(table) if m.group(3) == "settings" else ratings_table(table)
        return f"{m.group(1)}\n{body}\n{m.group(5)}"

    return _BLOCK.sub(block, text)
