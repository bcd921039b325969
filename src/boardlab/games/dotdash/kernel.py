"""Compiled Dot Dash move generation, make/unmake with incremental five counts, and perft.

The board is an int8 array over the padded grid with a wall frame: index = bit + w + 1 where
bit = rank * w + file and w = n + 1 (see notation.py); cells hold EMPTY, RED (1), BLUE (2) or
WALL, so slides stop at the edge without bounds checks. `fives` and `counts` (int32[2], red
first) are kept up to date by `make`/`unmake`: when a stone comes or goes, only the four runs
through its point change, so the five count moves by the difference of their run scores.

Move rows are int32 (src, dst, step, capture). Rule parameters travel as `mode` (0 standard,
1 frozen, 2 capture) and `limit` (stones per player; a huge number when unlimited).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from boardlab.games.dotdash.notation import DotDashPosition

EMPTY, RED, BLUE, WALL = 0, 1, 2, 3
STANDARD, FROZEN, CAPTURE = 0, 1, 2
UNLIMITED = 1 << 30
_MODES = {"standard": STANDARD, "frozen": FROZEN, "capture": CAPTURE}

Board = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]


def mode_code(mode: str) -> int:
    """The kernel code of a rules mode."""
    return _MODES[mode]


def limit_of(reserve: int | None) -> int:
    """The kernel stone limit of a reserve option."""
    return UNLIMITED if reserve is None else reserve


def directions(size: int) -> I32:
    """Index offsets of the 8 slide directions, in the order of rules.DIRECTIONS."""
    w = size + 1
    return np.array([1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1], dtype=np.int32)


def offset(size: int) -> int:
    """Array index of bit 0 (point A1)."""
    return size + 2


def to_arrays(position: DotDashPosition) -> tuple[Board, I32, I32]:
    """(board, fives, counts) of a position, ready for the kernels."""
    n = position.size
    w, off = n + 1, offset(n)
    board = np.full((n + 3) * w, WALL, dtype=np.int8)
    for rank in range(n):
        for file in range(n):
            bit = rank * w + file
            cell = EMPTY
            if position.red >> bit & 1:
                cell = RED
            elif position.blue >> bit & 1:
                cell = BLUE
            board[off + bit] = cell
    fives = np.zeros(2, dtype=np.int32)
    fives[0] = count_all(board, w, RED)
    fives[1] = count_all(board, w, BLUE)
    counts = np.array([position.count(0), position.count(1)], dtype=np.int32)
    return board, fives, counts


def from_board(board: Board, size: int, to_move: int) -> DotDashPosition:
    """The position held in a kernel board array."""
    off = offset(size)
    cells = board[off : off + size * (size + 1)]
    red = blue = 0
    for bit in np.flatnonzero(cells == RED):
        red |= 1 << int(bit)
    for bit in np.flatnonzero(cells == BLUE):
        blue |= 1 << int(bit)
    return DotDashPosition(size, red, blue, to_move)


@nb.njit(cache=True, inline="always")
def run_score(length: int) -> int:
    """Fives credited to a maximal run."""
    return (length - 1) // 4 if length >= 5 else 0


@nb.njit(cache=True, inline="always")
def _line(w: int, i: int) -> int:
    # the four line directions: across, up-right, up, up-left
    return 1 if i == 0 else w + 2 - i


@nb.njit(cache=True)
def _run(board: Board, p: int, d: int, c: int) -> int:
    k = 0
    q = p + d
    while board[q] == c:
        k += 1
        q += d
    return k


@nb.njit(cache=True)
def count_all(board: Board, w: int, c: int) -> int:
    """Fives of colour c counted from scratch (start of every maximal run)."""
    total = 0
    for p in range(board.shape[0]):
        if board[p] != c:
            continue
        for i in range(4):
            d = _line(w, i)
            if p - d >= 0 and board[p - d] == c:
                continue
            total += run_score(1 + _run(board, p, d, c))
    return total


@nb.njit(cache=True)
def _delta(board: Board, p: int, w: int, c: int) -> int:
    # fives gained by colour c if a stone of c is put on the (empty of c) point p
    total = 0
    for i in range(4):
        d = _line(w, i)
        a = _run(board, p, -d, c)
        b = _run(board, p, d, c)
        total += run_score(a + b + 1) - run_score(a) - run_score(b)
    return total


@nb.njit(cache=True)
def add_stone(board: Board, fives: I32, p: int, c: int, w: int) -> None:
    """Put a stone of colour c on empty point p, updating its five count."""
    fives[c - 1] += _delta(board, p, w, c)
    board[p] = c


@nb.njit(cache=True)
def remove_stone(board: Board, fives: I32, p: int, w: int) -> None:
    """Take the stone off point p, updating its owner's five count."""
    c = board[p]
    board[p] = EMPTY
    fives[c - 1] -= _delta(board, p, w, c)


@nb.njit(cache=True)
def is_frozen(board: Board, p: int, w: int) -> bool:
    """True if the stone on p lies in a run of 5 or more of its colour."""
    c = board[p]
    for i in range(4):
        d = _line(w, i)
        if _run(board, p, -d, c) + _run(board, p, d, c) >= 4:
            return True
    return False


@nb.njit(cache=True)
def gen_moves(board: Board, counts: I32, c: int, dirs: I32, mode: int, limit: int, out: I32) -> int:
    """Write every move of colour c into `out` (rows src, dst, step, capture); returns the
    number of moves. Order: stones by index, directions as `dirs`, nearest destination first."""
    left = limit - counts[c - 1]
    slides = left >= 2
    captures = mode == CAPTURE and left >= 1
    if not slides and not captures:
        return 0
    w = dirs[2]
    o = 3 - c
    k = 0
    for p in range(board.shape[0]):
        if board[p] != c:
            continue
        if mode == FROZEN and is_frozen(board, p, w):
            continue
        for i in range(8):
            d = dirs[i]
            q = p + d
            dist = 1
            while board[q] == EMPTY:
                if dist >= 3 and slides:
                    out[k, 0] = p
                    out[k, 1] = q
                    out[k, 2] = d
                    out[k, 3] = 0
                    k += 1
                q += d
                dist += 1
            if captures and dist >= 3 and board[q] == o:
                out[k, 0] = p
                out[k, 1] = q
                out[k, 2] = d
                out[k, 3] = 1
                k += 1
    return k


@nb.njit(cache=True)
def count_moves(
    board: Board, counts: I32, c: int, dirs: I32, mode: int, limit: int, stop_at: int
) -> int:
    """Number of moves of colour c (stops counting once it reaches `stop_at` > 0)."""
    left = limit - counts[c - 1]
    slides = left >= 2
    captures = mode == CAPTURE and left >= 1
    if not slides and not captures:
        return 0
    w = dirs[2]
    o = 3 - c
    k = 0
    for p in range(board.shape[0]):
        if board[p] != c:
            continue
        if mode == FROZEN and is_frozen(board, p, w):
            continue
        for i in range(8):
            d = dirs[i]
            q = p + d
            dist = 1
            while board[q] == EMPTY:
                q += d
                dist += 1
            if slides and dist > 3:
                k += dist - 3
            if captures and dist >= 3 and board[q] == o:
                k += 1
        if stop_at > 0 and k >= stop_at:
            return k
    return k


@nb.njit(cache=True)
def make(board: Board, fives: I32, counts: I32, move: I32, w: int) -> None:
    """Play a move of the colour on its source point."""
    src, dst, d, cap = move[0], move[1], move[2], move[3]
    c = board[src]
    remove_stone(board, fives, src, w)
    if cap:
        remove_stone(board, fives, dst, w)
        counts[2 - c] -= 1
        counts[c - 1] += 1
    else:
        add_stone(board, fives, dst, c, w)
        counts[c - 1] += 2
    add_stone(board, fives, dst - d, c, w)
    add_stone(board, fives, dst - 2 * d, c, w)


@nb.njit(cache=True)
def unmake(board: Board, fives: I32, counts: I32, move: I32, w: int) -> None:
    """Take back `make` of the same move."""
    src, dst, d, cap = move[0], move[1], move[2], move[3]
    c = board[dst - d]
    remove_stone(board, fives, dst - 2 * d, w)
    remove_stone(board, fives, dst - d, w)
    if cap:
        add_stone(board, fives, dst, 3 - c, w)
        counts[2 - c] += 1
        counts[c - 1] -= 1
    else:
        remove_stone(board, fives, dst, w)
        counts[c - 1] -= 2
    add_stone(board, fives, src, c, w)


@nb.njit(cache=True)
def _perft(
    board: Board,
    fives: I32,
    counts: I32,
    c: int,
    depth: int,
    dirs: I32,
    mode: int,
    limit: int,
    buf: I32,
) -> int:
    if depth == 0:
        return 1
    if fives[c - 1] > fives[2 - c]:
        return 0
    if depth == 1:
        return count_moves(board, counts, c, dirs, mode, limit, 0)
    w = dirs[2]
    moves = buf[depth]
    n = gen_moves(board, counts, c, dirs, mode, limit, moves)
    total = 0
    for i in range(n):
        make(board, fives, counts, moves[i], w)
        total += _perft(board, fives, counts, 3 - c, depth - 1, dirs, mode, limit, buf)
        unmake(board, fives, counts, moves[i], w)
    return total


def move_buffer(size: int, levels: int) -> I32:
    """Scratch space for `levels` move lists on a board of `size`."""
    # Each stone has at most 2 * (n - 3) + 2 slide destinations in a line pair, 4 line pairs.
    cap = size * size * (8 * size)
    return np.zeros((levels, cap, 4), dtype=np.int32)


def perft_arrays(position: DotDashPosition, depth: int, mode: str, reserve: int | None) -> int:
    """Leaves at `depth` below a position, counted by the compiled kernel."""
    board, fives, counts = to_arrays(position)
    dirs = directions(position.size)
    buf = move_buffer(position.size, max(depth, 1) + 1)
    c = position.to_move + 1
    return int(_perft(board, fives, counts, c, depth, dirs, _MODES[mode], limit_of(reserve), buf))


def warm_up() -> Any:
    """Compile the kernels on a tiny board (numba caches them on disk)."""
    pos = DotDashPosition(7, 1 << 24, 0, 0)
    return perft_arrays(pos, 2, "capture", 60)
