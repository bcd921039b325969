"""Game review: golden records with known mistakes are marked exactly where the value changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardlab.ai.review import mark_of, review_game
from boardlab.core.errors import IllegalMoveError
from boardlab.core.outcome import Value
from boardlab.core.records import GameRecord
from boardlab.solver.store import TableStore
from tests.solver.reference import solve

REVIEWS = Path(__file__).parent / "reviews"

# The marked moves of each golden record (ply: mark); every other move keeps the value.
GOLDEN = {
    "classic-3.txt": {3: "slower", 5: "win-loss"},
    "classic-4.txt": {2: "draw-loss", 7: "win-draw", 12: "draw-loss"},
    "misere-3.txt": {4: "win-draw"},
}
SUMMARIES = {
    "classic-3.txt": "1 mistake, first at move 3 (blue b3-c3); 1 slower win",
    "classic-4.txt": "3 mistakes, first at move 1 (red d1-d2)",
    "misere-3.txt": "1 mistake, first at move 2 (red b2-c2)",
}


def load(name: str) -> Any:
    return GameRecord.load(REVIEWS / name).to_session()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_records_are_marked_where_the_value_changes(
    small_tables: TableStore, name: str
) -> None:
    session = load(name)
    rules = session.rules
    review = review_game(rules, small_tables.open(rules), session.start, session.moves)
    assert len(review.moves) == len(session.moves)
    marked = {m.ply: m.mark for m in review.moves if m.mark not in ("best", "ok")}
    assert marked == GOLDEN[name]
    assert review.summary() == SUMMARIES[name]
    for m in review.moves:
        if m.mistake:  # the best move shown keeps what the played one threw away
            assert m.best != m.move and m.better_line[0] == m.best
            assert m.before is not m.after


@pytest.mark.parametrize("name", ["classic-3.txt", "misere-3.txt"])
def test_marks_agree_with_the_reference_solver(small_tables: TableStore, name: str) -> None:
    """The marks again, from values of the slow reference solver (no table file involved)."""
    session = load(name)
    rules = session.rules
    values = solve(rules)
    review = review_game(rules, small_tables.open(rules), session.start, session.moves)
    for m, pos, move in zip(review.moves, session.positions, session.moves, strict=False):
        before, _ = values[pos]
        after, after_rem = values[rules.play(pos, move)]
        children = [values[rules.play(pos, x)] for x in rules.legal_moves(pos)]
        wins = [r + 1 for v, r in children if v is Value.LOSS and r is not None]
        if before is Value.WIN and after is not Value.LOSS:  # the mover threw the win away
            want = "win-draw" if after is Value.DRAW else "win-loss"
        elif before is Value.WIN:
            want = "slower" if (after_rem or 0) + 1 > min(wins) else "best"
        elif before is Value.DRAW and after is Value.WIN:
            want = "draw-loss"
        elif before is Value.DRAW:
            want = "best"
        else:
            slowest = max(r + 1 for _, r in children if r is not None)
            want = "best" if (after_rem or 0) + 1 >= slowest else "ok"
        assert m.mark == want, (m.ply, m.move)


def test_a_game_without_mistakes(small_tables: TableStore) -> None:
    from boardlab.ai.puzzles import best_line
    from boardlab.games.dodgem import rules_for

    rules = rules_for("classic", 3)
    table = small_tables.open(rules)
    moves = best_line(rules, table, rules.start(), rules.parse_move("a3-b3"), 40)
    review = review_game(rules, table, rules.start(), moves)
    assert {m.mark for m in review.moves} == {"best"}
    assert review.summary() == "no mistakes"
    assert review.as_dict()["first_mistake"] is None


def test_a_record_with_a_start_position_and_red_to_move(small_tables: TableStore) -> None:
    from boardlab.games.dodgem import rules_for

    rules = rules_for("classic", 3)
    start = rules.parse_position("B2/B2/1RR r")
    moves = [rules.legal_moves(start)[0]]
    review = review_game(rules, small_tables.open(rules), start, moves)
    assert review.moves[0].label.startswith("1… ") and review.moves[0].side == "red"


def test_an_illegal_move_is_refused(small_tables: TableStore) -> None:
    from boardlab.games.dodgem import rules_for

    rules = rules_for("classic", 3)
    with pytest.raises(IllegalMoveError, match="move 1"):
        review_game(rules, small_tables.open(rules), rules.start(), [rules.parse_move("b1-b2")])


def test_mark_of_every_case() -> None:
    W, D, L = Value.WIN, Value.DRAW, Value.LOSS
    assert mark_of(W, L, 4, 3) == "win-loss"
    assert mark_of(W, D, None, 3) == "win-draw"
    assert mark_of(W, W, 5, 3) == "slower"
    assert mark_of(W, W, 3, 3) == "best"
    assert mark_of(D, L, 7, None) == "draw-loss"
    assert mark_of(D, D, None, None) == "best"
    assert mark_of(L, L, 4, 8) == "ok"
    assert mark_of(L, L, 8, 8) == "best"
