"""Levels 1-4: legal, reproducible, ordered in strength; level 4 plays the table's best."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.ai.base import Limits, make_player
from boardlab.ai.dodgem.levels import player_for_level
from boardlab.ai.dodgem.perfect import PerfectPlayer
from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer
from boardlab.ai.match import play_game, score
from boardlab.core.errors import IllegalMoveError, UsageError
from boardlab.core.outcome import Value
from boardlab.games.dodgem import DodgemPosition, DodgemRules, rules_for
from boardlab.solver.store import TableStore
from tests.ai.dodgem.helpers import VARIANTS, random_position, rules_of


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.integers(3, 7),
    st.integers(0, 50),
    st.sampled_from([1, 2, 3]),
    st.randoms(use_true_random=False),
)
def test_levels_play_legal_moves(
    variant: str, size: int, plies: int, level: int, rng: random.Random
) -> None:
    rules = rules_of(variant, size)
    pos = random_position(rules, plies, rng)
    player = make_player(str(level), rules)
    if rules.outcome(pos) is not None:
        with pytest.raises(IllegalMoveError):
            player.choose(rules, pos, [], rng, Limits(time=0.05))
        return
    move = player.choose(rules, pos, [], rng, Limits(time=0.05))
    assert move in rules.legal_moves(pos)


def test_level_4_without_a_table_searches_and_says_so(
    empty_tables: TableStore, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = rules_for("classic", 5)
    player = make_player("4", rules, empty_tables)
    rng = random.Random(1)
    pos = rules.start()
    for _ in range(2):
        move = player.choose(rules, pos, [], rng, Limits(time=0.05))
        assert move in rules.legal_moves(pos)
    err = capsys.readouterr().err
    assert err.count("no complete table") == 1


def test_games_replay_from_their_seed() -> None:
    rules = rules_for("classic", 4)
    runs = []
    for _ in range(2):
        players = [make_player("2", rules), make_player("3", rules)]
        runs.append(play_game(rules, players, random.Random(11)).moves)
    assert runs[0] == runs[1]


def test_unknown_levels_are_refused() -> None:
    rules = rules_for("classic", 4)
    with pytest.raises(UsageError, match="random or a level 1-4"):
        make_player("5", rules)
    with pytest.raises(UsageError):
        player_for_level(0, rules)


def _points(rules: DodgemRules, a: str, b: str, games: int) -> float:
    """Points of `a` against `b`, colours alternated, fixed seeds."""
    pts = 0.0
    for i in range(games):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        players = [make_player(first, rules), make_player(second, rules)]
        result = score(play_game(rules, players, random.Random(100 + i)).result)
        mine = result if first == a else {"win": "loss", "loss": "win", "draw": "draw"}[result]
        pts += {"win": 1.0, "draw": 0.5, "loss": 0.0}[mine]
    return pts


def test_each_level_beats_the_one_below_on_4x4() -> None:
    """Level 1 beats a random mover nearly always; each level above scores more than half
    against the one below (the ladder aims at 70-85%: see docs/ai-levels.md)."""
    rules = rules_for("classic", 4)
    assert _points(rules, "1", "random", 20) >= 18
    assert _points(rules, "2", "1", 20) > 10
    assert _points(rules, "3", "2", 20) > 10


def test_misere_levels_play_on_instead_of_drawing() -> None:
    """Under misère, levels 2 and 3 shuffled sideways until a repetition drew every game;
    with their contempt for a draw most games are decided, and level 3 wins more of them."""
    rules = rules_for("misere", 4)
    decided = wins = 0
    for i in range(8):
        first, second = ("3", "2") if i % 2 == 0 else ("2", "3")
        players = [make_player(first, rules), make_player(second, rules)]
        result = score(play_game(rules, players, random.Random(200 + i)).result)
        if result != "draw":
            decided += 1
            wins += (result == "win") == (first == "3")
    assert decided >= 4 and wins > decided / 2


def level_4_against_level_3(
    rules: DodgemRules, tables: TableStore, games: int, seed: int
) -> list[str]:
    """Level 4's result ("win", "loss" or "draw") in each of `games` games against level 3,
    taking turns to move first (games stop at 1,000 plies, as in the ladder)."""
    results = []
    for i in range(games):
        players = [make_player("4", rules, tables), make_player("3", rules)]
        if i % 2:
            players.reverse()
        result = score(play_game(rules, players, random.Random(seed + i), max_plies=1000).result)
        flipped = {"win": "loss", "loss": "win"}.get(result, result)
        results.append(result if i % 2 == 0 else flipped)
    return results


def test_piecepack_7x7_level_4_is_level_3s_search_with_half_its_noise(
    empty_tables: TableStore,
) -> None:
    """On Piecepack 7×7 level 4 without a table is level 3's noisy 4-ply search with half its
    noise: still the stronger of the two from either seat."""
    rules = rules_for("piecepack", 7)
    four = make_player("4", rules, empty_tables)
    assert isinstance(four, PerfectPlayer) and isinstance(four.fallback, NoisySearchPlayer)
    assert level_4_against_level_3(rules, empty_tables, 8, seed=400).count("win") >= 5


def test_misere_level_4_without_a_table_outlasts_level_3(empty_tables: TableStore) -> None:
    """On misère 6×6 no search can force a win; level 4's search, steadier than level 3's,
    keeps its waiting moves longer: it loses no game and wins some (games stop at 1,000
    plies, as in the ladder)."""
    rules = rules_for("misere", 6)
    four = make_player("4", rules, empty_tables)
    assert isinstance(four, PerfectPlayer) and isinstance(four.fallback, NoisySearchPlayer)
    results = level_4_against_level_3(rules, empty_tables, 6, seed=300)
    assert "loss" not in results and "win" in results


# -- level 4 with a table -------------------------------------------------------------------


def _positions(
    tables: TableStore, rules: DodgemRules, value: Value, count: int, seed: int
) -> list[DodgemPosition]:
    table = tables.open(rules)
    rng = random.Random(seed)
    out: list[DodgemPosition] = []
    while len(out) < count:
        pos = random_position(rules, rng.randrange(0, 40), rng)
        if rules.outcome(pos) is None and table.probe(pos)[0] is value and pos not in out:
            out.append(pos)
    return out


SEEDS = {Value.WIN: 11, Value.LOSS: 12, Value.DRAW: 13}


@pytest.mark.parametrize("value", [Value.WIN, Value.LOSS, Value.DRAW])
def test_level_4_keeps_the_value(small_tables: TableStore, value: Value) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    player = make_player("4", rules, small_tables)
    rng = random.Random(5)
    for pos in _positions(small_tables, rules, value, 15, seed=SEEDS[value]):
        v, r = table.probe(pos)
        child = rules.play(pos, player.choose(rules, pos, [], rng))
        cv, cr = table.probe(child)
        assert cv.flipped() is v
        if v is not Value.DRAW:
            # Fastest win and slowest loss: the remoteness drops by exactly one ply.
            assert cr == r - 1


def test_level_4_never_walks_into_a_repetition_while_winning(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    player = make_player("4", rules, small_tables)
    rng = random.Random(2)
    checked = 0
    for pos in _positions(small_tables, rules, Value.WIN, 40, seed=3):
        winning = [
            m for m in rules.legal_moves(pos) if table.probe(rules.play(pos, m))[0] is Value.LOSS
        ]
        if len(winning) < 2:
            continue
        fastest = rules.play(pos, player.choose(rules, pos, [], rng))
        move = player.choose(rules, pos, [fastest, fastest], rng)
        child = rules.play(pos, move)
        assert child != fastest
        assert table.probe(child)[0] is Value.LOSS
        checked += 1
    assert checked > 0


def test_level_4_avoids_a_third_repetition_in_a_draw(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    table = small_tables.open(rules)
    player = make_player("4", rules, small_tables)
    rng = random.Random(4)
    checked = 0
    for pos in _positions(small_tables, rules, Value.DRAW, 30, seed=9):
        drawing = [
            rules.play(pos, m)
            for m in rules.legal_moves(pos)
            if table.probe(rules.play(pos, m))[0] is Value.DRAW
        ]
        if len(drawing) < 2:
            continue
        preferred = rules.play(pos, player.choose(rules, pos, [], rng))
        child = rules.play(pos, player.choose(rules, pos, [preferred, preferred], rng))
        assert child != preferred and child in drawing
        checked += 1
    assert checked > 0


def test_level_4_takes_a_repetition_draw_when_lost(small_tables: TableStore) -> None:
    rules = rules_for("classic", 4)
    player = make_player("4", rules, small_tables)
    rng = random.Random(6)
    for pos in _positions(small_tables, rules, Value.LOSS, 10, seed=12):
        escape = rules.play(pos, rules.legal_moves(pos)[-1])
        move = player.choose(rules, pos, [escape, escape], rng)
        assert rules.play(pos, move) == escape


def test_level_4_never_loses_and_wins_3x3_as_first(small_tables: TableStore) -> None:
    for size in (3, 4):
        rules = rules_for("classic", size)
        for other in ("1", "2", "3"):
            for i in range(2):
                a = play_game(
                    rules,
                    [make_player("4", rules, small_tables), make_player(other, rules)],
                    random.Random(i),
                )
                b = play_game(
                    rules,
                    [make_player(other, rules), make_player("4", rules, small_tables)],
                    random.Random(i),
                )
                assert score(a.result) != "loss"
                assert score(b.result) != "win"
                if size == 3:
                    assert score(a.result) == "win"


def test_level_4_uses_the_table_when_there_is_one(small_tables: TableStore) -> None:
    rules = rules_for("classic", 3)
    player = PerfectPlayer(SearchPlayer("unused", nodes=1, time_cap=0.001), small_tables)
    assert player.has_table(rules)
    # The fallback could not find a 19-ply win with one node; the table does.
    pos = rules.start()
    child = rules.play(pos, player.choose(rules, pos, [], random.Random(0)))
    table = small_tables.open(rules)
    assert table.probe(child) == (Value.LOSS, 18)
