"""Players by name for any game: the game's declared levels factory makes its levels."""

from __future__ import annotations

import random

import pytest

from boardlab.ai.base import RandomPlayer, default_level, level_names, make_player, player_choices
from boardlab.ai.beginner import BlunderingPlayer
from boardlab.ai.dotdash.levels import player_for_level as dotdash_levels
from boardlab.ai.dotdash.players import DotDashSearchPlayer
from boardlab.core.errors import UsageError
from boardlab.core.registry import Ref, get_game, make_rules


def test_dot_dash_levels_come_from_its_module() -> None:
    info = get_game("dotdash")
    assert isinstance(info.levels, Ref)
    assert info.levels.load() is dotdash_levels
    rules = make_rules("dotdash", size=9)
    beginner = make_player("1", rules)
    assert isinstance(beginner, BlunderingPlayer) and beginner.name == "level 1"
    assert isinstance(beginner.inner, DotDashSearchPlayer) and beginner.inner.depth == 1
    assert isinstance(make_player("random", rules), RandomPlayer)
    depths = {}
    for level in (2, 3, 4):
        player = make_player(f"level {level}", rules)
        assert isinstance(player, DotDashSearchPlayer)
        assert player.name == f"level {level}"
        depths[level] = player.depth
    assert depths[2] < depths[3] <= depths[4]
    move = make_player("2", rules).choose(rules, rules.start(), [], random.Random(0))
    assert move in rules.legal_moves(rules.start())


def test_levels_and_choices_follow_the_declaration() -> None:
    info = get_game("dodgem")
    assert level_names(info) == ["1", "2", "3", "4"]
    assert default_level(info) == "3"
    assert player_choices(info) == "human, random or a level 1-4"
    assert player_choices(info, human=False) == "random or a level 1-4"


def test_unknown_players_are_usage_errors() -> None:
    rules = make_rules("dodgem")
    for spec in ("0", "5", "grandmaster", ""):
        with pytest.raises(UsageError, match="unknown player"):
            make_player(spec, rules)
