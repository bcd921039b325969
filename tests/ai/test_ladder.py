"""The ladder in a seeded league: ratings rise with the level (slow: a few hundred games)."""

from __future__ import annotations

import pytest

from boardlab.ai.league import head_to_head, run_league
from boardlab.ai.ratings import fit
from boardlab.solver.store import TableStore

pytestmark = pytest.mark.slow


def test_dodgem_4x4_ratings_rise_with_the_level(small_tables: TableStore) -> None:
    players = ["random", "1", "2", "3", "4"]
    results = run_league("dodgem", "classic", 4, players, 10, seed=1, tables=small_tables)
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
