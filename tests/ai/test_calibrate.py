"""The calibrator: the knob it turns, the interval that stops it, and a tiny board calibrated
end to end (Dodgem 3×3), resumed from its journal, written into a copy of the data."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from boardlab.ai.base import make_player
from boardlab.ai.calibrate import (
    HIGH,
    LOW,
    Calibration,
    Knob,
    Trial,
    _next,
    calibrate,
    default_path,
    knob_for,
    player_name,
    wilson,
    write_board,
)
from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer
from boardlab.ai.levels import LevelSettings, parse_table
from boardlab.core.registry import make_rules


def test_wilson_interval_narrows_with_games_and_holds_the_score() -> None:
    lo, hi = wilson(8, 10)
    lo2, hi2 = wilson(80, 100)
    assert lo < 0.8 < hi and lo2 < 0.8 < hi2 and hi2 - lo2 < hi - lo
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_each_level_gets_one_knob_in_the_right_direction() -> None:
    assert knob_for(LevelSettings(64, nodes=4000)) == Knob("nodes", True)
    assert knob_for(LevelSettings(2, noise=60.0, blunder=0.05)) == Knob("blunder", False)
    assert knob_for(LevelSettings(3, noise=25.0)) == Knob("noise", False)
    assert knob_for(LevelSettings(1)) == Knob("depth", True)


def test_the_knob_steps_then_bisects() -> None:
    knob = Knob("nodes", True)
    strong = Trial(LevelSettings(64, nodes=4000), points=19, games=20)
    assert _next(knob, [strong], too_strong=True).nodes == 2000
    weak = Trial(LevelSettings(64, nodes=1000), points=5, games=20)
    assert _next(knob, [strong, weak], too_strong=False).nodes == 2000  # sqrt(4000 * 1000)
    noise = Knob("noise", False)
    loud = Trial(LevelSettings(3, noise=40.0), points=10, games=20)
    assert _next(noise, [loud], too_strong=False).noise == 20.0
    assert LOW < HIGH


def test_a_level_named_by_its_settings_plays_them() -> None:
    rules = make_rules("dodgem", "classic", 5)
    name = player_name(3, LevelSettings(5, nodes=1234, time=1.0, contempt=7))
    player = make_player(name, rules)
    assert isinstance(player, SearchPlayer)
    assert (player.nodes, player.max_depth, player.contempt) == (1234, 5, 7)
    noisy = make_player(player_name(2, LevelSettings(3, noise=12.0)), rules)
    assert isinstance(noisy, NoisySearchPlayer) and noisy.noise == 12.0


def test_a_tiny_board_is_calibrated_end_to_end_and_resumes(tmp_path: Path) -> None:
    data = tmp_path / "levels.toml"
    shutil.copy(default_path("dodgem"), data)
    journal = tmp_path / "cal.jsonl"
    lines: list[str] = []

    def run() -> Calibration:
        return calibrate(
            "dodgem", "classic", 3, batch=2, budget=60, seed=3, journal=journal, levels=[2],
            say=lines.append,
        )  # fmt: skip

    first = run()
    assert lines and all(line.startswith("level 2 ") for line in lines)
    assert first.games_played <= 60 + 2 * 2  # the budget, the last batch at most over it
    assert len(first.ratings) == 4 and first.league.games == 2 and first.league.steps
    tried = first.trials[2]
    assert tried and tried[0].games > 0
    # level 2's settings are searched against level 1 as it plays (never against level 2's
    # own settings under level 1's name)
    below = player_name(1, first.levels[0])
    named_1 = set()
    for line in journal.read_text().splitlines():
        game = json.loads(line)
        named_1 |= {n for n in (game.get("first"), game.get("second")) if str(n).startswith("1:")}
    assert named_1 == {below}
    # run again: every game comes from the journal, and every decision is the same
    games_then = journal.read_text().count("\n")
    again = run()
    assert journal.read_text().count("\n") == games_then
    assert again.levels == first.levels and again.ratings == first.ratings
    # writing changes that board's row and nothing else
    before = parse_table("dodgem", tomllib.loads(data.read_text()))
    write_board("dodgem", first, "classic", 3, data)
    after = parse_table("dodgem", tomllib.loads(data.read_text()))
    changed = {k for k in before.boards if before.boards[k] != after.boards[k]}
    assert changed <= {("classic", 3)} and set(after.boards) == set(before.boards)
    row = after.boards["classic", 3]
    assert list(row.levels) == first.levels and row.ratings == tuple(first.ratings)
    assert row.levels[0] == before.boards["classic", 3].levels[0]  # level 1 is not searched
    assert row.levels[2:] == before.boards["classic", 3].levels[2:]  # nor levels not asked for
