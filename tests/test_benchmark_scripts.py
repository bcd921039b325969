"""The scripts in benchmarks/ stay runnable as the code they measure moves: each imports, and
the one whose figures the docs publish from a complete table (strength.py) runs on 3×3."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(p for p in FOLDER.glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_benchmark_script_imports(script: Path) -> None:
    sys.path.insert(0, str(FOLDER))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{script.stem}", script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)  # a moved or renamed import fails here
    finally:
        sys.path.remove(str(FOLDER))
        sys.modules.pop(f"bench_{script.stem}", None)
    assert callable(getattr(module, "main", None)), f"{script.name} has no main()"


def test_strength_judges_the_searching_levels_against_a_table(tmp_path: Path) -> None:
    args = ["--size", "3", "--tables", str(tmp_path), "--positions", "12", "--games", "2"]
    run = subprocess.run(
        [sys.executable, str(FOLDER / "strength.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0] + line.split()[1]: line for line in run.stdout.splitlines()[-2:]}
    assert set(rows) == {"level3", "level4"}
    for line in rows.values():
        won, drawn, lost = (int(x) for x in line.split()[-9:-6])
        assert won + drawn + lost == 12  # every sampled position judged once per player
