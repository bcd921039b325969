"""Dot Dash (Phil Leduc, 2012): slide a stone at least three points, drop two behind it, and
lead in five-in-a-rows at the start of your turn. Variants: standard, frozen, capture.

`GAME` declares the game; the `boardlab.games` entry point `dotdash` names it.
"""

from typing import Any

from boardlab.core.registry import Colour, GameInfo, Ref, SetupStage, VariantInfo, WarmUp
from boardlab.games.dotdash.facts import board_facts
from boardlab.games.dotdash.notation import MAX_SIZE, MIN_SIZE, DotDashMove, DotDashPosition, Point
from boardlab.games.dotdash.perft import perft
from boardlab.games.dotdash.pie import parse_colour, pie_position, random_setup, run_pie
from boardlab.games.dotdash.render import notation_help, render_board
from boardlab.games.dotdash.rules import DEFAULT_SIZE, VARIANTS, DotDashRules, rules_for

SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))
_RED_BLUE = (Colour("red", "R"), Colour("blue", "B"))
_SUMMARIES = {
    "standard": "slide, drop two stones behind, lead in fives",
    "frozen": "stones in a five may not move",
    "capture": "a slide may capture; repetition and ply 300 draw",
}


def _summary(variant: str) -> str:
    mode, reserve = VARIANTS[variant]
    stones = "unlimited stones" if reserve is None else f"{reserve} stones each"
    return f"{_SUMMARIES[mode]}; {stones}"


def _setup_text(position: Any) -> str:
    text: str = position.setup_text()
    return text


PIE = SetupStage(
    name="pie",
    summary="one side places three stones (one of one colour, two of the other), the other "
    "chooses a colour; the single stone moves first",
    dialogue=run_pie,
    parse=pie_position,
    describe=_setup_text,
    parse_choice=parse_colour,
    agent=Ref("boardlab.ai.dotdash.players:pie_agent"),
    random_setup=random_setup,
)

GAME = GameInfo(
    name="dotdash",
    title="Dot Dash",
    summary="Slide a stone, drop two behind it, and lead in five-in-a-rows.",
    variants=tuple(
        VariantInfo(name, SIZES, DEFAULT_SIZE, _RED_BLUE, _summary(name)) for name in VARIANTS
    ),
    default_variant="standard",
    make=rules_for,
    levels=Ref("boardlab.ai.dotdash.levels:player_for_level"),
    level_data="boardlab.ai.dotdash/levels.toml",
    codec=Ref("boardlab.games.dotdash.codec:DotDashCodec"),
    renderer="dotdash",
    warm_up=WarmUp(size=7, levels=("2", "3", "4")),
    level_player=Ref("boardlab.ai.dotdash.levels:level_player"),
    estimate=Ref("boardlab.ai.dotdash.estimate:estimate_dotdash"),
    level_count=4,
    perft=perft,
    render=render_board,
    notation_help=notation_help,
    setup=PIE,
    board_facts=board_facts,
)

__all__ = [
    "GAME",
    "VARIANTS",
    "DotDashMove",
    "DotDashPosition",
    "DotDashRules",
    "Point",
    "rules_for",
]
