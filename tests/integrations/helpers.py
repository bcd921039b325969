"""Rulesets the integration tests cover, read from the game registry.

`played_rulesets` (every run): every variant of every game with action ids at its smallest
board, its default board, its published board and the boards people play (Dodgem 3×3 to 5×5,
the sizes with complete tables; Dot Dash 9×9 and 13×13). `other_rulesets` (the `slow` sweep):
every other declared board size of every variant, up to the largest.
"""

from __future__ import annotations

from boardlab.core.registry import games
from boardlab.integrations.codec import has_codec

PLAYED_SIZES = {"dodgem": (3, 4, 5), "dotdash": (9, 13)}


def _sizes() -> list[tuple[str, str, set[int], set[int]]]:
    out = []
    for name, info in sorted(games().items()):
        if not has_codec(name):
            continue
        for variant in info.variants:
            played = {min(variant.sizes), variant.default_size}
            played |= set(PLAYED_SIZES.get(name, ())) & set(variant.sizes)
            if variant.published_size is not None:
                played.add(variant.published_size)
            out.append((name, variant.name, played, set(variant.sizes) - played))
    return out


def played_rulesets() -> list[tuple[str, str, int]]:
    """(game, variant, size) for every variant of every game with action ids, at the sizes
    played."""
    return [(g, v, s) for g, v, played, _ in _sizes() for s in sorted(played)]


def other_rulesets() -> list[tuple[str, str, int]]:
    """(game, variant, size) for every other declared size."""
    return [(g, v, s) for g, v, _, rest in _sizes() for s in sorted(rest)]
