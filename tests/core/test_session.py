"""GameSession: playouts stay legal, undo restores the exact session, redo replays."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core import GameSession, IllegalMoveError, Reason, make_rules
from boardlab.core.registry import games

VARIANT_SIZES = [
    ("classic", 3),
    ("classic", 4),
    ("classic", 5),
    ("blocked-loses", 4),
    ("misere", 4),
    ("piecepack", 6),
    ("classic", 8),
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANT_SIZES), st.integers(0, 2**32 - 1))
def test_random_playouts_reach_only_legal_positions(case: tuple[str, int], seed: int) -> None:
    variant, size = case
    rules = make_rules("dodgem", variant, size)
    rng = random.Random(seed)
    session = GameSession(rules)
    while not session.is_over and len(session.plies) < 400:
        pos = session.position
        legal = session.legal_moves()
        assert legal, "a game that is not over has a move"
        move = legal[rng.randrange(len(legal))]
        after = session.play(move)
        # The position is well formed and reads back from its text.
        assert rules.parse_position(str(after)) == after
        assert after.first & after.second == 0
        assert after.count(0) <= size - 1 and after.count(1) <= size - 1
        assert after.to_move == 1 - pos.to_move
        # Exactly one car moved (or left, or nobody moved on a pass).
        mover_before, mover_after = pos.cars(pos.to_move), after.cars(pos.to_move)
        assert pos.cars(1 - pos.to_move) == after.cars(1 - pos.to_move)
        assert mover_after.bit_count() in (mover_before.bit_count(), mover_before.bit_count() - 1)
    if session.is_over:
        assert session.legal_moves() == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.integers(1, 30))
def test_undo_restores_the_exact_session(seed: int, plies: int, back: int) -> None:
    rules = make_rules("dodgem", "classic", 4)
    rng = random.Random(seed)
    session = GameSession(rules)
    snapshots = [session.snapshot()]
    for _ in range(plies):
        if session.is_over:
            break
        legal = session.legal_moves()
        session.play(legal[rng.randrange(len(legal))])
        snapshots.append(session.snapshot())
    played = len(snapshots) - 1
    steps = min(back, played)
    for _ in range(steps):
        session.undo()
    state = session.snapshot()
    expected = snapshots[played - steps]
    assert state["start"] == expected["start"]
    assert state["moves"] == expected["moves"]
    assert state["seen"] == expected["seen"]
    for _ in range(steps):
        session.redo()
    final = session.snapshot()
    assert final["moves"] == snapshots[-1]["moves"] and final["seen"] == snapshots[-1]["seen"]


def test_undo_and_redo_limits_and_new_move_clears_redo() -> None:
    rules = make_rules("dodgem", "classic", 3)
    session = GameSession(rules)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        session.undo()
    session.play("a2-b2")
    session.play("c1-c2")
    assert str(session.undo()) == "c1-c2"
    assert session.can_redo
    session.play("b1-a1")
    assert not session.can_redo
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        session.redo()


def test_resignation() -> None:
    session = GameSession(make_rules("dodgem", "classic", 3))
    outcome = session.resign()
    assert outcome.winner == 1 and outcome.reason is Reason.RESIGNATION
    assert session.undo() is None and not session.is_over


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_kept_result_matches_a_fresh_one_through_changes(seed: int) -> None:
    """The result is worked out once per state; after every play, undo, redo, resignation
    and copy it equals the result of a session replayed from scratch."""
    rules = make_rules("dodgem", "classic", 3)
    rng = random.Random(seed)
    session = GameSession(rules)

    def fresh(s: GameSession[Any, Any]) -> object:
        replayed = GameSession(rules)
        for move in s.moves:
            replayed.play(move)
        if s.snapshot()["resigned"] is not None:
            replayed.resign(s.snapshot()["resigned"])
        return replayed.result

    for _ in range(60):
        action = rng.random()
        if action < 0.6 and not session.is_over:
            legal = session.legal_moves()
            session.play(legal[rng.randrange(len(legal))])
        elif action < 0.75 and session.can_undo:
            session.undo()
        elif action < 0.9 and session.can_redo and not session.is_over:
            session.redo()
        elif action < 0.95 and not session.is_over:
            session.resign(rng.randrange(2))
        else:
            session = session.copy()
        assert session.result == fresh(session)
        assert session.is_over == (fresh(session) is not None)


def test_registry_knows_dodgem_and_refuses_unknown_names() -> None:
    from boardlab.core import UnknownGameError, UsageError

    assert "dodgem" in games()
    with pytest.raises(UnknownGameError, match="unknown game"):
        make_rules("chess")
    with pytest.raises(UnknownGameError, match="unknown dodgem variant"):
        make_rules("dodgem", "tiny")
    with pytest.raises(UsageError, match="3 to 8"):
        make_rules("dodgem", "classic", 9)
    # names are found whatever their case, spaces or dashes, and by the game's own aliases
    assert make_rules("Dot-Dash").game == "dotdash"
    assert make_rules("Dodgem'").game == "dodgem"
