"""Computer players behind one interface, the match runner and leagues."""

from boardlab.ai.base import Limits, Player, RandomPlayer, make_player

__all__ = ["Limits", "Player", "RandomPlayer", "make_player"]
