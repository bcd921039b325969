"""benchmarks/trial.py: a league with some levels' settings changed for that run only."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from boardlab.ai.base import make_player
from boardlab.ai.dodgem.players import SearchPlayer
from boardlab.ai.dotdash.players import DotDashSearchPlayer
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


def test_a_dotdash_change_reaches_the_players_of_that_level_only() -> None:
    trial = load()
    rules = make_rules("dotdash", "frozen", 12)
    before = make_player("3", rules)
    changes = trial.parse_sets(["4:qdepth=1,noise=7"])
    league = trial.rewrite_levels(["--game", "dotdash", "--levels", "3,4"], changes)
    assert league == ["--game", "dotdash", "--levels", "3,4:noise=7:qdepth=1"]
    three, four = (make_player(n, rules) for n in league[-1].split(","))
    assert isinstance(four, DotDashSearchPlayer) and (four.qdepth, four.noise) == (1, 7)
    assert isinstance(three, DotDashSearchPlayer) and isinstance(before, DotDashSearchPlayer)
    assert (three.qdepth, three.noise) == (before.qdepth, before.noise)


def test_a_dodgem_change_reaches_the_level() -> None:
    trial = load()
    rules = make_rules("dodgem", "blocked-loses", 8)
    league = trial.rewrite_levels(["--levels=2,3"], trial.parse_sets(["3:nodes=1234"]))
    assert league == ["--levels=2,3:nodes=1234"]
    usual, changed = make_player("3", rules), make_player("3:nodes=1234", rules)
    assert isinstance(changed, SearchPlayer) and isinstance(usual, SearchPlayer)
    assert changed.nodes == 1234 and changed.max_depth == usual.max_depth != 1234


@pytest.mark.parametrize(
    "change", ["5:depth=2", "4:depth", "4:speed=2", "4:depth=deep", "depth=2", "3:nodes"]
)
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
