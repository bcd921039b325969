"""Dot Dash (Phil Leduc, 2012): slide a stone at least three points, drop two behind it, and
lead in five-in-a-rows at the start of your turn. Variants: standard, frozen, capture."""

from boardlab.core.registry import GameInfo, register
from boardlab.games.dotdash.notation import DotDashMove, DotDashPosition, Point
from boardlab.games.dotdash.rules import VARIANTS, DotDashRules, rules_for

register(
    GameInfo(
        name="dotdash",
        title="Dot Dash",
        variants=tuple(VARIANTS),
        default_variant="standard",
        sizes=(7, 19),
        default_size=13,
        make=rules_for,
    )
)

__all__ = ["VARIANTS", "DotDashMove", "DotDashPosition", "DotDashRules", "Point", "rules_for"]
