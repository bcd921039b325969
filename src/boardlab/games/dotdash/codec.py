"""Stable action ids and piece planes of Dot Dash, for the outside frameworks' doors
(`boardlab.integrations.codec`; the game's `GameInfo.codec` names `DotDashCodec`).

**Dot Dash** on an n×n board, points numbered ``rank * n + file`` (``A1`` = 0):

- ``2 * ((8 * point + d) * (n - 3) + (distance - 3)) + capture`` slides the stone on ``point``
  ``distance`` points (3 to n − 1) in direction ``d`` (0 east, 1 north-east, 2 north,
  3 north-west, 4 west, 5 south-west, 6 south, 7 south-east); ``capture`` is 1 for the
  sacrificial capture of the capture variant (``F7xI10``), else 0.

Planes are float32 ``[colour, rank, file]``: plane 0 red's stones, plane 1 blue's; Dot Dash
adds two: the stones left in each player's reserve divided by the reserve (ones when the
reserve is unlimited).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import IllegalMoveError

Planes = npt.NDArray[np.float32]

# east, north-east, north, north-west, west, south-west, south, south-east
_EIGHT = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _bad(action: int, size: int) -> IllegalMoveError:
    return IllegalMoveError(f"{action} is not an action id of Dot Dash on a {size}×{size} board")


class DotDashCodec:
    """Action ids and planes of Dot Dash (see the module docstring)."""

    def __init__(self, rules: Any) -> None:
        from boardlab.games.dotdash.notation import DotDashMove, Point

        self._n: int = int(rules.size)
        self._move = DotDashMove
        self._point = Point

    @property
    def num_actions(self) -> int:
        """Every point, eight directions, distances 3 to n − 1, slide or capture."""
        n = self._n
        return n * n * 8 * (n - 3) * 2

    def encode(self, move: Any, player: int) -> int:
        """Id of a Dot Dash move."""
        n = self._n
        df, dr = move.dst.file - move.src.file, move.dst.rank - move.src.rank
        dist = max(abs(df), abs(dr))
        unit = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
        if dist < 3 or (df and dr and abs(df) != abs(dr)):
            raise IllegalMoveError(f"{move} is not a slide of at least 3 points")
        src = int(move.src.rank * n + move.src.file)
        return 2 * ((8 * src + _EIGHT.index(unit)) * (n - 3) + int(dist) - 3) + int(move.capture)

    def decode(self, action: int, player: int) -> Any:
        """The Dot Dash move of an id."""
        n = self._n
        if not 0 <= action < self.num_actions:
            raise _bad(action, n)
        rest, capture = divmod(action, 2)
        rest, k = divmod(rest, n - 3)
        src, d = divmod(rest, 8)
        f, r = src % n, src // n
        df, dr = _EIGHT[d]
        dist = k + 3
        tf, tr = f + df * dist, r + dr * dist
        if not (0 <= tf < n and 0 <= tr < n):
            raise _bad(action, n)
        return self._move(self._point(f, r), self._point(tf, tr), bool(capture))

    def planes(self, position: Any) -> Planes:
        """Stones of each colour (the padded guard column dropped)."""
        n, w = self._n, self._n + 1
        out = np.zeros((2, n, n), np.float32)
        for p in (0, 1):
            mask = position.stones(p)
            bits = [(mask >> i) & 1 for i in range(n * w)]
            out[p] = np.asarray(bits, np.float32).reshape(n, w)[:, :n]
        return out

    num_extra_planes = 2

    def extra_planes(self, rules: Any, position: Any) -> Planes:
        """The stones left in each player's reserve over the reserve (ones if unlimited)."""
        out = np.ones((2, self._n, self._n), np.float32)
        for p in (0, 1):
            left = rules.reserve_left(position, p)
            if left is not None:
                out[p] = left / rules.reserve
        return out
