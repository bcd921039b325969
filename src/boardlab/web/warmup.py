"""Warm the server at start-up, in the background: open (or, when missing, build) the tables
that puzzles, game review and level 4 read on the default boards, and load the computer
players, so that the first puzzle, review or computer move of a fresh server does not wait
for a table build or for compiled kernels to load."""

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
# (game, size): the default boards of the puzzles and review pages; a missing table there
# builds in about a second, which the first request would otherwise wait for
WARM_TABLES = (("dodgem", 4), ("dodgem", 3))


def warm_tables(service: object) -> None:
    """Open the tables of `WARM_TABLES` in the service's store, building those it builds
    automatically (the store never raises for a table it cannot open or build)."""
    tables = getattr(service, "tables", None)
    if tables is None:
        return
    for game, size in WARM_TABLES:
        tables.get(make_rules(game, None, size), build=True)


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


def warm_up(service: object) -> None:
    """The tables first (the first page a player opens may be the puzzles), then the players."""
    warm_tables(service)
    warm_players(service)


def start_warm_up(service: object) -> threading.Thread:
    """Run `warm_up` in a daemon thread and return it."""
    thread = threading.Thread(target=warm_up, args=(service,), name="warm-up", daemon=True)
    thread.start()
    return thread
