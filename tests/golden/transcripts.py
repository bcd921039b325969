"""Golden transcripts: one recorded game per game and variant, replayed by test_golden.py.

Each file holds the ruleset and, for every ply from the start, the move that led there, the
position, the number of legal moves and, where a complete table exists, the value and
remoteness for the side to move. Record them again (after a deliberate change of the rules
or the notation) with:

    python -m tests.golden.transcripts

The games are played by the seeded random player, so they reach odd corners of the rules.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from boardlab.ai.base import RandomPlayer
from boardlab.ai.match import play_game
from boardlab.core.registry import AnyRules, games
from boardlab.core.session import GameSession
from boardlab.solver.store import TableStore

FOLDER = Path(__file__).parent
MAX_PLIES = 80
SEED = 2026

# The size of each game's transcripts: small enough for a table where the game has them.
SIZES = {"dodgem": {"piecepack": 6}, "dotdash": {}}
DEFAULT_SIZES = {"dodgem": 3, "dotdash": 9}


def cases() -> list[tuple[str, str, int]]:
    """(game, variant, size) of every transcript."""
    out = []
    for name, info in sorted(games().items()):
        if name not in DEFAULT_SIZES:
            continue  # a game registered at run time (a test's toy game)
        for variant in info.variant_names:
            size = SIZES[name].get(variant, DEFAULT_SIZES[name])
            out.append((name, variant, size))
    return out


def path_of(game: str, variant: str, size: int) -> Path:
    return FOLDER / f"{game}-{variant}-{size}.json"


def ply_facts(
    rules: AnyRules, session: GameSession[Any, Any], tables: TableStore
) -> list[dict[str, Any]]:
    """What the transcript holds for each position of the session."""
    table = tables.get(rules) if tables.solvable(rules) else None
    plies = []
    for i, pos in enumerate(session.positions):
        entry: dict[str, Any] = {
            "ply": i,
            "move": None if i == 0 else rules.format_move(session.moves[i - 1]),
            "position": rules.format_position(pos),
            "legal": len(rules.legal_moves(pos)),
        }
        if table is not None:
            value, remoteness = table.probe(pos)
            entry["value"] = str(value)
            entry["remoteness"] = remoteness
        plies.append(entry)
    return plies


def record(game: str, variant: str, size: int, tables: TableStore) -> dict[str, Any]:
    """Play and describe one game."""
    info = games()[game]
    rules = info.rules(variant, size)
    rng = random.Random(f"{SEED}/{game}/{variant}/{size}")
    session = play_game(rules, [RandomPlayer(), RandomPlayer()], rng, max_plies=MAX_PLIES)
    result = session.result
    return {
        "game": game,
        "variant": variant,
        "size": size,
        "result": None
        if result is None
        else {"winner": result.winner, "reason": result.reason.value},
        "plies": ply_facts(rules, session, tables),
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one ply per line, so that a change shows as a readable diff."""
    head = {k: v for k, v in data.items() if k != "plies"}
    lines = [json.dumps(p, ensure_ascii=False) for p in data["plies"]]
    body = ",\n    ".join(lines)
    return json.dumps(head, ensure_ascii=False)[:-1] + ', "plies": [\n    ' + body + "\n]}\n"


def main() -> None:
    tables = TableStore(FOLDER / ".tables")
    for game, variant, size in cases():
        rules = games()[game].rules(variant, size)
        tables.get(rules, build=True)
        path = path_of(game, variant, size)
        path.write_text(dump(record(game, variant, size, tables)), encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
