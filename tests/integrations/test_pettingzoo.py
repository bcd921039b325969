"""The PettingZoo door: PettingZoo's own API, seed and render tests for every game and
variant, and rewards, masks and observations that agree with BoardLab's rules."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

from boardlab.core.registry import make_rules
from boardlab.core.session import GameSession
from boardlab.integrations.codec import codec_for
from boardlab.integrations.pettingzoo import env, raw_env
from tests.integrations.helpers import other_rulesets, played_rulesets

RULESETS = played_rulesets()

# PettingZoo's checker prefers bare Box observations; action-masked games (its own chess, go,
# tic-tac-toe) use a Dict of observation and mask as we do, and get the same notes.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize(("game", "variant", "size"), RULESETS)
def test_pettingzoo_api_and_seed_tests(game: str, variant: str, size: int) -> None:
    api_test(env(game=game, variant=variant, size=size), num_cycles=60)
    seed_test(functools.partial(env, game=game, variant=variant, size=size), num_cycles=60)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "variant", "size"), other_rulesets())
def test_pettingzoo_api_and_seed_tests_every_size(game: str, variant: str, size: int) -> None:
    api_test(env(game=game, variant=variant, size=size), num_cycles=20)
    seed_test(functools.partial(env, game=game, variant=variant, size=size), num_cycles=20)


@pytest.mark.parametrize(("game", "variant", "size"), RULESETS)
def test_pettingzoo_render_test(
    game: str, variant: str, size: int, capsys: pytest.CaptureFixture[str]
) -> None:
    def ansi_has_board(text: str) -> bool:
        # Coloured, with one line per rank of the board at least.
        return "\x1b[" in text and len(text.splitlines()) >= size

    def image_has_board(image: np.ndarray) -> bool:
        # Taller than the board's ranks and painted in more than two colours.
        return image.shape[0] >= size * 16 and len(np.unique(image.reshape(-1, 3), axis=0)) > 2

    render_test(
        functools.partial(env, game=game, variant=variant, size=size),
        custom_tests={"ansi": ansi_has_board, "rgb_array": image_has_board},
    )
    assert capsys.readouterr().out  # human mode printed the board
    # The drawing follows the game: a move changes it.
    e = raw_env(game=game, variant=variant, size=size, render_mode="ansi")
    e.reset()
    before = e.render()
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e.render() != before


def test_rgb_array_paints_the_pieces_in_their_colours() -> None:
    e = raw_env(game="dodgem", size=3, render_mode="rgb_array")
    e.reset()
    image = e.render()
    assert image.dtype == np.uint8 and image.shape[2] == 3
    colours = {tuple(int(c) for c in px) for px in image.reshape(-1, 3)}
    assert (0, 0, 128) in colours  # rich's "blue" background of blue's cars
    assert (215, 0, 0) in colours  # "red3", red's cars


@pytest.mark.parametrize(
    ("game", "variant", "size"), [("dodgem", "classic", 4), ("dotdash", "capture", 9)]
)
def test_games_agree_with_boardlab(game: str, variant: str, size: int) -> None:
    rules = make_rules(game, variant, size)
    codec = codec_for(rules)
    rng = random.Random(3)
    for _ in range(3):
        e = env(game=game, variant=variant, size=size)
        e.reset(seed=1)
        session: GameSession[object, object] = GameSession(rules)
        rewards = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                rewards[agent] = reward
                e.step(None)
                continue
            me = e.possible_agents.index(agent)
            assert session.to_move == me
            legal = sorted(codec.encode(m, me) for m in session.legal_moves())
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            planes = obs["observation"]
            assert planes[..., 2].min() == 1.0  # the observer is to move
            mine = codec.planes(session.position)[me]
            assert np.array_equal(planes[..., 0], mine)  # channel 0 holds its own pieces
            action = legal[rng.randrange(len(legal))]
            session.play(codec.decode(action, me))
            e.step(action)
        result = session.result
        assert result is not None
        if result.winner is None:
            assert rewards == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert rewards[f"player_{result.winner}"] == 1.0
            assert rewards[f"player_{1 - result.winner}"] == -1.0


def test_ply_limit_truncates() -> None:
    e = env(game="dodgem", size=4, max_plies=3)
    e.reset()
    for _ in range(3):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    _, reward, terminated, truncated, info = e.last()
    assert truncated and not terminated and reward == 0
    assert info["result"] == "Draw — move limit reached"


def test_illegal_move_loses() -> None:
    e = env(game="dodgem", size=3)
    e.reset()
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.rewards["player_0"] == -1
    assert all(e.terminations.values())


def test_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game="dodgem", render_mode="video")
