"""Bradley–Terry ratings from league results, checked against a closed form, a slow
minorise-maximise reference, and simulated leagues with known strengths."""

from __future__ import annotations

import math
import random

import pytest

from boardlab.ai.league import PairResult, head_to_head
from boardlab.ai.ratings import PRIOR_DRAWS, expected_score, fit


def test_two_players_match_the_closed_form() -> None:
    results = [PairResult("a", "b", 40, 10, 0), PairResult("b", "a", 15, 35, 0)]
    ra, rb = fit(results)
    won, games = 75 + PRIOR_DRAWS / 2, 100 + PRIOR_DRAWS
    p = won / games
    assert ra.rating == 0 and ra.low == ra.high == 0
    assert rb.rating == pytest.approx(-400 * math.log10(p / (1 - p)), abs=1e-6)
    assert rb.low < rb.rating < rb.high
    assert (ra.points, ra.games) == (75, 100)


def mm_reference(results: list[PairResult], names: list[str]) -> dict[str, float]:
    """Hunter's minorise-maximise iteration for Bradley–Terry (slow, obviously correct)."""
    won = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for r in results:
        prior = PRIOR_DRAWS if r.first < r.second else 0.0  # once per pair that met
        n = r.win + r.loss + r.draw
        won[r.first] += r.win + r.draw / 2 + prior / 2
        won[r.second] += r.loss + r.draw / 2 + prior / 2
        for k in ((r.first, r.second), (r.second, r.first)):
            games[k] = games.get(k, 0.0) + n + prior
    gamma = {n: 1.0 for n in names}
    for _ in range(20_000):
        new = {}
        for i in names:
            denom = sum(g / (gamma[i] + gamma[j]) for (a, j), g in games.items() if a == i)
            new[i] = won[i] / denom
        gamma = {n: v / new[names[0]] for n, v in new.items()}
    return {n: 400 * math.log10(gamma[n]) for n in names}


def simulate(strengths: dict[str, float], games: int, seed: int) -> list[PairResult]:
    rng = random.Random(seed)
    out = []
    for a in strengths:
        for b in strengths:
            if a == b:
                continue
            r = PairResult(a, b)
            p = expected_score(strengths[a], strengths[b])
            for _ in range(games):
                if rng.random() < p:
                    r.win += 1
                else:
                    r.loss += 1
            out.append(r)
    return out


def test_newton_agrees_with_the_mm_reference() -> None:
    names = ["p0", "p1", "p2", "p3"]
    results = simulate({"p0": 0, "p1": 150, "p2": 250, "p3": 500}, 12, seed=3)
    results[0].draw += 3
    got = {r.player: r.rating for r in fit(results, names)}
    want = mm_reference(results, names)
    for n in names:
        assert got[n] == pytest.approx(want[n], abs=0.05)


def test_simulated_ladder_is_recovered_within_its_intervals() -> None:
    truth = {"random": 0.0, "1": 350.0, "2": 550.0, "3": 750.0, "4": 950.0}
    ratings = fit(simulate(truth, 200, seed=11), list(truth))
    for r in ratings:
        assert r.low <= truth[r.player] <= r.high, r
    values = [r.rating for r in ratings]
    assert values == sorted(values)
    assert all(r.high - r.low < 120 for r in ratings[1:])


def test_a_clean_sweep_gives_a_finite_gap() -> None:
    ratings = fit([PairResult("1", "random", 50, 0, 0), PairResult("random", "1", 0, 50, 0)])
    by = {r.player: r for r in ratings}
    assert by["random"].rating == 0
    assert 500 < by["1"].rating < 1200 and math.isfinite(by["1"].high)


def test_head_to_head_counts_both_colours() -> None:
    results = [PairResult("2", "1", 8, 1, 1), PairResult("1", "2", 3, 6, 1)]
    assert head_to_head(results, "2", "1") == (15.0, 20)
    assert head_to_head(results, "1", "2") == (5.0, 20)
