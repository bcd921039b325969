"""Dodgem (Colin Vout, 1972) and its variants: classic, blocked-loses, misère, Piecepack."""

from boardlab.core.registry import GameInfo, register
from boardlab.games.dodgem.notation import PASS, DodgemMove, DodgemPosition, Square
from boardlab.games.dodgem.rules import VARIANTS, DodgemRules, rules_for
from boardlab.games.dodgem.tiers import tiers_for

register(
    GameInfo(
        name="dodgem",
        title="Dodgem",
        variants=tuple(VARIANTS),
        default_variant="classic",
        sizes=(3, 8),
        default_size=4,
        make=rules_for,
        solver_adapter=tiers_for,
    )
)

__all__ = ["PASS", "VARIANTS", "DodgemMove", "DodgemPosition", "DodgemRules", "Square", "rules_for"]
