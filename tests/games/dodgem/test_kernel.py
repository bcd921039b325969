"""The compiled rules kernel against the rules object, on every variant and small boards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.games.dodgem import kernel
from boardlab.games.dodgem.notation import PASS, DodgemPosition
from boardlab.games.dodgem.perft import perft, perft_reference
from boardlab.games.dodgem.rules import VARIANTS, DodgemRules, rules_for


def _positions(rules: DodgemRules, count: int, seed: int) -> list[DodgemPosition]:
    """Positions met in random games (finished ones included)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = rules.start()
        for _ in range(rng.randrange(60)):
            out.append(pos)
            moves = rules.legal_moves(pos)
            if not moves:
                break
            pos = rules.play(pos, moves[rng.randrange(len(moves))])
        out.append(pos)
    return out


def _kernel_moves(rules: DodgemRules, pos: DodgemPosition) -> tuple[int, list[str]]:
    steps = kernel.step_array(rules)
    out = kernel.move_buffer(rules.size)
    blocked, misere = kernel.blocked_code(rules.blocked), rules.goal == "misere"
    n = int(
        kernel.expand(
            np.uint64(pos.first), np.uint64(pos.second), pos.to_move, steps, blocked, misere, out
        )
    )
    texts = []
    for src, dst in out[:n]:
        if src == kernel.PASS_MARK:
            texts.append("pass")
            continue
        f, s = kernel.play(
            np.uint64(pos.first), np.uint64(pos.second), pos.to_move, int(src), int(dst)
        )
        texts.append(str(DodgemPosition(pos.size, int(f), int(s), 1 - pos.to_move, pos.letters)))
    return n, texts


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("size", [3, 4, 5])
def test_expand_and_play_agree_with_the_rules_object(variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    for pos in _positions(rules, 150, seed=size * 10 + len(variant)):
        n, children = _kernel_moves(rules, pos)
        legal = rules.legal_moves(pos)
        assert n == len(legal), pos
        want = ["pass" if m == PASS else str(rules.play(pos, m)) for m in legal]
        assert children == want, pos
        end = rules.outcome(pos)
        blocked, misere = kernel.blocked_code(rules.blocked), rules.goal == "misere"
        count = len(rules.car_moves(pos))
        compiled = kernel.terminal_winner(
            np.uint64(pos.first), np.uint64(pos.second), pos.to_move, count, blocked, misere
        )
        python = kernel.terminal_winner_py(
            pos.first, pos.second, pos.to_move, count, blocked, misere
        )
        assert compiled == python == (-1 if end is None else end.winner), pos


def test_terminal_rules_for_every_option() -> None:
    """Rule 1 before rule 2, the clearing side winning or losing, blocked wins/loses/passes."""
    tw = kernel.terminal_winner_py
    w, lo, pa = kernel.BLOCKED_WINS, kernel.BLOCKED_LOSES, kernel.BLOCKED_PASSES
    # first (0) just moved its last car off: it cleared
    assert tw(0, 0b10, 1, 0, w, False) == 0
    assert tw(0, 0b10, 1, 0, w, True) == 1
    # both empty: the side that just moved cleared first
    assert tw(0, 0, 0, 0, lo, False) == 1
    # the side to move has no cars (it cannot have: but the rule says it cleared)
    assert tw(0b1, 0, 1, 0, w, False) == 1
    # blocked side to move
    assert tw(0b1, 0b10, 0, 0, w, False) == 0
    assert tw(0b1, 0b10, 0, 0, lo, False) == 1
    assert tw(0b1, 0b10, 0, 0, pa, False) == -1
    assert tw(0b1, 0b10, 0, 0, w, True) == 0  # misère changes only the clearing goal
    assert tw(0b1, 0b10, 0, 2, lo, False) == -1


def test_masks_of_the_top_square_work_on_8x8() -> None:
    """Bit 63 (h8) needs unsigned masks in compiled code and Python integers outside."""
    rules = rules_for("piecepack", 8)
    top = 1 << 63
    pos = DodgemPosition(8, 1, top, 1, rules.letters)
    assert kernel.terminal_winner_py(pos.first, pos.second, 1, 1, 2, False) == -1
    n, children = _kernel_moves(rules, pos)
    legal = rules.legal_moves(pos)
    assert n == len(legal) > 0
    assert children == [str(rules.play(pos, m)) for m in legal]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_perft_kernel_matches_the_rules_object(variant: str) -> None:
    rules = rules_for(variant, 4)
    for pos in _positions(rules, 6, seed=7):
        for depth in range(4):
            assert perft(rules, pos, depth) == perft_reference(rules, pos, depth)
