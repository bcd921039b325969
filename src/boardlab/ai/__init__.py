"""Computer players behind one interface, the match runner and leagues."""

from boardlab.ai.base import Limits, Player, RandomPlayer, make_player
from boardlab.ai.dodgem.forced import Forced, forced_result

__all__ = ["Forced", "Limits", "Player", "RandomPlayer", "forced_result", "make_player"]
