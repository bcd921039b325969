"""BoardLab's games as PettingZoo AEC environments (install with
``pip install boardlab[pettingzoo]``).

``env(game=..., variant=..., size=...)`` gives the environment wrapped as PettingZoo's classic
games are (an illegal move loses with reward −1, actions are checked, calls must come in
order); ``raw_env`` gives it bare. Agents are ``player_0`` (moves first) and ``player_1``.

- Actions: the ids of `boardlab.integrations.codec` (``Discrete(num_actions)``).
- Observations: ``{"observation": planes, "action_mask": mask}``. ``planes`` is the float32
  array of `boardlab.integrations.track`, channels last (``size × size × planes``) and seen
  from the observing agent: channel 0 holds its own pieces, 1 the opponent's, 2 is all ones
  when it is the observer's turn, 3 when it is the opponent's; for Dot Dash channel 6 is the
  observer's reserve and 7 the opponent's. ``action_mask`` marks the legal ids (int8) for the
  agent to move and is all zeros for the other.
- Rewards: +1 to the winner and −1 to the loser when the game ends; a draw gives 0.
  Threefold repetition ends a game as a termination (as in BoardLab); reaching ``max_plies``
  ends it as a truncation.
- Rendering: ``ansi`` (the terminal board with colours, as a string), ``rgb_array`` (the same
  board drawn cell by cell into an RGB image) and ``human`` (printed to the terminal).
- Seeds: ``reset(seed=...)`` seeds ``env.np_random``; the games themselves have no chance.

>>> from boardlab.integrations.pettingzoo import env
>>> e = env(game="dodgem", variant="classic", size=3)
>>> e.reset(seed=0)
>>> e.agent_selection
'player_0'
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((3, 3, 6), 3)
>>> e.step(12)  # a2-b2
>>> e.unwrapped.position_text()
'B2/1B1/1RR r'
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.text import Text

from boardlab.core.outcome import Reason
from boardlab.core.registry import get_game
from boardlab.integrations.track import DEFAULT_MAX_PLIES, Track, num_planes

AGENTS = ("player_0", "player_1")
CELL = (16, 8)  # pixels per character cell of the terminal board: height, width
_BACKGROUND = (24, 24, 24)
_FOREGROUND = (220, 220, 220)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers (see the module docstring)."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """One BoardLab game as a two-agent AEC environment."""

    # PettingZoo reads the class's metadata; each instance names its game in its own copy.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "boardlab_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str = "dodgem",
        variant: str | None = None,
        size: int | None = None,
        max_plies: int = DEFAULT_MAX_PLIES,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, game, variant, size, max_plies, render_mode)
        super().__init__()
        info = get_game(game)
        rules = info.rules(variant, size)
        self.game, self.variant, self.size = info.name, rules.variant, rules.size
        self.max_plies = max_plies
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, rgb_array or human, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{info.name}_v0"}
        self.track = Track(self.game, self.variant, self.size, max_plies)
        n, planes, actions = self.size, num_planes(rules), self.track.codec.num_actions
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(actions) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (n, n, planes), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for a in AGENTS
        }
        self._reset_bookkeeping()

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        """Planes and action mask (see the module docstring)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """Discrete action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Back to the start position; `seed` seeds `np_random`."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.track = Track(self.game, self.variant, self.size, self.max_plies)
        self.agents = list(AGENTS)
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.track.to_move]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The observation of `agent` (see the module docstring)."""
        me = AGENTS.index(agent)
        planes = self.track.planes()
        if me == 1:
            order = [1, 0, 3, 2, 4, 5] + ([7, 6] if planes.shape[0] == 8 else [])
            planes = planes[order]
        mask = np.zeros(self.track.codec.num_actions, np.int8)
        if agent == self.agent_selection and not self.track.is_over:
            mask[self.track.legal_actions()] = 1
        return {"observation": np.ascontiguousarray(planes.transpose(1, 2, 0)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id `action` for the agent to move (None once its game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._clear_rewards()
        self.track.apply(int(action))
        result = self.track.result
        if result is not None:
            if result.winner is not None:
                self.rewards[AGENTS[result.winner]] = 1.0
                self.rewards[AGENTS[1 - result.winner]] = -1.0
            ended = self.truncations if result.reason is Reason.MOVE_LIMIT else self.terminations
            for a in self.agents:
                ended[a] = True
                self.infos[a] = {"result": result.describe(self.track.rules.player_names)}
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.track.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The board in the chosen render mode (see the module docstring)."""
        if self.render_mode is None:
            return None
        text = self._board_text()
        if self.render_mode == "rgb_array":
            return rasterise(text)
        from rich.console import Console

        buffer = io.StringIO()
        Console(file=buffer, force_terminal=True, color_system="truecolor", width=200).print(
            text, end=""
        )
        if self.render_mode == "human":
            print(buffer.getvalue())
            return None
        return buffer.getvalue()

    def close(self) -> None:
        """Nothing to release."""

    # -- BoardLab extras -----------------------------------------------------------------------
    def position_text(self) -> str:
        """The current position in BoardLab notation."""
        return self.track.text()

    def _board_text(self) -> Any:
        render = get_game(self.game).render
        if render is None:
            return Text(self.track.text())
        moves = self.track.session.moves
        return render(self.track.rules, self.track.position, moves[-1] if moves else None)


def rasterise(text: Any) -> npt.NDArray[np.uint8]:
    """A rich Text drawn as an RGB image: each character cell filled with its background
    colour, a non-blank character marked by a block of its foreground colour."""
    from rich.console import Console

    console = Console(width=200, color_system="truecolor", file=io.StringIO())
    lines = console.render_lines(text, pad=False, new_lines=False)
    height, width = CELL
    cols = max((sum(len(s.text) for s in line) for line in lines), default=1)
    image = np.empty((len(lines) * height, max(cols, 1) * width, 3), np.uint8)
    image[...] = _BACKGROUND
    for row, line in enumerate(lines):
        col = 0
        for segment in line:
            style = segment.style
            bg: tuple[int, ...] = _BACKGROUND
            fg: tuple[int, ...] = _FOREGROUND
            if style is not None and style.bgcolor is not None and not style.bgcolor.is_default:
                bg = tuple(style.bgcolor.get_truecolor(foreground=False))
            if style is not None and style.color is not None and not style.color.is_default:
                fg = tuple(style.color.get_truecolor())
            for ch in segment.text:
                y, x = row * height, col * width
                image[y : y + height, x : x + width] = bg
                if not ch.isspace():
                    image[y + 4 : y + height - 4, x + 2 : x + width - 2] = fg
                col += 1
    return image
