"""Five counting on padded bit masks: counts, the fives themselves, and frozen stones.

A maximal run of L ≥ 5 stones of one colour in a line counts ⌊(L−1)/4⌋ fives (two fives may
share one point). On the padded grid (row width n + 1, the last column always empty) a line
direction is a shift of the mask: 1 across, w up, w + 1 and w − 1 on the diagonals.
"""

from __future__ import annotations

from boardlab.games.dotdash.notation import Point


def shifts(size: int) -> tuple[int, int, int, int]:
    """Bit shifts of the four line directions on a padded board of `size`."""
    w = size + 1
    return (1, w, w + 1, w - 1)


def board_mask(size: int) -> int:
    """Mask of every point of the board (guard column excluded)."""
    w = size + 1
    row = (1 << size) - 1
    return sum(row << (r * w) for r in range(size))


def run_score(length: int) -> int:
    """Fives credited to a maximal run of `length` stones."""
    return (length - 1) // 4 if length >= 5 else 0


def _runs(mask: int, s: int) -> tuple[int, int, int, int, int]:
    """(run starts, A5, A9, A13, A17): Ak holds p when p, p+s, … p+(k−1)s are all in mask."""
    a2 = mask & (mask >> s)
    a4 = a2 & (a2 >> 2 * s)
    a5 = a4 & (mask >> 4 * s)
    a9 = a5 & (a5 >> 4 * s)
    a13 = a9 & (a5 >> 8 * s)
    a17 = a13 & (a5 >> 12 * s)
    starts = mask & ~(mask << s)
    return starts, a5, a9, a13, a17


def count_fives(mask: int, size: int) -> int:
    """Number of five-in-a-rows of one colour's stones."""
    total = 0
    for s in shifts(size):
        starts, a5, a9, a13, a17 = _runs(mask, s)
        if not a5:
            continue
        total += (a5 & starts).bit_count()
        if a9:
            total += (a9 & starts).bit_count() + (a13 & starts).bit_count()
            total += (a17 & starts).bit_count()
    return total


def in_long_runs(mask: int, size: int) -> int:
    """Mask of the stones that lie in a run of 5 or more (frozen under the frozen variant)."""
    out = 0
    for s in shifts(size):
        a5 = _runs(mask, s)[1]
        if a5:
            out |= a5 | a5 << s | a5 << 2 * s | a5 << 3 * s | a5 << 4 * s
    return out


def five_lines(mask: int, size: int) -> list[list[Point]]:
    """The credited fives as lists of 5 points; in a run of L, fives start every 4 points."""
    out: list[list[Point]] = []
    w = size + 1
    for s in shifts(size):
        starts, a5 = _runs(mask, s)[:2]
        first = a5 & starts
        while first:
            low = first & -first
            p = low.bit_length() - 1
            first ^= low
            length = 0
            while mask >> (p + length * s) & 1:
                length += 1
            for j in range(run_score(length)):
                q = p + 4 * j * s
                out.append([Point.from_index(q + k * s, w - 1) for k in range(5)])
    return out


def count_fives_slow(mask: int, size: int) -> int:
    """Reference count: walk every line point by point and score each maximal run."""
    total = 0
    w = size + 1
    for df, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
        for rank in range(size):
            for file in range(size):
                pf, pr = file - df, rank - dr
                if 0 <= pf < size and 0 <= pr < size and mask >> (pr * w + pf) & 1:
                    continue  # not the first stone of its run
                length = 0
                f, r = file, rank
                while 0 <= f < size and 0 <= r < size and mask >> (r * w + f) & 1:
                    length += 1
                    f, r = f + df, r + dr
                total += run_score(length)
    return total
