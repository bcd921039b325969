"""The Dodgem family's rules kernel: move generation and terminal rules, once, compiled.

Every rule of play that decides what a position's moves are and whether it is over lives
here, for every variant (geometry, blocked rule, goal): the rules object
(`boardlab.games.dodgem.rules`), perft, the searching players (`boardlab.ai.dodgem`) and the
solver's tier adapter (`boardlab.games.dodgem.tiers`, whose terminal values are
`terminal_winner`'s) call these functions instead of writing the rules again. The one
exception is on purpose: the tablebase checker (`boardlab.games.dodgem.verify_rules`) writes
the moves and terminal rules again, so that `boardlab verify` checks the tables independently
of this module. The rules themselves are checked by tests: hand-made cases, a separate simple
Dodgem for the moves, and the old slice solver (tests/solver/legacy, its own terminal rules)
for every value of the 3×3 and 4×4 classic, blocked-loses and misère tables.

Data layout (the stable API):

- a position is `(first, second, side)`: the two players' car masks (bit `rank * n + file`,
  a1 = 0; `np.uint64` inside compiled code, plain `int` from Python) and the side to move
  (0 first player, 1 second player);
- `steps = step_array(rules)` is an `int64` array `[player, square, k]` holding the
  destinations of a car in move order: the forward step first, then the sideways ones; a
  destination is a square, `EXIT` (leave the board) or `NO_STEP` (padding);
- `blocked = blocked_code(rules.blocked)` is `BLOCKED_WINS`, `BLOCKED_LOSES` or
  `BLOCKED_PASSES`; `misere` is `rules.goal == "misere"`;
- a move is a `(source, destination)` pair of squares in an `int64` buffer row: destination
  `EXIT` for a car leaving, both `PASS_MARK` for the Piecepack pass.

Functions (each is compiled with numba and callable from compiled code; `terminal_winner_py`
runs the very same source as plain Python on Python integers, for the pure-Python callers,
which would otherwise pay a dispatch per call and cannot pass masks of 2**63 and above):

- `terminal_winner(first, second, side, car_move_count, blocked, misere)`: the winner if the
  position is over, else -1 (rules 1 and 2 below, in order), given the number of car moves
  of the side to move (any positive number applies rule 1 alone);
- `car_moves(mine, occupied, side_steps, out)`: writes the car moves of one side into `out`
  and returns their number;
- `expand(first, second, side, steps, blocked, misere, out)`: the legal moves of a position
  into `out` (a lone pass where the side passes); returns their number, 0 when the position
  is over (then `terminal_winner` says who won);
- `play(first, second, side, src, dst)`: the two masks after a move;
- `perft(first, second, side, depth, steps, blocked, misere, buf)`: the leaf count of the
  move tree, `buf` being `perft_buffer(size, depth)`.

Terminal positions, checked in this order:

1. A side with no cars has cleared. If the side that just moved (not to move) has no cars it
   cleared; otherwise, if the side to move has none, it did. Under goal `normal` the clearing
   side wins, under `misere` it loses.
2. The side to move has no legal car move: under blocked `wins` it wins, under `loses` it
   loses, under `passes` the game goes on and its only move is `pass`.

Repetition is not the kernel's business: sessions and searches count positions themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numba as nb
import numpy as np
import numpy.typing as npt

EXIT = -1  # destination of a car leaving the board
NO_STEP = -2  # padding in the step array where a square has fewer than three steps
PASS_MARK = -3  # source and destination of a pass in a move buffer
MAX_STEPS = 3  # forward and two sideways

BLOCKED_WINS, BLOCKED_LOSES, BLOCKED_PASSES = 0, 1, 2
_BLOCKED_CODES = {"wins": BLOCKED_WINS, "loses": BLOCKED_LOSES, "passes": BLOCKED_PASSES}

Steps = npt.NDArray[np.int64]


class Stepping(Protocol):
    """What `step_array` reads from a ruleset (`DodgemRules` is one)."""

    @property
    def size(self) -> int:
        """Board size."""
        ...

    @property
    def step_table(self) -> Sequence[Sequence[Sequence[int]]]:
        """Per player and square: destinations in move order, EXIT for leaving."""
        ...


def blocked_code(blocked: str) -> int:
    """The kernel's code of a blocked rule ('wins', 'loses' or 'passes')."""
    return _BLOCKED_CODES[blocked]


def step_array(rules: Stepping) -> Steps:
    """The step array `[player, square, k]` of a ruleset (see the module docstring)."""
    n = rules.size
    out = np.full((2, n * n, MAX_STEPS), NO_STEP, dtype=np.int64)
    for player in (0, 1):
        for s, dests in enumerate(rules.step_table[player]):
            for k, d in enumerate(dests):
                out[player, s, k] = d
    return out


def move_buffer(size: int) -> npt.NDArray[np.int64]:
    """A buffer that holds every move of one position on a board of `size`."""
    return np.zeros((MAX_STEPS * size * size, 2), dtype=np.int64)


def perft_buffer(size: int, depth: int) -> npt.NDArray[np.int64]:
    """One move buffer per ply, for `perft`."""
    return np.zeros((depth + 1, MAX_STEPS * size * size, 2), dtype=np.int64)


# -- the rules ------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def terminal_winner(first, second, side, car_move_count, blocked, misere):
    """Rules 1 and 2 in order: the winner (0 or 1) if the position is over, else -1.

    `car_move_count` is the number of car moves of the side to move; pass 1 (or any
    positive number) to apply rule 1 alone, before the moves are generated."""
    just_moved = second if side == 0 else first
    to_move = first if side == 0 else second
    if just_moved == 0 or to_move == 0:
        cleared = 1 - side if just_moved == 0 else side
        return 1 - cleared if misere else cleared
    if car_move_count > 0 or blocked == BLOCKED_PASSES:
        return -1
    return side if blocked == BLOCKED_WINS else 1 - side


# -- move generation ------------------------------------------------------------------------


@nb.njit(cache=True)
def car_moves(mine, occupied, side_steps, out):
    """Write the (source, destination) pairs of one side's car moves into `out`, squares in
    ascending order and each car's steps in step-array order; return their number."""
    count = 0
    one = np.uint64(1)
    m = np.uint64(mine)
    occ = np.uint64(occupied)
    s = 0
    while m:
        if m & one:
            for k in range(side_steps.shape[1]):
                d = side_steps[s, k]
                if d == EXIT or (d >= 0 and not (occ >> np.uint64(d)) & one):
                    out[count, 0] = s
                    out[count, 1] = d
                    count += 1
        m >>= one
        s += 1
    return count


@nb.njit(cache=True)
def expand(first, second, side, steps, blocked, misere, out):
    """Write the legal moves of a position into `out` and return their number; 0 when the
    position is over (`terminal_winner` names the winner)."""
    if terminal_winner(first, second, side, 1, blocked, misere) >= 0:
        return 0
    mine = first if side == 0 else second
    count = car_moves(mine, first | second, steps[side], out)
    if count == 0 and blocked == BLOCKED_PASSES:
        out[0, 0] = PASS_MARK
        out[0, 1] = PASS_MARK
        return 1
    return count


@nb.njit(cache=True)
def play(first, second, side, src, dst):
    """The two masks after `side` moves a car from `src` to `dst` (EXIT: off the board);
    a pass (`src == PASS_MARK`) changes nothing."""
    if src == PASS_MARK:
        return first, second
    one = np.uint64(1)
    mine = np.uint64(first if side == 0 else second)
    mine &= ~(one << np.uint64(src))
    if dst >= 0:
        mine |= one << np.uint64(dst)
    if side == 0:
        return mine, np.uint64(second)
    return np.uint64(first), mine


@nb.njit(cache=True)
def perft(first, second, side, depth, steps, blocked, misere, buf):
    """Leaf count of the move tree at `depth` plies (a finished position has no children;
    repetition is ignored), depth first with an explicit stack of `buf` levels."""
    if depth == 0:
        return 1
    firsts = np.zeros(depth + 1, dtype=np.uint64)
    seconds = np.zeros(depth + 1, dtype=np.uint64)
    sides = np.zeros(depth + 1, dtype=np.int64)
    counts = np.zeros(depth + 1, dtype=np.int64)
    nexts = np.zeros(depth + 1, dtype=np.int64)
    firsts[depth], seconds[depth], sides[depth] = first, second, side
    counts[depth] = expand(
        np.uint64(first), np.uint64(second), side, steps, blocked, misere, buf[depth]
    )
    if depth == 1:
        return counts[depth]
    total = 0
    level = depth
    while level <= depth:
        if nexts[level] >= counts[level]:
            level += 1
            continue
        i = nexts[level]
        nexts[level] += 1
        sd = sides[level]
        f, s = play(firsts[level], seconds[level], sd, buf[level, i, 0], buf[level, i, 1])
        child = level - 1
        c = expand(f, s, 1 - sd, steps, blocked, misere, buf[child])
        if child == 1:
            total += c
            continue
        firsts[child], seconds[child], sides[child] = f, s, 1 - sd
        counts[child] = c
        nexts[child] = 0
        level = child
    return total


# -- the same rules for pure-Python callers -------------------------------------------------

terminal_winner_py: Callable[[int, int, int, int, int, bool], int] = terminal_winner.py_func
"""`terminal_winner` run as plain Python on Python integers (the same source)."""
