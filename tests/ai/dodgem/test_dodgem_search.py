"""The bit-mask search agrees with the rules object and with a plain minimax."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.ai.dodgem.search import MATE_BOUND, TEMPO, WIN, FastBoard, Searcher
from boardlab.games.dodgem import DodgemPosition, rules_for
from tests.ai.dodgem.helpers import VARIANTS, random_position, ref_solve, rules_of


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.integers(3, 7),
    st.integers(0, 60),
    st.randoms(use_true_random=False),
)
def test_fast_board_matches_rules(variant: str, size: int, plies: int, rng: random.Random) -> None:
    rules = rules_of(variant, size)
    pos = random_position(rules, plies, rng)
    board = FastBoard(rules)
    winner, kids = board.expand(pos.first, pos.second, pos.to_move)
    end = rules.outcome(pos)
    assert winner == (-1 if end is None else end.winner)
    moves = rules.legal_moves(pos)
    assert [board.move_of(c) for c, _, _ in kids] == moves
    for (code, a, b), move in zip(kids, moves, strict=True):
        after = rules.play(pos, move)
        assert (a, b) == (after.first, after.second)
        assert board.code_of(move) == code


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(0, 40), st.randoms(use_true_random=False))
def test_evaluation_is_zero_sum_up_to_the_tempo(size: int, plies: int, rng: random.Random) -> None:
    rules = rules_for("classic", size)
    pos = random_position(rules, plies, rng)
    board = FastBoard(rules)
    assert (
        board.evaluate(pos.first, pos.second, 0) + board.evaluate(pos.first, pos.second, 1)
        == 2 * TEMPO
    )


def test_distance_counts_forward_steps_and_the_exit() -> None:
    rules = rules_for("classic", 4)
    board = FastBoard(rules)
    start = rules.start()
    # Blue's three cars on file a need 3 steps east and one to leave; so do red's on rank 1.
    assert board.distance(start.first, 0) == 12
    assert board.distance(start.second, 1) == 12


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 30), st.randoms(use_true_random=False))
def test_proven_scores_are_real(plies: int, rng: random.Random) -> None:
    rules = rules_for("classic", 3)
    pos = random_position(rules, plies, rng)
    if rules.outcome(pos) is not None:
        return
    searcher = Searcher(FastBoard(rules))
    for code, score in searcher.root_scores(pos, [], 5):
        child = rules.play(pos, searcher.board.move_of(code))
        if score > MATE_BOUND:  # the mover wins within WIN - score plies, this move first
            assert ref_solve(rules, child, WIN - score - 1, frozenset()) == -1
        elif score < -MATE_BOUND:
            assert ref_solve(rules, child, WIN + score - 1, frozenset()) == 1
        else:  # no result within the horizon (4 plies after the move)
            assert ref_solve(rules, child, 4, frozenset()) == 0


def test_search_finds_the_immediate_exit() -> None:
    rules = rules_for("classic", 3)
    pos = rules.parse_position("2B/3/R2 b")
    searcher = Searcher(FastBoard(rules))
    result = searcher.search(pos, [], random.Random(0), node_limit=1000)
    assert str(searcher.board.move_of(result.code)) == "c3-off"
    assert result.score == WIN - 1


def test_search_proves_the_three_by_three_start() -> None:
    rules = rules_for("classic", 3)
    searcher = Searcher(FastBoard(rules))
    result = searcher.search(rules.start(), [], random.Random(0))
    assert result.score > MATE_BOUND  # first player wins


def test_repeating_a_position_twice_seen_scores_as_a_draw() -> None:
    rules = rules_for("classic", 3)
    pos = rules.parse_position("2B/3/R2 b")  # c3-off wins at once; others do not
    searcher = Searcher(FastBoard(rules))
    moves = rules.legal_moves(pos)
    quiet = next(m for m in moves if not m.is_exit)
    child = rules.play(pos, quiet)
    scores = dict(searcher.root_scores(pos, [child, pos, child], 3))
    assert scores[searcher.board.code_of(quiet)] == 0
    assert scores[searcher.board.code_of(next(m for m in moves if m.is_exit))] == WIN - 1


def test_contempt_makes_a_repetition_draw_cost_the_side_searching() -> None:
    rules = rules_for("classic", 3)
    for text in ("2B/3/R2 b", "R2/3/2B r"):  # each side to move once
        pos = rules.parse_position(text)
        moves = rules.legal_moves(pos)
        quiet = next(m for m in moves if not m.is_exit)
        child = rules.play(pos, quiet)
        history = [child, pos, child]
        searcher = Searcher(FastBoard(rules), contempt=300)
        scores = dict(searcher.root_scores(pos, history, 3))
        assert scores[searcher.board.code_of(quiet)] == -300
        plain = dict(Searcher(FastBoard(rules)).root_scores(pos, history, 3))
        assert plain[searcher.board.code_of(quiet)] == 0


def test_contempt_search_forgets_scores_seen_from_the_other_side() -> None:
    """Draw scores depend on who searches: a searcher that searched for one side and then
    searches for the other answers as a fresh one would (its stored scores are dropped)."""
    rules = rules_for("misere", 4)
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        line = [random_position(rules, rng.randrange(4, 20), rng)]
        while len(line) < 5 and rules.outcome(line[-1]) is None:
            moves = rules.legal_moves(line[-1])
            line.append(rules.play(line[-1], moves[rng.randrange(len(moves))]))
        if len(line) < 5:
            continue
        x, y = line[0], line[1]
        history = [line[4], line[4]]  # reaching it again draws
        used = Searcher(FastBoard(rules), contempt=400)
        used.root_scores(x, history, 4)
        fresh = Searcher(FastBoard(rules), contempt=400)
        assert used.root_scores(y, history, 3) == fresh.root_scores(y, history, 3)
        checked += 1
    assert checked >= 10


def test_node_budget_makes_search_reproducible() -> None:
    rules = rules_for("classic", 5)
    pos: DodgemPosition = rules.start()
    first = Searcher(FastBoard(rules)).search(pos, [], random.Random(3), node_limit=3000)
    second = Searcher(FastBoard(rules)).search(pos, [], random.Random(3), node_limit=3000)
    assert first == second
    assert first.nodes <= 3000
