"""Dodgem (Colin Vout, 1972) and its variants: classic, blocked-loses, misère, Piecepack.

`GAME` declares the game; the `boardlab.games` entry point `dodgem` names it.
"""

from boardlab.core.registry import Colour, GameInfo, Ref, VariantInfo, WarmUp
from boardlab.games.dodgem.facts import board_facts
from boardlab.games.dodgem.notation import (
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    DodgemMove,
    DodgemPosition,
    Square,
)
from boardlab.games.dodgem.perft import perft
from boardlab.games.dodgem.render import notation_help, render_board
from boardlab.games.dodgem.rules import VARIANTS, DodgemRules, rules_for

SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))
_BLUE_RED = (Colour("blue", "B"), Colour("red", "R"))
_RED_GREEN = (Colour("red", "R"), Colour("green", "G"))


GAME = GameInfo(
    name="dodgem",
    title="Dodgem",
    summary="Race your cars across the board and off it; leave your opponent a move.",
    variants=(
        VariantInfo("classic", SIZES, 4, _BLUE_RED, "a player left without a move wins"),
        VariantInfo("blocked-loses", SIZES, 4, _BLUE_RED, "a player left without a move loses"),
        VariantInfo("misere", SIZES, 4, _BLUE_RED, "the first to clear its cars loses"),
        VariantInfo(
            "piecepack",
            SIZES,
            6,
            _RED_GREEN,
            "red and green coins race to opposite sides; a blocked player passes",
            published_size=6,
        ),
    ),
    default_variant="classic",
    make=rules_for,
    aliases=("dodgem'",),
    levels=Ref("boardlab.ai.dodgem.levels:player_for_level"),
    level_data="boardlab.ai.dodgem/levels.toml",
    table_digests="boardlab.games.dodgem/digests.txt",
    table_level=4,
    codec=Ref("boardlab.games.dodgem.codec:DodgemCodec"),
    renderer="dodgem",
    warm_up=WarmUp(size=4, levels=("3",), table_sizes=(4, 3)),
    level_player=Ref("boardlab.ai.dodgem.levels:level_player"),
    estimate=Ref("boardlab.ai.dodgem.estimate:estimate_dodgem"),
    level_count=4,
    perft=perft,
    render=render_board,
    notation_help=notation_help,
    forced=Ref("boardlab.ai.dodgem.forced:forced_dodgem"),
    solver_adapter=Ref("boardlab.games.dodgem.tiers:tiers_for"),
    table_checker=Ref("boardlab.games.dodgem.verify_rules:checker_for"),
    solver_shape=Ref("boardlab.games.dodgem.shape:shape_for"),
    board_facts=board_facts,
)

__all__ = [
    "GAME",
    "PASS",
    "VARIANTS",
    "DodgemMove",
    "DodgemPosition",
    "DodgemRules",
    "Square",
    "rules_for",
]
