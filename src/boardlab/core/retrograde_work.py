"""The retrograde kernel's codes, the layout of its work arrays, and the arrays themselves:
allocated here (a kernel compiled without reference counting cannot allocate), kept per
thread between tiers, and the tally of codes the kernel leaves in them.

Codes (value for the side to move): 0 invalid index, 1 draw, 2 + 2r win in r plies,
3 + 2r loss in r plies.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import numpy.typing as npt

INVALID, DRAW = 0, 1
NONE = 65535  # no pending win / no remoteness
MAX_REMOTENESS = 30000
# status codes returned instead of a remoteness
BAD_CHILD, TOO_DEEP, NO_MOVES, TOO_BIG = -1, -2, -3, -4


# A position's state while its tier is solved, one byte: whether it is decided, whether a
# win is pending for it (in the level where it is queued or sooner), and its in-tier moves
# not yet known to win for the opponent. The propagation touches one byte per parent (one
# bit map of the next level besides), so the bytes of the largest tiers stay in the second-
# level cache; what a position needs only when its last move is known (whether a child is
# drawn, the longest loss through a child tier) lies apart, one 16-bit word each.
DECIDED, WIN = 1, 2
CNT_ONE = 4  # in-tier moves: bits 2-7
MAX_INSIDE = 63  # in-tier moves of a position, at most
DRAWN = 1  # of the second word: a child is drawn; the longest loss from bit 1
# the kernel's control words (work[4]): whether the work arrays are as `work_arrays` makes
# them (far queue empty, level maps clear), and the largest remoteness queued
CTL_CLEAN, CTL_TOP = 0, 1
# levels the far queue can hold: any remoteness a child's 16-bit code gives, plus one
HEADS = 1 << 15
PARKED = HEADS  # a list of the far queue never taken: where a first pass may put a position
# it does not queue, so that it queues every position without a branch (`queued` empties it)
LINE = 1 << 14  # positions a game's first pass may take together (five words each)
TALLY = 1 << 16  # the kernel's count of each code of the tier it solved (work[9])


def work_arrays(size: int, max_moves: int) -> tuple[npt.NDArray[Any], ...]:
    """The kernel's work arrays for tiers of up to `size` indices (about 7.3 bytes per
    index, 9.3 with the codes): allocated here, so that a kernel compiled without reference
    counting (which cannot allocate) can use them. The kernel initialises what it reads and
    leaves the queue empty, so the same arrays serve tier after tier (see `pooled_work`).
    A position has at most MAX_INSIDE moves inside its tier (`max_moves` bounds them).
    After a solve that returned remoteness r, `tally(work, r)` counts the tier's codes."""
    if max_moves > MAX_INSIDE:
        raise ValueError(f"the retrograde kernel takes at most {MAX_INSIDE} moves a position")
    words = (size + 63) // 64 + 1
    ctl = np.zeros(4, np.int64)
    ctl[CTL_CLEAN] = 1
    return (
        np.empty(size, np.uint8),  # state bytes (DECIDED, WIN, moves left)
        np.full(HEADS + 1, -1, np.int32),  # far queue: first position of each level, PARKED
        np.empty(size, np.int32),  # far queue: the next position of the same level
        np.zeros(2 * words, np.uint64),  # two level maps: a bit per position
        ctl,  # control words (CTL_*)
        np.empty(max_moves, np.int64),  # move slots
        np.empty(max_moves, np.int64),  # move indices
        np.empty(size, np.uint16),  # longest loss through a child tier << 1 | DRAWN
        np.empty(5 * LINE, np.int64),  # a game's first pass: words for a line of positions
        np.zeros(TALLY, np.int64),  # how many positions of the tier hold each code
    )


_POOL = threading.local()
POOL_SLACK = 1 << 20  # indices a kept set of arrays may exceed the request by, at least


def pooled_work(size: int, max_moves: int) -> tuple[npt.NDArray[Any], ...]:
    """Work arrays for tiers of up to `size` indices, kept for the calling thread and given
    again while they fit (no larger than `size` plus a quarter, or plus POOL_SLACK).

    Fresh arrays cost a page fault per 4 KiB page the kernel touches, in the operating
    system: kept ones do not. A 5×5 solve on two Dask workers spent 8 s of system time on
    that, against 25 s of kernel."""
    held = getattr(_POOL, "work", None)
    if held is not None:
        cap = len(held[0])
        if size <= cap <= size + max(size // 4, POOL_SLACK) and len(held[5]) >= max_moves:
            return held  # type: ignore[no-any-return]
    _POOL.work = None
    del held  # the old arrays go before the new ones come
    _POOL.work = work_arrays(max(size, 1), max_moves)
    return _POOL.work  # type: ignore[no-any-return]


def tally(work: tuple[npt.NDArray[Any], ...], maxrem: int) -> npt.NDArray[np.int64]:
    """How many indices of the tier just solved hold each code, codes 0 to 3 + 2 * `maxrem`
    (the kernel's returned remoteness; no code lies beyond): counted by the kernel as it
    decided them, so that nobody reads the codes again to count them. A view of `work`."""
    return work[9][: 4 + 2 * maxrem]


def release_work() -> None:
    """Free the calling thread's kept work arrays."""
    _POOL.work = None
