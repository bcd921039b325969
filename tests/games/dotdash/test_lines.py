"""Five counting: the bit-mask count against a brute-force maximum packing of fives."""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.games.dotdash import kernel, lines
from boardlab.games.dotdash.notation import DotDashPosition, Point


def max_packing(cells: list[bool]) -> int:
    """The most 5-point all-stone segments of a line that pairwise share at most one point,
    found by trying every subset of segments (largest first)."""
    segs = [s for s in range(len(cells) - 4) if all(cells[s : s + 5])]
    for k in range(len(segs), 0, -1):
        for pick in combinations(segs, k):
            if all(b - a >= 4 for a, b in pairwise(pick)):
                return k
    return 0


def board_lines(n: int) -> list[list[tuple[int, int]]]:
    """Every line of the board (rows, columns, both diagonals) as (file, rank) lists."""
    out = []
    for start in range(n):
        out.append([(f, start) for f in range(n)])
        out.append([(start, r) for r in range(n)])
    for k in range(-(n - 1), n):
        out.append([(f, f - k) for f in range(n) if 0 <= f - k < n])
        out.append([(f, k + (n - 1) - f) for f in range(n) if 0 <= k + (n - 1) - f < n])
    return out


def brute_count(mask: int, n: int) -> int:
    w = n + 1
    return sum(
        max_packing([bool(mask >> (r * w + f) & 1) for f, r in line]) for line in board_lines(n)
    )


def random_mask(rng: random.Random, n: int, density: float) -> int:
    w = n + 1
    return sum(1 << (r * w + f) for r in range(n) for f in range(n) if rng.random() < density)


@settings(max_examples=60, deadline=None)
@given(st.integers(7, 13), st.floats(0.3, 0.95), st.integers(0, 2**32))
def test_count_matches_brute_force_packing(n: int, density: float, seed: int) -> None:
    mask = random_mask(random.Random(seed), n, density)
    expected = brute_count(mask, n)
    assert lines.count_fives(mask, n) == expected
    assert lines.count_fives_slow(mask, n) == expected
    fives = lines.five_lines(mask, n)
    assert len(fives) == expected
    for line in fives:
        assert all(mask >> p.index(n) & 1 for p in line)
        steps = {(b.file - a.file, b.rank - a.rank) for a, b in pairwise(line)}
        assert len(steps) == 1 and steps.pop() in {(1, 0), (0, 1), (1, 1), (-1, 1)}
    for a, b in combinations(fives, 2):
        assert len(set(a) & set(b)) <= 1


def test_run_lengths_on_a_19_board() -> None:
    n, w = 19, 20
    for length, fives in [
        (4, 0),
        (5, 1),
        (8, 1),
        (9, 2),
        (12, 2),
        (13, 3),
        (16, 3),
        (17, 4),
        (19, 4),
    ]:
        mask = sum(1 << (3 * w + f) for f in range(length))
        assert lines.count_fives(mask, n) == fives
        diag = sum(1 << (i * w + (n - 1 - i)) for i in range(length))
        assert lines.count_fives(diag, n) == fives


def test_lines_do_not_wrap_round_the_edge() -> None:
    n, w = 7, 8
    # E1 F1 G1 then A2 B2: five consecutive bits across the edge if the grid were not padded
    mask = sum(1 << (r * w + f) for f, r in [(4, 0), (5, 0), (6, 0), (0, 1), (1, 1)])
    assert lines.count_fives(mask, n) == 0


def test_five_lines_points() -> None:
    n, w = 13, 14
    mask = sum(1 << (9 * w + f) for f in range(3, 12))  # D10..L10, a run of 9
    assert lines.five_lines(mask, n) == [
        [Point(f, 9) for f in range(3, 8)],
        [Point(f, 9) for f in range(7, 12)],
    ]


def test_frozen_mask_is_the_stones_in_long_runs() -> None:
    n, w = 9, 10
    run = [(f, 4) for f in range(1, 6)]
    lone = (7, 7)
    mask = sum(1 << (r * w + f) for f, r in [*run, lone])
    frozen = lines.in_long_runs(mask, n)
    assert frozen == sum(1 << (r * w + f) for f, r in run)


@settings(max_examples=40, deadline=None)
@given(st.integers(7, 19), st.integers(0, 2**32))
def test_incremental_counts_follow_the_kernel(n: int, seed: int) -> None:
    """Random stone additions and removals keep the kernel's counts equal to a recount."""
    rng = random.Random(seed)
    pos = DotDashPosition(n, 0, 0, 0)
    board, fives, _ = kernel.to_arrays(pos)
    w, off = n + 1, kernel.offset(n)
    points = [off + r * w + f for r in range(n) for f in range(n)]
    for _ in range(120):
        p = rng.choice(points)
        if board[p] == kernel.EMPTY:
            kernel.add_stone(board, fives, p, rng.choice((kernel.RED, kernel.BLUE)), w)
        else:
            kernel.remove_stone(board, fives, p, w)
    back = kernel.from_board(board, n, 0)
    assert list(fives) == [lines.count_fives(back.red, n), lines.count_fives(back.blue, n)]
    assert int(kernel.count_all(board, w, kernel.RED)) == fives[0]
    assert np.array_equal(kernel.to_arrays(back)[0], board)
