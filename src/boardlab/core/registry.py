"""Games register here by short name; front ends look them up without importing them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardlab.core.errors import UnknownGameError
from boardlab.core.rules import Rules
from boardlab.core.tiers import TierGame

AnyRules = Rules[Any, Any]


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, declared once as data."""

    name: str
    title: str
    variants: tuple[str, ...]
    default_variant: str
    sizes: tuple[int, int]  # smallest and largest board size
    default_size: int
    make: Callable[[str, int | None], AnyRules] = field(repr=False)
    variant_sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    # the tier adapter of a ruleset for the solver (None: the solver cannot solve it)
    solver_adapter: Callable[[AnyRules], TierGame | None] | None = field(default=None, repr=False)

    def rules(self, variant: str | None = None, size: int | None = None) -> AnyRules:
        """Rules for a variant and size (defaults where None); raises UnknownGameError."""
        v = variant or self.default_variant
        if v not in self.variants:
            known = ", ".join(self.variants)
            raise UnknownGameError(f"unknown {self.name} variant {v!r} (known: {known})")
        return self.make(v, size)


_GAMES: dict[str, GameInfo] = {}
_LOAD_LOCK = threading.RLock()  # the first lookups may come from several threads at once


def register(info: GameInfo) -> None:
    """Make a game known by its short name."""
    _GAMES[info.name] = info


_loaded = False  # every built-in game is registered
_loading = False  # loading is under way (a game module may look up games while it loads)


def _load_builtin() -> None:
    # Importing a game module registers it.
    import importlib

    for name in ("dodgem", "dotdash"):
        try:
            importlib.import_module(f"boardlab.games.{name}")
        except ModuleNotFoundError as exc:  # a game package not installed
            if exc.name != f"boardlab.games.{name}":
                raise


def games() -> dict[str, GameInfo]:
    """Every registered game by name."""
    global _loaded, _loading
    if not _loaded:  # not `if not _GAMES`: importing one game directly registers only that one
        with _LOAD_LOCK:  # other threads wait here until every game is registered
            if not _loaded and not _loading:
                _loading = True
                try:
                    _load_builtin()
                    _loaded = True
                finally:
                    _loading = False
    return dict(_GAMES)


def get_game(name: str) -> GameInfo:
    """The game registered as `name`; raises UnknownGameError."""
    known = games()
    key = name.strip().lower().replace("-", "").replace("_", "")
    aliases = {"dodgem": "dodgem", "dodgem'": "dodgem", "dotdash": "dotdash"}
    key = aliases.get(key, key)
    if key not in known:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(sorted(known))})")
    return known[key]


def make_rules(
    game: str = "dodgem", variant: str | None = None, size: int | None = None
) -> AnyRules:
    """Rules for a game, variant and size by name; the usual entry point for front ends."""
    return get_game(game).rules(variant, size)
