"""What the solving threads of a process share: the games built from their specs, and one
LRU cache of decompressed child tiers (2 bytes per position) that gives way to the tier being
solved. The verifier reads children through the same cache."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from boardlab.core.retrograde_work import release_work
from boardlab.core.tiers import TierGame, tier_game_from_spec
from boardlab.solver.folder import pack_path
from boardlab.solver.tierfile import PackFile
from boardlab.solver.writer import wait_written

OPEN_PACKS = 64  # pack files a worker keeps open

T = TypeVar("T")


class ChildCache:
    """Decompressed child tiers (uint16), least recently used dropped beyond `budget` bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[tuple[str, int], npt.NDArray[np.uint16]] = OrderedDict()
        # open pack files, most recently used last: a pack holds many small tiers, and its
        # header (checked in full when opened) is read once, not once per tier
        self._files: OrderedDict[Path, PackFile] = OrderedDict()
        self._lock = threading.Lock()

    def _pack(self, path: Path, hint: str) -> PackFile:
        pf = self._files.get(path)
        if pf is not None:
            self._files.move_to_end(path)
            return pf
        pf = self._files[path] = PackFile(path, hint)
        while len(self._files) > OPEN_PACKS:
            self._files.popitem(last=False)[1].close()
        return pf

    def close(self) -> None:
        """Close the pack files and drop the cached tiers."""
        with self._lock:
            for pf in self._files.values():
                pf.close()
            self._files.clear()
            self._items.clear()
            self.used = 0

    def get(self, folder: Path, tier: int, pack: str, hint: str) -> npt.NDArray[np.uint16]:
        """The codes of a solved tier, from the cache or its pack file."""
        key = self.key(folder, tier)
        with self._lock:
            arr = self._items.get(key)
            if arr is not None:
                self._items.move_to_end(key)
                return arr
        path = pack_path(folder, pack)
        wait_written(path)  # a pack dropped from the cache before its file was written
        with self._lock:
            arr = self._pack(path, hint).tier_codes(tier)
            self._store(key, arr)
        return arr

    def put(self, folder: Path, tier: int, codes: npt.NDArray[np.uint16]) -> None:
        """Keep the codes of a tier just solved and written (the same that its file holds),
        unless they alone exceed the budget; least recently used tiers make way."""
        if codes.nbytes > self.budget:
            return
        with self._lock:
            self._store(self.key(folder, tier), codes)

    def _store(self, key: tuple[str, int], arr: npt.NDArray[np.uint16]) -> None:
        """Keep `arr` as the most recently used entry, least recently used ones dropped
        beyond the budget (the lock held)."""
        old = self._items.pop(key, None)
        if old is not None:
            self.used -= old.nbytes
        self._items[key] = arr
        self.used += arr.nbytes
        while self.used > self.budget and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.used -= dropped.nbytes

    def forget(self, folder: Path, tiers: list[int]) -> None:
        """Drop these tiers (those no tier still to solve reads): the memory of their codes
        goes back to the allocator, to hold the next tiers' codes, instead of the process
        taking fresh pages (a fault every 4 KiB) for them."""
        with self._lock:
            for tier in tiers:
                old = self._items.pop(self.key(folder, tier), None)
                if old is not None:
                    self.used -= old.nbytes

    def make_room(self, extra: int, keep: set[tuple[str, int]]) -> None:
        """Drop least recently used tiers (not those in `keep`) until the cache and `extra`
        more bytes fit in the budget."""
        with self._lock:
            if self.used + extra <= self.budget:
                return
            for key in [k for k in self._items if k not in keep]:
                self.used -= self._items.pop(key).nbytes
                if self.used + extra <= self.budget:
                    break

    def key(self, folder: Path, tier: int) -> tuple[str, int]:
        """The cache key of a tier of a tables folder."""
        return (str(folder), tier)


def release_caches() -> None:
    """Close the cached pack files, drop the cached tiers and the kernel's work arrays of
    this process (the solve and the verifier share them)."""
    for cache in _CACHE.values():
        cache.close()
    _CACHE.clear()
    release_work()


_GAMES: dict[str, TierGame] = {}
_CACHE: dict[str, ChildCache] = {}
# the solving threads share the games, the checkers and the cache (re-entrant: a checker may
# build its game while it is made)
_MADE = threading.RLock()


def made_once(made: dict[str, T], spec: dict[str, Any], make: Callable[[dict[str, Any]], T]) -> T:
    """The object `make(spec)` of this process, made once per spec and kept in `made`."""
    key = json.dumps(spec, sort_keys=True)
    with _MADE:
        got = made.get(key)
        if got is None:
            got = made[key] = make(spec)
        return got


def shared_game(spec: dict[str, Any]) -> TierGame:
    """This process's game of a spec."""
    return made_once(_GAMES, spec, tier_game_from_spec)


def child_cache(budget: int) -> ChildCache:
    """This process's cache of child tiers for a memory budget (a new budget drops the old
    cache)."""
    key = str(budget)
    with _MADE:
        cache = _CACHE.get(key)
        if cache is None:
            release_caches()
            cache = _CACHE[key] = ChildCache(budget)
        return cache
