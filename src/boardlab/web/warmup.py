"""Warm the server at start-up, in the background: open (or, when missing, build) the tables
that puzzles, game review and level 4 read on the default boards, and load the computer
players, so that the first puzzle, review or computer move of a fresh server does not wait
for a table build or for compiled kernels to load."""

from __future__ import annotations

import logging
import random
import threading

from boardlab.core.errors import BoardLabError
from boardlab.core.registry import games, make_rules
from boardlab.core.session import GameSession

log = logging.getLogger(__name__)


def warm_boards() -> list[tuple[str, int, tuple[str, ...]]]:
    """(game, size, levels) for every game that declares a warm-up (`GameInfo.warm_up`):
    each level plays one move from the start of the default variant at that size, which
    loads (or compiles and caches) the kernels it uses and leaves a ready player in the
    service's pool."""
    return [
        (info.name, info.warm_up.size, info.warm_up.levels)
        for info in games().values()
        if info.warm_up is not None and info.warm_up.levels
    ]


def warm_table_boards() -> list[tuple[str, int]]:
    """(game, size): the default boards of the puzzles and review pages, as the games
    declare them; a missing table there builds in about a second, which the first request
    would otherwise wait for."""
    return [
        (info.name, size)
        for info in games().values()
        if info.warm_up is not None
        for size in info.warm_up.table_sizes
    ]


def warm_tables(service: object) -> None:
    """Open the tables of `warm_table_boards` in the service's store, building those it
    builds automatically (the store never raises for a table it cannot open or build)."""
    tables = getattr(service, "tables", None)
    if tables is None:
        return
    for game, size in warm_table_boards():
        tables.get(make_rules(game, None, size), build=True)


def warm_players(service: object) -> None:
    """Play one move per level of `warm_boards` through `service.choose` (errors are
    logged only)."""
    choose = getattr(service, "choose", None)
    if choose is None:
        return
    for game, size, levels in warm_boards():
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
