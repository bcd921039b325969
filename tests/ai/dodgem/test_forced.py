"""Forced results from the proof search and from tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.ai.dodgem.forced import _search_dodgem
from boardlab.ai.forced import Forced, forced_result
from boardlab.core.outcome import Value
from boardlab.core.registry import make_rules
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore
from tests.ai.dodgem.helpers import VARIANTS, random_position, ref_forced, rules_of


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(10, 60), st.randoms(use_true_random=False))
def test_search_agrees_with_plain_minimax(variant: str, plies: int, rng: random.Random) -> None:
    rules = rules_of(variant, 3 if variant != "piecepack" else 4)
    pos = random_position(rules, plies, rng)
    if rules.outcome(pos) is not None:
        return
    got = _search_dodgem(rules, pos, [], budget=30.0, max_depth=5)
    want = ref_forced(rules, pos, 5)
    assert (None if got is None else (got.winner, got.plies)) == want


def test_three_by_three_start_is_a_first_player_win_in_19() -> None:
    rules = rules_for("classic", 3)
    assert forced_result(rules, rules.start(), budget=5.0) == Forced(0, 19, "search")


def test_finished_position_gives_its_result() -> None:
    rules = rules_for("classic", 3)
    pos = rules.parse_position("3/3/R2 b")  # blue has cleared
    assert forced_result(rules, pos) == Forced(0, 0, "search")


def test_one_move_from_clearing() -> None:
    rules = rules_for("classic", 3)
    assert forced_result(rules, rules.parse_position("2B/3/R2 b")) == Forced(0, 1, "search")
    # Red to move cannot stop blue's car on c3 leaving next.
    assert forced_result(rules, rules.parse_position("2B/3/1R1 r")) == Forced(0, 2, "search")


def test_large_boards_answer_without_a_result() -> None:
    for size in (6, 8):
        rules = rules_for("classic", size)
        assert forced_result(rules, rules.start()) is None


def test_other_games_give_none() -> None:
    pytest.importorskip("boardlab.games.dotdash")
    rules = make_rules("dotdash")
    assert forced_result(rules, rules.start()) is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 30), st.randoms(use_true_random=False))
def test_table_and_search_agree(small_tables_folder: Path, plies: int, rng: random.Random) -> None:
    rules = rules_for("classic", 3)
    pos = random_position(rules, plies, rng)
    if rules.outcome(pos) is not None:
        return
    from_table = forced_result(rules, pos, tables=TableStore(small_tables_folder))
    from_search = _search_dodgem(rules, pos, [], budget=30.0, max_depth=25)
    assert from_table is not None and from_table.proven_by == "table"
    assert from_search is not None  # 3×3 has no draws and no result deeper than 25 plies
    assert (from_table.winner, from_table.plies) == (from_search.winner, from_search.plies)


def _lost_position(rules, table, rng: random.Random):  # type: ignore[no-untyped-def]
    while True:
        pos = random_position(rules, rng.randrange(2, 30), rng)
        if rules.outcome(pos) is None and table.probe(pos)[0] is Value.LOSS:
            return pos


def test_repetition_in_history_can_rescue_a_lost_side(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    pos = _lost_position(rules, table, random.Random(7))
    forced = forced_result(rules, pos, tables=small_tables)
    assert forced is not None and forced.winner == 1 - pos.to_move
    assert forced.proven_by == "table"
    escape = rules.play(pos, rules.legal_moves(pos)[0])
    assert forced_result(rules, pos, [escape, pos, escape], tables=small_tables) is None


def test_repetition_also_counts_in_the_search() -> None:
    rules = rules_for("classic", 3)
    pos = rules.parse_position("2B/3/1R1 r")
    escape = rules.play(pos, rules.legal_moves(pos)[0])
    assert forced_result(rules, pos) == Forced(0, 2, "search")
    # With every red move leading to a position seen twice, red draws by repetition; a
    # position seen once only is no escape.
    others = [rules.play(pos, m) for m in rules.legal_moves(pos)]
    result = forced_result(rules, pos, [*others, *others])
    assert result is None
    assert forced_result(rules, pos, [escape]) == Forced(0, 2, "search")
