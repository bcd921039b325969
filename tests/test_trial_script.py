"""benchmarks/trial.py: a league with some levels' settings changed for that run only."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from boardlab.ai.dodgem import levels as dodgem_levels
from boardlab.ai.dotdash import players as dotdash_players
from boardlab.core import make_rules

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "trial.py"


def load() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        spec = importlib.util.spec_from_file_location("trial_script", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPT.parent))


def test_a_dotdash_change_reaches_the_players_of_that_level_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trial = load()
    monkeypatch.setattr(dotdash_players, "level_settings", dotdash_players.level_settings)
    rules = make_rules("dotdash", "frozen", 12)
    before = [dotdash_players.player_for_level(n, rules) for n in (3, 4)]
    said = trial.change_dotdash(["4:qdepth=1,noise=7"])
    assert said == "level 4: qdepth=1, noise=7"
    three, four = (dotdash_players.player_for_level(n, rules) for n in (3, 4))
    assert isinstance(four, dotdash_players.DotDashSearchPlayer)
    assert (four.qdepth, four.noise) == (1, 7)
    assert isinstance(three, dotdash_players.DotDashSearchPlayer)
    assert isinstance(before[0], dotdash_players.DotDashSearchPlayer)
    assert (three.qdepth, three.noise) == (before[0].qdepth, before[0].noise)


def test_a_dodgem_change_reaches_the_tuning(monkeypatch: pytest.MonkeyPatch) -> None:
    trial = load()
    monkeypatch.setattr(dodgem_levels, "tuning", dodgem_levels.tuning)
    usual = dodgem_levels.tuning("blocked-loses", 8)
    trial.change_dodgem(["l3_nodes=1234"])
    changed = dodgem_levels.tuning("blocked-loses", 8)
    assert changed.l3_nodes == 1234 and changed.l2_depth == usual.l2_depth


@pytest.mark.parametrize("change", ["5:depth=2", "4:depth", "4:speed=2", "4:depth=deep", "depth=2"])
def test_a_bad_change_is_refused_in_one_line(change: str) -> None:
    args = ["--set", change, "--", "--game", "dotdash", "--size", "7", "--levels", "1,2"]
    run = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120
    )
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0 and "trial:" in run.stderr


@pytest.mark.parametrize("game", [["--game", "dotdash"], ["--game=dotdash"]])
def test_a_trial_league_runs_with_the_change(game: list[str]) -> None:
    args = ["--set", "2:depth=2", "--", *game, "--size", "7"]
    args += ["--levels", "1,2", "--games", "1", "--seed", "1", "--setups", "--json"]
    run = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert "trial (level 2: depth=2)" in run.stderr
    results = json.loads(run.stdout)
    assert results
