"""Warm the computer players at start-up, in the background, so that the first computer move
of a fresh server answers in about a second instead of waiting for compiled kernels to load."""

from __future__ import annotations

import logging
import random
import threading

from boardlab.core.errors import BoardLabError
from boardlab.core.registry import make_rules
from boardlab.core.session import GameSession

log = logging.getLogger(__name__)

# (game, size, levels): each level plays one move from the start, which loads (or compiles
# and caches) the kernels it uses and leaves a ready player in the service's pool.
WARM = (("dotdash", 7, ("2", "3", "4")), ("dodgem", 4, ("3",)))


def warm_players(service: object) -> None:
    """Play one move per level in `WARM` through `service.choose` (errors are logged only)."""
    choose = getattr(service, "choose", None)
    if choose is None:
        return
    for game, size, levels in WARM:
        rules = make_rules(game, None, size)
        for level in levels:
            session: GameSession[object, object] = GameSession(rules)
            try:
                choose(rules, session, level, random.Random(0))
            except (BoardLabError, ImportError) as exc:  # a missing piece: the page says so
                log.warning("warm-up of %s level %s skipped: %s", game, level, exc)


def start_warm_up(service: object) -> threading.Thread:
    """Run `warm_players` in a daemon thread and return it."""
    thread = threading.Thread(target=warm_players, args=(service,), name="warm-up", daemon=True)
    thread.start()
    return thread
