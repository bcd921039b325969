"""The beginner: its own player's move, or now and then a random one; Dot Dash level 1 beats a
random mover."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from boardlab.ai.base import Limits, RandomPlayer, make_player
from boardlab.ai.beginner import BlunderingPlayer
from boardlab.ai.match import play_game, score
from boardlab.core.registry import get_game, make_rules
from boardlab.core.rules import Rules


class FirstMove:
    """Always the first legal move (a fixed inner player to tell blunders from)."""

    name = "first"

    def choose(
        self,
        rules: Rules[Any, Any],
        position: Hashable,
        history: Sequence[Hashable],
        rng: random.Random,
        limits: Limits | None = None,
    ) -> Any:
        return rules.legal_moves(position)[0]


def test_blunder_rate_is_the_share_of_random_moves() -> None:
    rules = make_rules("dodgem", "classic", 5)
    pos = rules.start()
    first = rules.legal_moves(pos)[0]
    rng = random.Random(7)
    never = BlunderingPlayer("b", FirstMove(), 0.0)
    assert all(never.choose(rules, pos, [], rng) == first for _ in range(50))
    half = BlunderingPlayer("b", FirstMove(), 0.5)
    picks = [half.choose(rules, pos, [], rng) for _ in range(2000)]
    n = len(rules.legal_moves(pos))
    # first move: chosen by the inner player half the time, and 1/n of the random half
    share = picks.count(first) / len(picks)
    assert share == pytest.approx(0.5 + 0.5 / n, abs=0.04)
    assert set(picks) == set(rules.legal_moves(pos))
    with pytest.raises(ValueError):
        BlunderingPlayer("b", FirstMove(), 1.5)


def test_dot_dash_level_1_beats_a_random_mover() -> None:
    rules = make_rules("dotdash", size=9)
    stage = get_game("dotdash").setup
    assert stage is not None
    wins = 0
    for i in range(6):
        start = stage.random_setup(rules, random.Random(i))
        me = make_player("1", rules)
        players = [me, RandomPlayer()] if i % 2 == 0 else [RandomPlayer(), me]
        result = score(play_game(rules, players, random.Random(100 + i), start=start).result)
        wins += result == ("win" if i % 2 == 0 else "loss")
    assert wins == 6
