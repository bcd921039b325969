"""Search estimates (`GameInfo.estimate`): bounded by their node budget, the same on every
run, proven only where the result is forced, and a line of legal moves."""

from __future__ import annotations

from typing import Any

import pytest

from boardlab.ai.dodgem.estimate import estimate_dodgem
from boardlab.ai.dotdash.estimate import estimate_dotdash
from boardlab.ai.estimate import Estimate, share_of
from boardlab.core.registry import get_game, make_rules

# A 3×3 game in which Red, to move, has one legal move (b1-b2) and loses in six plies
ONE_MOVE = ["a2-b2", "b1-a1", "b2-b1", "a1-a2", "a3-b3", "a2-a3", "b3-c3", "a3-b3", "c3-off",
            "b3-off"]  # fmt: skip


def replayed(game: str, size: int, moves: list[str]) -> tuple[Any, Any, list[Any]]:
    rules = make_rules(game, None, size)
    position, history = rules.start(), []
    for text in moves:
        history.append(position)
        position = rules.play(position, rules.parse_move(text))
    return rules, position, history


def assert_line_is_legal(rules: Any, position: Any, est: Estimate) -> None:
    for text in est.line:
        move = rules.parse_move(text)
        assert move in rules.legal_moves(position), (text, est.line)
        position = rules.play(position, move)


def test_dodgem_estimate_keeps_to_its_node_budget_and_deepens_with_more() -> None:
    rules, position, history = replayed("dodgem", 6, ["a2-b2", "c1-c2"])
    small = estimate_dodgem(rules, position, history, nodes=1_000)
    large = estimate_dodgem(rules, position, history, nodes=8_000)
    assert 0 < small.nodes <= 1_000 and 0 < large.nodes <= 8_000
    assert 0 < small.depth <= large.depth
    assert not large.proven and large.plies is None and 0.0 < large.share < 1.0
    assert large.line and len(large.line) <= 8
    assert_line_is_legal(rules, position, large)
    # a node budget, not a clock: the same answer every time
    assert estimate_dodgem(rules, position, history, nodes=8_000) == large


def test_dot_dash_estimate_keeps_to_twice_its_node_budget() -> None:
    rules, position, history = replayed("dotdash", 13, [])
    est = estimate_dotdash(rules, position, history, nodes=3_000)
    assert 0 < est.nodes <= 6_000  # the search, then the replies of its line
    assert est.depth >= 1 and len(est.line) == est.depth
    assert 0.0 < est.share < 1.0 and not est.proven
    assert_line_is_legal(rules, position, est)
    assert estimate_dotdash(rules, position, history, nodes=3_000) == est


def test_a_proven_result_agrees_with_the_complete_table(tmp_path: Any) -> None:
    from boardlab.solver.store import TableStore

    rules, position, _ = replayed("dodgem", 3, [])
    est = estimate_dodgem(rules, position)
    assert est.proven and est.plies is not None and est.share == 1.0
    value, remoteness = TableStore(tmp_path).build(rules).probe(position)
    assert str(value) == "win" and remoteness is not None and est.plies >= remoteness
    assert_line_is_legal(rules, position, est)


def test_a_single_legal_move_is_played_and_the_position_after_it_estimated() -> None:
    rules, position, history = replayed("dodgem", 3, ONE_MOVE)
    assert len(rules.legal_moves(position)) == 1
    est = estimate_dodgem(rules, position, history)
    assert est.line[0] == "b1-b2" and est.depth >= 1
    assert est.proven and est.share == 0.0 and est.plies is not None
    assert_line_is_legal(rules, position, est)


@pytest.mark.parametrize("game", ["dodgem", "dotdash"])
def test_each_game_declares_its_estimator(game: str) -> None:
    assert get_game(game).estimate is not None


def test_share_is_a_logistic_of_the_score() -> None:
    assert share_of(0, 300.0) == 0.5
    assert share_of(300, 300.0) == pytest.approx(0.731, abs=1e-3)
    assert share_of(-300, 300.0) == pytest.approx(1 - 0.731, abs=1e-3)
    assert share_of(10**9, 300.0) <= 1.0 and share_of(-(10**9), 300.0) >= 0.0
