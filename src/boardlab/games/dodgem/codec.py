"""Stable action ids and piece planes of Dodgem, for the outside frameworks' doors
(`boardlab.integrations.codec`; the game's `GameInfo.codec` names `DodgemCodec`).

**Dodgem** on an n×n board, squares numbered ``rank * n + file`` (``a1`` = 0):

- ``4 * square + d`` moves the car on ``square`` one step in direction ``d``: 0 east,
  1 north, 2 west, 3 south. A step off the board is the exit (``c3-off``); only the forward
  direction of the player moving can exit.
- ``4 * n * n`` is ``pass`` (the Piecepack variant's only move when every car is blocked).

Planes are float32 ``[colour, rank, file]``: plane 0 the first player's cars, plane 1 the
second's; Dodgem adds no planes of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import IllegalMoveError

Planes = npt.NDArray[np.float32]

_COMPASS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # east, north, west, south


def _bad(action: int, size: int) -> IllegalMoveError:
    return IllegalMoveError(f"{action} is not an action id of Dodgem on a {size}×{size} board")


class DodgemCodec:
    """Action ids and planes of Dodgem (see the module docstring)."""

    def __init__(self, rules: Any) -> None:
        from boardlab.games.dodgem.notation import PASS, DodgemMove, Square

        self._n: int = int(rules.size)
        self._pass = PASS
        self._move = DodgemMove
        self._square = Square
        # The forward direction of each player: the only one that can leave the board.
        self._forward = tuple(_COMPASS.index(self._forward_of(rules, p)) for p in (0, 1))

    @staticmethod
    def _forward_of(rules: Any, player: int) -> tuple[int, int]:
        # The first step of the player's step table from a middle square is its forward step.
        n = rules.size
        sq = (n // 2) * n + n // 2
        dst = rules.step_table[player][sq][0]
        return (dst % n - sq % n, dst // n - sq // n)

    @property
    def num_actions(self) -> int:
        """4 n² car steps and one pass."""
        return 4 * self._n * self._n + 1

    def encode(self, move: Any, player: int) -> int:
        """Id of a Dodgem move by `player`."""
        n = self._n
        if move.src is None:
            return 4 * n * n
        src = int(move.src.index(n))
        if move.dst is None:
            d = self._forward[player]
            df, dr = _COMPASS[d]
            if 0 <= move.src.file + df < n and 0 <= move.src.rank + dr < n:
                raise IllegalMoveError(f"{move}: the car on {move.src} cannot leave the board")
            return 4 * src + d
        step = (move.dst.file - move.src.file, move.dst.rank - move.src.rank)
        if step not in _COMPASS:
            raise IllegalMoveError(f"{move} is not a one-square step")
        return 4 * src + _COMPASS.index(step)

    def decode(self, action: int, player: int) -> Any:
        """The Dodgem move of an id."""
        n = self._n
        if action == 4 * n * n:
            return self._pass
        if not 0 <= action < 4 * n * n:
            raise _bad(action, n)
        src, d = divmod(action, 4)
        f, r = src % n, src // n
        df, dr = _COMPASS[d]
        square = self._square(f, r)
        if 0 <= f + df < n and 0 <= r + dr < n:
            return self._move(square, self._square(f + df, r + dr))
        if self._forward[player] != d:
            raise _bad(action, n)
        return self._move(square, None)

    def planes(self, position: Any) -> Planes:
        """Cars of each side."""
        n = self._n
        out = np.zeros((2, n, n), np.float32)
        for p in (0, 1):
            mask = position.cars(p)
            bits = [(mask >> i) & 1 for i in range(n * n)]
            out[p] = np.asarray(bits, np.float32).reshape(n, n)
        return out

    num_extra_planes = 0

    def extra_planes(self, rules: Any, position: Any) -> Planes:
        """No planes beyond the common ones."""
        return np.zeros((0, self._n, self._n), np.float32)
