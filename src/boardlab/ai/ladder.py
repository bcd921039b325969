"""The measured ladder: each level's rating (Bradley–Terry, Elo scale, the random mover at 0)
from the seeded leagues in docs/ai-levels.md and docs/ai-levels-dotdash.md, for front ends to
show beside the level names. `benchmarks/ladder.py` measures them again."""

from __future__ import annotations

# (game, board size) -> player -> rating; measured 2026-11-23 (see the docs for the tables)
MEASURED: dict[tuple[str, int], dict[str, int]] = {
    ("dodgem", 3): {"random": 0, "1": 586, "2": 688, "3": 851, "4": 1614},
    ("dodgem", 4): {"random": 0, "1": 658, "2": 911, "3": 1125, "4": 1248},
    ("dotdash", 9): {"random": 0, "1": 505, "2": 707, "3": 957, "4": 1267},
}


def ladder_ratings(game: str, size: int) -> tuple[int, dict[str, int]] | None:
    """(the size measured, ratings by player) for the measured board nearest `size`, or None
    for a game never measured."""
    sizes = [n for g, n in MEASURED if g == game]
    if not sizes:
        return None
    nearest = min(sizes, key=lambda n: (abs(n - size), n))
    return nearest, MEASURED[(game, nearest)]
