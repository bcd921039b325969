"""Plays games between players; knows nothing of any game's rules beyond the protocol."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from boardlab.ai.base import Limits, Player
from boardlab.core.outcome import Outcome
from boardlab.core.rules import Rules
from boardlab.core.session import GameSession

MAX_PLIES = 1000  # a game still going after this many plies ends unfinished (a draw)


def play_game(
    rules: Rules[Any, Any],
    players: Sequence[Player],
    rng: random.Random,
    start: Hashable | None = None,
    limits: Limits | None = None,
    max_plies: int = MAX_PLIES,
    on_move: Callable[[GameSession[Any, Any]], None] | None = None,
) -> GameSession[Any, Any]:
    """Play one game to its end (or `max_plies`); players[0] moves first.

    Repetition ends the game as the rules say; `max_plies` only guards against rules without
    a repetition limit.
    """
    session: GameSession[Any, Any] = GameSession(rules, start)
    while not session.is_over and len(session.plies) < max_plies:
        player = players[session.to_move]
        history = session.positions[:-1]
        move = player.choose(rules, session.position, history, rng, limits)
        session.play(move)
        if on_move is not None:
            on_move(session)
    return session


def score(outcome: Outcome | None) -> str:
    """'win', 'loss' or 'draw' from the first player's side (an unfinished game is a draw)."""
    if outcome is None or outcome.winner is None:
        return "draw"
    return "win" if outcome.winner == 0 else "loss"
