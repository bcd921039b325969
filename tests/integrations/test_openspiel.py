"""The OpenSpiel door: OpenSpiel's own conformance checks over every game and variant, stable
action ids in BoardLab notation, repetition as BoardLab has it, clone/serialise round trips,
and bots crossing the border both ways."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from boardlab.core.errors import UnknownGameError  # noqa: E402
from boardlab.core.outcome import Reason  # noqa: E402
from boardlab.core.registry import games, make_rules  # noqa: E402
from boardlab.core.session import GameSession  # noqa: E402
from boardlab.integrations import openspiel as bl_openspiel  # noqa: E402
from boardlab.integrations.codec import codec_for  # noqa: E402
from tests.integrations.helpers import other_rulesets, played_rulesets  # noqa: E402


def _load(game: str, variant: str, size: int, **extra: Any) -> Any:
    return pyspiel.load_game(
        bl_openspiel.short_name(game), {"variant": variant, "size": size, **extra}
    )


RULESETS = played_rulesets()


def test_every_game_with_action_ids_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for name in games():
        assert bl_openspiel.short_name(name) in names


@pytest.mark.parametrize(("game", "variant", "size"), RULESETS)
def test_openspiel_random_simulation(game: str, variant: str, size: int) -> None:
    """OpenSpiel's C++ conformance test (legal actions, clones, observations, returns and a
    serialise/deserialise round trip at every step) over random games, at the sizes played."""
    pyspiel.random_sim_test(_load(game, variant, size), num_sims=5, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "variant", "size"), other_rulesets())
def test_openspiel_random_simulation_every_size(game: str, variant: str, size: int) -> None:
    """The same conformance test at every other declared board size, up to the largest."""
    pyspiel.random_sim_test(_load(game, variant, size), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "variant", "size"), RULESETS)
def test_actions_are_boardlab_moves_and_states_round_trip(
    game: str, variant: str, size: int
) -> None:
    ospiel = _load(game, variant, size)
    rules = make_rules(game, variant, size)
    codec = codec_for(rules)
    rng = random.Random(f"{game}/{variant}/{size}")
    for _ in range(2):
        state = ospiel.new_initial_state()
        position = rules.start()
        while not state.is_terminal():
            assert str(state) == rules.format_position(position)
            legal = state.legal_actions()
            assert legal == sorted(legal)
            assert all(0 <= a < ospiel.num_distinct_actions() for a in legal)
            names = [state.action_to_string(a) for a in legal]
            boardlab_names = [rules.format_move(m) for m in rules.legal_moves(position)]
            assert sorted(names) == sorted(boardlab_names)
            for a in legal:
                assert codec.encode(codec.decode(a, position.to_move), position.to_move) == a
            # Parsing a name searches the legal actions, so a sample of them is parsed back.
            for a in rng.sample(legal, min(len(legal), 8)):
                assert state.string_to_action(state.action_to_string(a)) == a

            clone = state.clone()
            thawed = pickle.loads(pickle.dumps(state))
            _, restored = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(ospiel, state)
            )
            for other in (clone, thawed, restored):
                assert str(other) == str(state)
                assert other.legal_actions() == legal
                assert other.observation_tensor() == state.observation_tensor()
                assert other.track.session.snapshot() == state.track.session.snapshot()

            action = legal[rng.randrange(len(legal))]
            move = rules.parse_move(state.action_to_string(action))
            state.apply_action(action)
            position = rules.play(position, move)
            # The clone did not move with the state, and BoardLab's undo brings the state's
            # session back to the clone's.
            assert clone.track.plies == state.track.plies - 1
            session = state.track.session.copy()
            session.undo()
            assert session.positions == clone.track.session.positions
            assert session.occurrences() == clone.track.session.occurrences()
        assert sum(state.returns()) == 0


def test_parameters_pick_the_boardlab_ruleset() -> None:
    ospiel = pyspiel.load_game("boardlab_dodgem(size=5,variant=misere)")
    assert ospiel.rules == make_rules("dodgem", "misere", 5)
    assert ospiel.num_distinct_actions() == 4 * 25 + 1
    assert ospiel.observation_tensor_shape() == [6, 5, 5]
    dotdash = pyspiel.load_game("boardlab_dotdash(size=9,variant=capture-unlimited)")
    assert dotdash.rules == make_rules("dotdash", "capture-unlimited", 9)
    assert dotdash.observation_tensor_shape() == [8, 9, 9]
    assert dotdash.max_game_length() == 300  # the capture variant's ply limit
    with pytest.raises(UnknownGameError, match="unknown dodgem variant 'nonsense'"):
        pyspiel.load_game("boardlab_dodgem(variant=nonsense)")


def test_dodgem_action_ids_are_documented_values() -> None:
    state = pyspiel.load_game("boardlab_dodgem(size=3)").new_initial_state()
    # Squares a1=0 ... c3=8; direction 0 east, 1 north, 2 west, 3 south.
    assert state.action_to_string(4 * 3 + 0) == "a2-b2"  # a2 is square 3
    assert state.action_to_string(4 * 3 + 3) == "a2-a1"
    assert state.action_to_string(4 * 36 // 4) == "pass"  # 4·n² is the pass
    state.apply_action(4 * 3 + 0)
    assert state.action_to_string(4 * 7 + 1) == "b3-off"  # red leaves north from b3
    piecepack = pyspiel.load_game("boardlab_dodgem(size=6,variant=piecepack)").new_initial_state()
    assert piecepack.action_to_string(4 * 0 + 1) == "a1-a2"


def test_dotdash_action_ids_are_documented_values() -> None:
    state = pyspiel.load_game("boardlab_dotdash(size=13)").new_initial_state()
    n = 13
    g7 = 6 * n + 6
    slide = 2 * ((8 * g7 + 4) * (n - 3) + (3 - 3))  # G7 three points west
    assert state.action_to_string(slide) == "G7-D7"
    assert slide in state.legal_actions()
    capture = pyspiel.load_game("boardlab_dotdash(size=13,variant=capture)").new_initial_state()
    assert capture.action_to_string(slide + 1) == "G7xD7"
    assert capture.action_to_string(2 * ((8 * g7 + 2) * (n - 3) + 2)) == "G7-G12"  # 5 north


def test_threefold_repetition_ends_the_game_as_in_boardlab() -> None:
    state = pyspiel.load_game("boardlab_dodgem(size=4)").new_initial_state()
    # After a2-a1 d1-d2 the cars shuttle; that position comes back after every fourth ply.
    there_and_back = ["a1-a2", "d2-c2", "a2-a1", "c2-d2"]
    for text in ["a2-a1", "d1-d2", *there_and_back * 2]:
        assert not state.is_terminal()
        state.apply_action(state.string_to_action(text))
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.track.session.result is not None
    assert state.track.session.result.reason is Reason.REPETITION
    assert len(state.history()) == 10


def test_ply_limit_is_a_draw() -> None:
    state = pyspiel.load_game("boardlab_dodgem(size=4,max_plies=3)").new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_observation_planes() -> None:
    ospiel = pyspiel.load_game("boardlab_dodgem(size=3)")
    state = ospiel.new_initial_state()
    obs = np.asarray(state.observation_tensor()).reshape(ospiel.observation_tensor_shape())
    # Blue on a2 and a3, red on b1 and c1; planes are [colour, rank, file].
    assert obs[0].tolist() == [[0, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert obs[1].tolist() == [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    assert obs[2].min() == 1 and obs[3].max() == 0  # blue to move
    assert np.allclose(obs[4], 1 / 3)  # the start position has occurred once of three
    state.apply_action(state.string_to_action("a2-b2"))
    obs = np.asarray(state.observation_tensor()).reshape(ospiel.observation_tensor_shape())
    assert obs[0, 1].tolist() == [0, 1, 0]
    assert obs[3].min() == 1
    assert "seen 1×" in state.observation_string(0)


def test_boardlab_player_as_openspiel_bot_beats_random() -> None:
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    ospiel = pyspiel.load_game("boardlab_dodgem(size=3)")
    rules = ospiel.rules
    wins = 0
    for seed in range(4):
        bots = [
            bl_openspiel.boardlab_bot("3", rules, seed),
            UniformRandomBot(1, np.random.RandomState(seed)),
        ]
        returns = evaluate_bots(ospiel.new_initial_state(), bots, np.random.RandomState(seed))
        wins += returns[0] == 1.0
    assert wins == 4  # 3×3 is a first-player win that level 3 converts


def test_openspiel_mcts_plays_legal_moves_reproducibly() -> None:
    rules = make_rules("dodgem", "classic", 4)
    player = bl_openspiel.openspiel_player("openspiel:mcts:60")
    history: list[Any] = []
    position = rules.start()
    for _ in range(4):
        move = player.choose(rules, position, history, random.Random(7))
        again = player.choose(rules, position, history, random.Random(7))
        assert move == again
        assert move in rules.legal_moves(position)
        history.append(position)
        position = rules.play(position, move)


def test_openspiel_mcts_takes_a_league_seat() -> None:
    from boardlab.ai.league import run_league

    results = run_league("dodgem", None, 3, ["random", "openspiel:mcts:200"], games=2, seed=1)
    by_pair = {(r.first, r.second): r for r in results}
    mcts_first = by_pair[("openspiel:mcts:200", "random")]
    assert mcts_first.win + mcts_first.loss + mcts_first.draw == 2
    assert mcts_first.win == 2


@pytest.mark.parametrize(
    "spec", ["openspiel:mcts", "openspiel:alphazero:5", "openspiel:mcts:x", "openspiel:mcts:0"]
)
def test_bad_openspiel_player_names_are_refused(spec: str) -> None:
    from boardlab.ai.base import make_player
    from boardlab.core.errors import UsageError

    with pytest.raises(UsageError):
        make_player(spec, make_rules("dodgem", "classic", 4))


def test_league_command_seats_an_openspiel_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from boardlab.cli.main import main

    status = main(
        [
            "league",
            "--size",
            "3",
            "--levels",
            "random",
            "--opponent",
            "openspiel:mcts:50",
            "--games",
            "1",
            "--json",
        ]
    )
    assert status == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert {(r["first"], r["second"]) for r in results} == {
        ("random", "openspiel:mcts:50"),
        ("openspiel:mcts:50", "random"),
    }


def test_state_from_history_keeps_repetition_counts_and_actions() -> None:
    ospiel = pyspiel.load_game("boardlab_dodgem(size=4)")
    rules = ospiel.rules
    session = GameSession(rules)
    for text in ["a2-a1", "d1-d2", "a1-a2", "d2-c2", "a2-a1", "c2-d2"]:
        session.play(text)
    positions = session.positions
    state = bl_openspiel.state_from_history(ospiel, positions[-1], positions[:-1])
    assert state.track.session.occurrences() == 2  # the position after d1-d2, seen twice
    assert [state.action_to_string(a) for a in state.history()] == [
        rules.format_move(m) for m in session.moves
    ]
    state.apply_action(state.string_to_action("a1-a2"))
    state.apply_action(state.string_to_action("d2-c2"))
    assert not state.is_terminal()


def test_state_from_a_setup_position() -> None:
    ospiel = pyspiel.load_game("boardlab_dotdash(size=9)")
    rules = ospiel.rules
    setup = rules.parse_position("setup R:C3 B:G7,G3 r")
    state = bl_openspiel.state_from_history(ospiel, setup)
    assert str(state) == rules.format_position(setup)
    assert state.history() == []
    names = {state.action_to_string(a) for a in state.legal_actions()}
    assert names == {rules.format_move(m) for m in rules.legal_moves(setup)}


def test_league_command_refuses_a_bad_opponent_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from boardlab.cli.main import main

    status = main(["league", "--size", "3", "--levels", "1", "--opponent", "openspiel:mcts:abc"])
    assert status == 2
    err = capsys.readouterr().err
    assert "'abc' is not a number of simulations" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
