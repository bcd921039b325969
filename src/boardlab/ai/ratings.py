"""Ratings fitted to league results: a Bradley–Terry model on the Elo scale, with 95%
confidence intervals.

Player i beats player j with probability 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts as
half a win for each. The ratings maximise the likelihood of the results, with one virtual
draw added to every pair that met (so a 100% score gives a large but finite gap instead of
an infinite one), and are anchored so that `anchor` (the random mover when it plays, else
the first player) is at 0. The intervals come from the curvature of the log-likelihood at
its maximum (the inverse Fisher information), relative to the anchor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from boardlab.ai.league import PairResult

ELO = 400 / math.log(10)  # Elo points per natural-log unit of odds
PRIOR_DRAWS = 1.0  # virtual draws per pair that met
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's fitted rating and its 95% confidence interval (Elo points)."""

    player: str
    rating: float
    low: float
    high: float
    games: int
    points: float

    def as_dict(self) -> dict[str, float | int | str]:
        """JSON-ready data, rounded to whole points."""
        return {
            "player": self.player,
            "rating": round(self.rating),
            "low": round(self.low),
            "high": round(self.high),
            "games": self.games,
            "points": self.points,
        }


def _tallies(
    players: Sequence[str], results: Sequence[PairResult]
) -> tuple[np.ndarray, np.ndarray]:
    """(points scored by i against j, games between i and j) as matrices, with the prior."""
    where = {p: k for k, p in enumerate(players)}
    n = len(players)
    won = np.zeros((n, n))
    games = np.zeros((n, n))
    for r in results:
        i, j = where[r.first], where[r.second]
        total = r.win + r.loss + r.draw
        won[i, j] += r.win + r.draw / 2
        won[j, i] += r.loss + r.draw / 2
        games[i, j] += total
        games[j, i] += total
    met = games > 0
    won += np.where(met, PRIOR_DRAWS / 2, 0.0)
    games += np.where(met, PRIOR_DRAWS, 0.0)
    return won, games


def fit(
    results: Sequence[PairResult], players: Sequence[str] | None = None, anchor: str | None = None
) -> list[Rating]:
    """Ratings of every player in `results` (in `players` order when given), anchored at 0.

    Newton's method on the log-likelihood in natural units; the league graph must be
    connected (a round robin always is)."""
    names = list(players) if players is not None else _players(results)
    if len(names) < 2:
        raise ValueError("ratings need at least two players")
    base = anchor if anchor is not None else ("random" if "random" in names else names[0])
    a = names.index(base)
    won, games = _tallies(names, results)
    n = len(names)
    free = [k for k in range(n) if k != a]
    theta = np.zeros(n)
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-diff))
        grad = (won - games * p).sum(axis=1)
        w = games * p * (1 - p)
        hess = -np.diag(w.sum(axis=1)) + w  # d2 logL / d theta_i d theta_j
        h = hess[np.ix_(free, free)]
        step = np.linalg.solve(h, grad[free])
        theta[free] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    diff = theta[:, None] - theta[None, :]
    p = 1 / (1 + np.exp(-diff))
    w = games * p * (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.inv(info[np.ix_(free, free)])
    se = np.zeros(n)
    se[free] = np.sqrt(np.diag(cov))
    points = {p_: 0.0 for p_ in names}
    played = {p_: 0 for p_ in names}
    for r in results:
        points[r.first] += r.win + r.draw / 2
        points[r.second] += r.loss + r.draw / 2
        played[r.first] += r.win + r.loss + r.draw
        played[r.second] += r.win + r.loss + r.draw
    return [
        Rating(
            player=name,
            rating=float(ELO * theta[k]),
            low=float(ELO * (theta[k] - Z95 * se[k])),
            high=float(ELO * (theta[k] + Z95 * se[k])),
            games=played[name],
            points=points[name],
        )
        for k, name in enumerate(names)
    ]


def expected_score(a: float, b: float) -> float:
    """The expected score of a player rated `a` against one rated `b` (Elo points)."""
    return 1 / (1 + 10 ** ((b - a) / 400))


def _players(results: Sequence[PairResult]) -> list[str]:
    out: list[str] = []
    for r in results:
        for p in (r.first, r.second):
            if p not in out:
                out.append(p)
    return out


__all__ = ["Rating", "expected_score", "fit"]
