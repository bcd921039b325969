"""Rulesets the integration tests cover: every registered game and variant, at its smallest
board, its default board and its published board (read from the game registry)."""

from __future__ import annotations

from boardlab.core.registry import games
from boardlab.integrations.codec import has_codec


def played_rulesets() -> list[tuple[str, str, int]]:
    """(game, variant, size) for every variant of every game with action ids."""
    out = []
    for name, info in sorted(games().items()):
        if not has_codec(name):
            continue
        for variant in info.variants:
            sizes = {min(variant.sizes), variant.default_size}
            if variant.published_size is not None:
                sizes.add(variant.published_size)
            for size in sorted(sizes):
                out.append((name, variant.name, size))
    return out
