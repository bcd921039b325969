"""Computer players behind one interface, the match runner and leagues; each game's players
live in `boardlab.ai.<game>` and are found through the game's `GameInfo`."""

from boardlab.ai.base import Limits, Player, RandomPlayer, make_player
from boardlab.ai.forced import Forced, forced_result

__all__ = ["Forced", "Limits", "Player", "RandomPlayer", "forced_result", "make_player"]
