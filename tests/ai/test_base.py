"""Players by name for any game: the game's declared levels factory makes its levels."""

from __future__ import annotations

import random
from typing import Any

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


def test_outside_players_come_from_their_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Players named 'PREFIX:...' are made by the factory registered for PREFIX (an entry
    point of the `boardlab.players` group, or `register_player`); a factory whose package is
    missing gives a one-line error, and an unknown prefix is an unknown player."""
    from boardlab.ai import base

    rules = make_rules("dodgem", "classic", 3)
    made: list[str] = []

    def factory(name: str) -> RandomPlayer:
        made.append(name)
        return RandomPlayer()

    monkeypatch.setitem(base._REGISTERED, "toybot", factory)
    assert isinstance(make_player("toybot:7", rules), RandomPlayer) and made == ["toybot:7"]

    class Missing:
        def load(self) -> Any:
            raise ModuleNotFoundError("no", name="somelib")

    monkeypatch.setattr(base, "outside_players", lambda: {"gone": Missing()})
    with pytest.raises(UsageError, match="somelib, which is not installed") as info:
        make_player("gone:1", rules)
    assert "\n" not in str(info.value)
    with pytest.raises(UsageError, match="unknown player"):
        make_player("nobody:1", rules)
