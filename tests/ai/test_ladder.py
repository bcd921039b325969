"""The ladder in a seeded league: ratings rise with the level (slow: a few hundred games)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.ai.league import head_to_head, run_league
from boardlab.ai.ratings import fit
from boardlab.solver.store import TableStore
from tests.conftest import SMALL_TABLES

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("variant", "size"),
    [
        ("classic", 4),
        ("misere", 4),
        ("classic", 3),
        ("blocked-loses", 4),
        ("piecepack", 4),
        ("blocked-loses", 3),
        ("misere", 3),
        ("piecepack", 3),
    ],
)
def test_dodgem_ratings_rise_with_the_level(
    small_tables: TableStore, tmp_path: Path, variant: str, size: int
) -> None:
    players = ["random", "1", "2", "3", "4"]
    # level 4 reads the table; one the session's folder lacks is built in a folder of its own
    store = small_tables if (variant, size) in SMALL_TABLES else TableStore(tmp_path)
    results = run_league("dodgem", variant, size, players, 10, seed=1, tables=store)
    ratings = [r.rating for r in fit(results, players)]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)
    won, games = head_to_head(results, "1", "random")
    assert won / games >= 0.9


def test_dot_dash_9x9_ratings_rise_with_the_level() -> None:
    players = ["random", "1", "2", "3"]  # level 4 thinks on a clock: not reproducible
    results = run_league("dotdash", None, 9, players, 10, seed=1, setups=True)
    ratings = [r.rating for r in fit(results, players)]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)
    won, games = head_to_head(results, "1", "random")
    assert won / games >= 0.9
