"""Stable action ids and board planes for every game, shared by the OpenSpiel and PettingZoo
doors so that an id means the same move in both.

Action ids depend only on the board size (and, for Dodgem exits, on the player moving), never
on the position, so a policy network's output layer keeps its meaning from move to move.

**Dodgem** on an n×n board, squares numbered ``rank * n + file`` (``a1`` = 0):

- ``4 * square + d`` moves the car on ``square`` one step in direction ``d``: 0 east,
  1 north, 2 west, 3 south. A step off the board is the exit (``c3-off``); only the forward
  direction of the player moving can exit.
- ``4 * n * n`` is ``pass`` (the Piecepack variant's only move when every car is blocked).

**Dot Dash** on an n×n board, points numbered ``rank * n + file`` (``A1`` = 0):

- ``2 * ((8 * point + d) * (n - 3) + (distance - 3)) + capture`` slides the stone on ``point``
  ``distance`` points (3 to n − 1) in direction ``d`` (0 east, 1 north-east, 2 north,
  3 north-west, 4 west, 5 south-west, 6 south, 7 south-east); ``capture`` is 1 for the
  sacrificial capture of the capture variant (``F7xI10``), else 0.

Board planes are float32 arrays ``[colour, rank, file]``: plane 0 holds the first player's
pieces, plane 1 the second player's.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import IllegalMoveError, UnknownGameError
from boardlab.core.rules import Rules

Planes = npt.NDArray[np.float32]

_COMPASS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # Dodgem: east, north, west, south
_EIGHT = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # Dot Dash


class ActionCodec(Protocol):
    """Maps a game's moves to stable integer ids and positions to piece planes."""

    @property
    def num_actions(self) -> int:
        """Number of distinct action ids (ids are 0 to num_actions − 1)."""
        ...

    def encode(self, move: Any, player: int) -> int:
        """The id of a move made by `player`."""
        ...

    def decode(self, action: int, player: int) -> Any:
        """The move with id `action` made by `player`; IllegalMoveError if no move has it."""
        ...

    def planes(self, position: Any) -> Planes:
        """The pieces of each colour as a (2, n, n) array indexed [colour, rank, file]."""
        ...


def _bad(action: int, game: str, size: int) -> IllegalMoveError:
    return IllegalMoveError(f"{action} is not an action id of {game} on a {size}×{size} board")


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
            raise _bad(action, "Dodgem", n)
        src, d = divmod(action, 4)
        f, r = src % n, src // n
        df, dr = _COMPASS[d]
        square = self._square(f, r)
        if 0 <= f + df < n and 0 <= r + dr < n:
            return self._move(square, self._square(f + df, r + dr))
        if self._forward[player] != d:
            raise _bad(action, "Dodgem", n)
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
            raise _bad(action, "Dot Dash", n)
        rest, capture = divmod(action, 2)
        rest, k = divmod(rest, n - 3)
        src, d = divmod(rest, 8)
        f, r = src % n, src // n
        df, dr = _EIGHT[d]
        dist = k + 3
        tf, tr = f + df * dist, r + dr * dist
        if not (0 <= tf < n and 0 <= tr < n):
            raise _bad(action, "Dot Dash", n)
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


_CODECS: dict[str, type[DodgemCodec] | type[DotDashCodec]] = {
    "dodgem": DodgemCodec,
    "dotdash": DotDashCodec,
}


def codec_for(rules: Rules[Any, Any]) -> ActionCodec:
    """The action codec of a ruleset's game; UnknownGameError for a game without one."""
    cls = _CODECS.get(rules.game)
    if cls is None:
        raise UnknownGameError(f"no action ids are defined for the game {rules.game!r}")
    return cls(rules)


def has_codec(game: str) -> bool:
    """True if action ids are defined for `game`."""
    return game in _CODECS
