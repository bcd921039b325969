"""Random playouts through GameSession end legally, under every variant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core import GameSession, Reason, make_rules
from boardlab.games.dotdash.rules import DotDashRules


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["standard", "frozen", "capture", "standard-unlimited", "capture-unlimited"]),
    st.integers(7, 13),
    st.integers(0, 2**32),
)
def test_random_games_end_legally(variant: str, size: int, seed: int) -> None:
    rules = make_rules("dotdash", variant, size)
    assert isinstance(rules, DotDashRules)
    rng = random.Random(seed)
    session = GameSession(rules)
    while not session.is_over:
        moves = session.legal_moves()
        assert moves, "a game that is not over has a legal move"
        before = session.position
        move = rng.choice(moves)
        after = session.play(move)
        assert after.to_move == 1 - before.to_move
        p = before.to_move
        if move.capture:
            assert (after.count(p), after.count(1 - p)) == (
                before.count(p) + 1,
                before.count(1 - p) - 1,
            )
        else:
            assert after.count(p) == before.count(p) + 2
            assert after.stones(1 - p) == before.stones(1 - p)
        for player in (0, 1):
            left = rules.reserve_left(after, player)
            assert left is None or left >= 0
        assert len(session.plies) <= 400
    result = session.result
    assert result is not None
    final = session.position
    red, blue = rules.fives(final)
    mover = final.to_move
    mine, theirs = (red, blue) if mover == 0 else (blue, red)
    if result.reason is Reason.FIVES:
        assert result.winner == mover and mine > theirs
    elif result.reason is Reason.BLOCKED:
        assert result.winner == 1 - mover and mine <= theirs
        assert rules.generate(final) == []
    else:
        assert rules.mode == "capture" and result.winner is None
        assert result.reason in (Reason.REPETITION, Reason.MOVE_LIMIT)
    if rules.mode != "capture":
        assert len(session.plies) <= (size * size - 3) // 2


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["standard", "frozen", "capture"]), st.integers(0, 2**32))
def test_seven_by_seven_never_feels_its_reserve(variant: str, seed: int) -> None:
    """On 7×7 no colour can hold more stones than its reserve (49 points, 60 stones), so the
    unlimited variant is the same game: the same moves and results at every step (the app
    shows the limited variant's ratings for it)."""
    limited = make_rules("dotdash", variant, 7)
    unlimited = make_rules("dotdash", f"{variant}-unlimited", 7)
    assert isinstance(limited, DotDashRules) and isinstance(unlimited, DotDashRules)
    assert limited.reserve is not None and unlimited.reserve is None
    rng = random.Random(seed)
    position = limited.start()
    assert unlimited.start() == position
    for _ in range(200):
        outcome = limited.outcome(position)
        assert outcome == unlimited.outcome(position)
        moves = limited.legal_moves(position)
        assert moves == unlimited.legal_moves(position)
        if outcome is not None or not moves:
            break
        move = rng.choice(moves)
        after = limited.play(position, move)
        assert unlimited.play(position, move) == after
        position = after
