"""Perft of the compiled kernel against a deliberately simple implementation written here."""

from __future__ import annotations

import random

import pytest

from boardlab.core import make_rules
from boardlab.games.dotdash.notation import DotDashPosition
from boardlab.games.dotdash.perft import perft, perft_reference
from boardlab.games.dotdash.rules import DotDashRules

Board = dict[tuple[int, int], int]  # (file, rank) -> 0 red / 1 blue; empty points absent
STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def to_board(pos: DotDashPosition) -> Board:
    return {(p.file, p.rank): player for player in (0, 1) for p in pos.points(player)}


def fives(board: Board, n: int, player: int) -> int:
    """Score every maximal run found by walking from its first stone."""
    total = 0
    for (f, r), owner in board.items():
        if owner != player:
            continue
        for df, dr in STEPS[:4]:
            if board.get((f - df, r - dr)) == player:
                continue
            length = 0
            while board.get((f + length * df, r + length * dr)) == player:
                length += 1
            if length >= 5:
                total += (length - 1) // 4
    return total


def moves(board: Board, n: int, player: int, mode: str, reserve: int | None) -> list[Board]:
    """Children boards of every legal move of `player` (not checking for the game end)."""
    left = 10**9 if reserve is None else reserve - sum(1 for v in board.values() if v == player)
    out = []
    for (f, r), owner in list(board.items()):
        if owner != player:
            continue
        if mode == "frozen" and any(
            all(board.get((f + (k + j) * df, r + (k + j) * dr)) == player for j in range(5))
            for df, dr in STEPS[:4]
            for k in range(-4, 1)
        ):
            continue
        for df, dr in STEPS:
            dist = 1
            while True:
                x, y = f + dist * df, r + dist * dr
                if not (0 <= x < n and 0 <= y < n):
                    break
                here = board.get((x, y))
                capture = here is not None
                if capture and not (
                    mode == "capture" and here != player and dist >= 3 and left >= 1
                ):
                    break
                if not capture and (dist < 3 or left < 2):
                    dist += 1
                    continue
                child = dict(board)
                del child[(f, r)]
                if capture:
                    del child[(x, y)]
                else:
                    child[(x, y)] = player
                child[(x - df, y - dr)] = player
                child[(x - 2 * df, y - 2 * dr)] = player
                out.append(child)
                if capture:
                    break
                dist += 1
    return out


def simple_perft(
    board: Board, n: int, player: int, depth: int, mode: str, reserve: int | None
) -> int:
    if depth == 0:
        return 1
    if fives(board, n, player) > fives(board, n, 1 - player):
        return 0
    return sum(
        simple_perft(child, n, 1 - player, depth - 1, mode, reserve)
        for child in moves(board, n, player, mode, reserve)
    )


def random_position(rules: DotDashRules, rng: random.Random, plies: int) -> DotDashPosition:
    pos = rules.start()
    for _ in range(plies):
        legal = rules.legal_moves(pos)
        if not legal:
            break
        pos = rules.play(pos, rng.choice(legal))
    return pos


@pytest.mark.parametrize("variant", ["standard", "frozen", "capture", "capture-unlimited"])
@pytest.mark.parametrize("seed", range(4))
def test_kernel_matches_simple_perft(variant: str, seed: int) -> None:
    rules = make_rules("dotdash", variant, 7 + seed)
    assert isinstance(rules, DotDashRules)
    rng = random.Random(seed)
    pos = random_position(rules, rng, 3 + 3 * seed)
    board = to_board(pos)
    for depth in range(3):
        expected = simple_perft(board, pos.size, pos.to_move, depth, rules.mode, rules.reserve)
        assert perft(rules, pos, depth) == expected
        assert perft_reference(rules, pos, depth) == expected


def test_dense_positions_with_fives_and_small_reserves() -> None:
    """Crowded random boards: fives end branches, frozen stones and reserves matter."""
    rng = random.Random(7)
    seen_fives = seen_frozen = seen_short = 0
    for mode in ("standard", "frozen", "capture"):
        for _ in range(25):
            n = rng.randrange(7, 10)
            board: Board = {}
            heavy = rng.randrange(2)  # one colour crowds the board, so fives appear
            for f in range(n):
                for r in range(n):
                    roll = rng.random()
                    if roll < 0.55:
                        board[(f, r)] = heavy if roll < 0.42 else 1 - heavy
            reserve = max(len(board) * 3 // 4 + rng.randrange(-2, 4), 3)
            rules = DotDashRules(size=n, mode=mode, reserve=reserve)  # type: ignore[arg-type]
            w = n + 1
            masks = [0, 0]
            for (f, r), owner in board.items():
                masks[owner] |= 1 << (r * w + f)
            if max(bin(m).count("1") for m in masks) > reserve:
                continue
            player = rng.randrange(2)
            pos = DotDashPosition(n, masks[0], masks[1], player)
            seen_fives += max(rules.fives(pos)) > 0
            seen_frozen += mode == "frozen" and rules.frozen(pos, player) != 0
            seen_short += (rules.reserve_left(pos, player) or 9) < 2
            for depth in (1, 2):
                expected = simple_perft(board, n, player, depth, mode, reserve)
                assert perft(rules, pos, depth) == expected, (mode, str(pos), depth)
    assert seen_fives and seen_frozen and seen_short  # the cases meant are really covered


def test_known_start_counts() -> None:
    rules = make_rules("dotdash")
    counts = [perft(rules, rules.start(), d) for d in range(4)]
    assert counts[:2] == [1, 24]
    assert counts == [
        simple_perft(to_board(rules.start()), 13, 0, d, "standard", 60) for d in range(4)
    ]
