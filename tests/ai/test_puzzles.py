"""Puzzles from the tables: every stated solution is the one move the table allows, the other
moves really fail, the line is best defence, and a seed gives the same puzzles."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

from boardlab.ai.puzzles import KINDS, Puzzle, PuzzleError, check_puzzle, generate, make_puzzle
from boardlab.core.errors import UsageError
from boardlab.core.outcome import Value
from boardlab.games.dodgem import rules_for
from boardlab.games.dodgem.rules import DodgemRules
from boardlab.solver.store import TableStore
from tests.conftest import SMALL_TABLES
from tests.solver.reference import solve


@cache
def reference(variant: str, size: int) -> dict[Any, tuple[Value, int | None]]:
    """The slow reference solver's values (independent of the table files)."""
    return solve(rules_for(variant, size))


def child_values(
    rules: DodgemRules, values: Any, position: Any
) -> dict[str, tuple[Value, int | None]]:
    """Each legal move's value for the mover and plies to the end, by `values(position)`."""
    out = {}
    for move in rules.legal_moves(position):
        v, rem = values(rules.play(position, move))
        out[rules.format_move(move)] = (v.flipped(), None if rem is None else rem + 1)
    return out


def assert_unique_solution(rules: DodgemRules, values: Any, p: Puzzle) -> None:
    """The puzzle's solution keeps the value; every other move fails as the kind says."""
    position = rules.parse_position(p.position)
    value, rem = values(position)
    assert (value.value, rem) == (p.value, p.remoteness)
    moves = child_values(rules, values, position)
    assert set(moves) == {p.solution, *p.wrong}
    sol_value, sol_rem = moves.pop(p.solution)
    assert sol_value is value
    if p.kind == "win":
        assert value is Value.WIN and sol_rem == rem
        for v, r in moves.values():
            if p.fastest:
                assert v is not Value.WIN or (r is not None and r >= rem + 2)
            else:
                assert v is not Value.WIN
        assert p.fastest == any(v is Value.WIN for v, _ in moves.values())
    else:
        assert value is Value.DRAW
        assert all(v is Value.LOSS for v, _ in moves.values())
        quickest = min(r for _, r in moves.values() if r is not None)
        assert (p.kind == "defend") == (quickest <= 3 * rules.size)


@pytest.mark.parametrize(("variant", "size"), SMALL_TABLES)
def test_every_solution_is_the_one_move_the_table_allows(
    small_tables: TableStore, variant: str, size: int
) -> None:
    rules = rules_for(variant, size)
    table = small_tables.open(rules)
    puzzles = generate(rules, table, 12, seed=7)
    assert len(puzzles) == 12
    assert len({p.position for p in puzzles}) == 12
    for p in puzzles:
        assert_unique_solution(rules, table.probe, p)
        if size == 3:  # and by the slow reference solver, which shares no code with the table
            ref = reference(variant, size)
            assert_unique_solution(rules, ref.__getitem__, p)


def test_the_line_is_the_solution_then_best_defence(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    for p in generate(rules, table, 10, seed=3):
        assert p.line[0] == p.solution
        pos = rules.parse_position(p.position)
        for i, text in enumerate(p.line):
            move = rules.parse_move(text)
            if i % 2 == 1:  # the defender's reply: no other move is better for it
                mover = child_values(rules, table.probe, pos)
                best = mover[text]
                for v, r in mover.values():
                    assert not (v is Value.WIN and best[0] is not Value.WIN)
                    if v is Value.LOSS and best[0] is Value.LOSS:
                        assert (r or 0) <= (best[1] or 0)
            pos = rules.play(pos, move)
        if p.kind == "win" and p.remoteness is not None and p.remoteness <= len(p.line):
            outcome = rules.outcome(pos)
            assert outcome is not None and outcome.winner == rules.player_names.index(p.to_move)


def test_the_three_kinds_and_difficulty_on_4x4(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    puzzles = generate(rules, small_tables.open(rules), 20, seed=1)
    assert {p.kind for p in puzzles} == set(KINDS)
    for p in puzzles:
        assert 0.0 <= p.miss_rate <= 1.0
        assert 0 <= p.tempting <= len(p.wrong)
        assert 600 <= p.rating <= 2500
    # deeper or more often missed puzzles are rated harder, all else equal
    a = max(puzzles, key=lambda p: p.rating)
    b = min(puzzles, key=lambda p: p.rating)
    assert (a.remoteness or 8, a.tempting, a.miss_rate) != (b.remoteness or 8, b.tempting, 0)


def test_kinds_can_be_asked_for_one_at_a_time(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    for kind in KINDS:
        got = generate(rules, table, 3, seed=2, kinds=[kind])
        assert len(got) == 3 and {p.kind for p in got} == {kind}
    with pytest.raises(UsageError, match="unknown puzzle kind"):
        generate(rules, table, 3, kinds=["mate"])


def test_a_seed_gives_the_same_puzzles(small_tables: TableStore) -> None:
    rules = rules_for("misere", 3)
    table = small_tables.open(rules)
    one = [p.as_dict() for p in generate(rules, table, 8, seed=11)]
    two = [p.as_dict() for p in generate(rules, table, 8, seed=11)]
    other = [p.as_dict() for p in generate(rules, table, 8, seed=12)]
    assert one == two
    assert [p["position"] for p in one] != [p["position"] for p in other]


def test_check_puzzle_refuses_a_puzzle_the_table_contradicts(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    p = generate(rules, table, 1, seed=5, kinds=["win"])[0]
    check_puzzle(rules, table, p)
    other = next(iter(p.wrong))
    bad_solution = dataclasses.replace(
        p, solution=other, wrong={**{k: v for k, v in p.wrong.items() if k != other}}
    )
    with pytest.raises(PuzzleError):
        check_puzzle(rules, table, bad_solution)
    with pytest.raises(PuzzleError, match="fail as stated"):
        check_puzzle(rules, table, dataclasses.replace(p, wrong=dict.fromkeys(p.wrong, "draw")))
    with pytest.raises(PuzzleError, match="the table gives"):
        check_puzzle(rules, table, dataclasses.replace(p, remoteness=(p.remoteness or 0) + 2))
    with pytest.raises(PuzzleError, match="start with the solution"):
        check_puzzle(rules, table, dataclasses.replace(p, line=[other, *p.line[1:]]))
    pos = rules.play(rules.parse_position(p.position), rules.parse_move(p.solution))
    worse = child_values(rules, table.probe, pos)
    weak = [m for m, (v, _) in worse.items() if m != p.line[1] and v is Value.LOSS]
    if weak and len(p.line) > 1:
        with pytest.raises(PuzzleError, match="best defence"):
            check_puzzle(rules, table, dataclasses.replace(p, line=[p.solution, weak[0]]))


def test_the_start_of_3x3_is_a_puzzle_and_that_of_4x4_is_not(small_tables: TableStore) -> None:
    rules3 = rules_for("classic", 3)
    p = make_puzzle(rules3, small_tables.open(rules3), rules3.start())
    assert p is not None  # only a3-b3 wins for blue (a2-b2 and a2-a1 lose)
    assert (p.kind, p.solution, p.remoteness) == ("win", "a3-b3", 19)
    assert p.wrong == {"a2-b2": "loss", "a2-a1": "loss"}
    rules4 = rules_for("classic", 4)
    assert make_puzzle(rules4, small_tables.open(rules4), rules4.start()) is None  # 3 draws
    assert make_puzzle(rules3, small_tables.open(rules3), rules3.parse_position("3/3/3 b")) is None
