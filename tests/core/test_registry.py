"""The registry: games come from entry points, declare their facts once, and the facts agree
with the rules they make."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from boardlab.core.errors import UnknownGameError, UsageError
from boardlab.core.registry import (
    ENTRY_POINT_GROUP,
    Colour,
    GameInfo,
    Ref,
    VariantInfo,
    games,
    get_game,
    make_rules,
)

CASES = [(info, v) for _, info in sorted(games().items()) for v in info.variants]


def test_built_in_games_come_from_entry_points() -> None:
    eps = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert eps["dodgem"] == "boardlab.games.dodgem:GAME"
    assert eps["dotdash"] == "boardlab.games.dotdash:GAME"
    for name in eps:
        assert get_game(name).name == name


@pytest.mark.parametrize(("info", "variant"), CASES, ids=lambda x: getattr(x, "name", ""))
def test_declared_facts_match_the_rules(info: GameInfo, variant: VariantInfo) -> None:
    rules = info.rules(variant.name)
    assert rules.game == info.name
    assert rules.variant == variant.name
    assert rules.size == variant.default_size
    assert rules.player_names == variant.player_names
    for size in variant.sizes:
        assert info.rules(variant.name, size).size == size
    lo, hi = variant.size_range
    for size in (lo - 1, hi + 1):
        with pytest.raises(UsageError, match=f"{lo} to {hi}"):
            info.rules(variant.name, size)


def test_piecepack_says_which_size_is_the_published_game() -> None:
    piecepack = get_game("dodgem").variant("piecepack")
    assert piecepack.published_size == 6 == piecepack.default_size
    assert piecepack.sizes_text().startswith("6×6 is the published game; 3-8")
    assert get_game("dodgem").variant("classic").published_size is None


def test_declarations_are_checked() -> None:
    colours = (Colour("x", "X"), Colour("o", "O"))
    with pytest.raises(ValueError, match="default size"):
        VariantInfo("v", (3, 4), 5, colours)
    with pytest.raises(ValueError, match="default variant"):
        GameInfo("g", "G", (VariantInfo("v", (3,), 3, colours),), "w", make=lambda v, n: None)  # type: ignore[arg-type,return-value]


def test_a_ref_imports_its_target_and_hides_no_error() -> None:
    assert Ref("boardlab.core.registry:get_game").load() is get_game
    assert Ref("boardlab.core.registry:get_game")("dodgem").name == "dodgem"
    with pytest.raises(ModuleNotFoundError):
        Ref("boardlab.no_such_module:thing").load()
    with pytest.raises(AttributeError):
        Ref("boardlab.core.registry:no_such_thing").load()


def test_unknown_names() -> None:
    with pytest.raises(UnknownGameError, match="known: dodgem, dotdash"):
        get_game("chess")
    with pytest.raises(UnknownGameError, match="unknown dotdash variant 'tiny'"):
        get_game("dotdash").rules("tiny")
    with pytest.raises(UsageError, match="unknown game 'chess'"):  # a usage error like others
        make_rules("chess")
