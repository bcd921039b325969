"""The computer players the server keeps between requests: a bounded pool of instances per
(level, ruleset), the least recently used pool dropped beyond `max_pools`, each idle player
trimmed to a bounded search table."""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from boardlab.ai.base import make_player
from boardlab.core.registry import AnyRules
from boardlab.solver.store import TableStore, rules_key

SEARCH_TABLE_ENTRIES = 50_000  # search-table entries a pooled player keeps between requests
MAX_POOLS = 8  # (level, ruleset) pools kept; the least recently used one goes first


def trim_player(player: Any, entries: int | None = None) -> None:
    """Bound what an idle player keeps (its search tables), if it knows how."""
    trim = getattr(player, "trim", None)
    if callable(trim):
        trim(SEARCH_TABLE_ENTRIES if entries is None else entries)


class PlayerPool:
    """Up to `limit` instances of one computer player; each serves one request at a time
    (players keep search tables that are not shared between threads). A player going back
    to the pool is trimmed to a bounded search table."""

    def __init__(self, make: Callable[[], Any], limit: int = 2) -> None:
        self._make = make
        self._limit = limit
        self._free: queue.LifoQueue[Any] = queue.LifoQueue()
        self._count = 0
        self._lock = threading.Lock()

    def add(self, player: Any) -> None:
        """Put a ready-made player into the pool."""
        with self._lock:
            self._count += 1
        self._free.put(player)

    @contextmanager
    def player(self) -> Iterator[Any]:
        """Borrow an idle player, making one if under the limit, else wait for one."""
        try:
            p = self._free.get_nowait()
        except queue.Empty:
            with self._lock:
                create = self._count < self._limit
                if create:
                    self._count += 1
            if create:
                try:
                    p = self._make()
                except BaseException:
                    with self._lock:
                        self._count -= 1
                    raise
            else:
                p = self._free.get()
        try:
            yield p
        finally:
            trim_player(p)
            self._free.put(p)


class PlayerPools:
    """The pools of every (level, ruleset) asked for lately."""

    def __init__(self, tables: TableStore, max_pools: int = MAX_POOLS) -> None:
        self.tables = tables
        self._lock = threading.Lock()
        self._players: OrderedDict[tuple[str, str], PlayerPool] = OrderedDict()
        self._max_pools = max(1, max_pools)

    def pool(self, level: str, rules: AnyRules) -> PlayerPool:
        def make() -> Any:
            player = make_player(level, rules, self.tables)
            if hasattr(player, "build_small"):
                player.build_small = False  # level 4 never builds inside a move request
            return player

        key = (level, rules_key(rules))
        with self._lock:
            pool = self._players.get(key)
            if pool is not None:
                self._players.move_to_end(key)
        if pool is None:
            first = make()  # raises, with the reason, for an unknown level
            fresh = PlayerPool(make)
            fresh.add(first)
            with self._lock:
                pool = self._players.setdefault(key, fresh)
                self._players.move_to_end(key)
                while len(self._players) > self._max_pools:
                    # players borrowed from a dropped pool finish their request and go
                    self._players.popitem(last=False)
        return pool

    def drop(self) -> None:
        """Forget every player pool (players busy now finish their request and go)."""
        with self._lock:
            self._players.clear()

    def count(self) -> int:
        """How many player pools are kept now (bounded by `max_pools`)."""
        with self._lock:
            return len(self._players)
