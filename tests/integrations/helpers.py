"""Rulesets the integration tests cover: every registered game and variant, at the smallest
board and the variant's usual board (read from the game registry)."""

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
            usual = info.rules(variant).size
            for size in sorted({info.sizes[0], usual}):
                out.append((name, variant, size))
    return out
