"""The `boardlab` command's entry point: `main`'s status, and the heap frozen for the exit."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from boardlab.cli.main import entry


@pytest.mark.parametrize(("argv", "status"), [([], 0), (["solve", "--size", "x"], 2)])
def test_entry_returns_the_status_of_main_and_freezes_the_heap(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], status: int
) -> None:
    monkeypatch.setattr(sys, "argv", ["boardlab", *argv])
    gc.unfreeze()
    try:
        assert entry() == status
        assert gc.get_freeze_count() > 0  # the interpreter's exit does not walk them
    finally:
        gc.unfreeze()


def test_python_m_boardlab_runs_the_command_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "boardlab", "solve", "--size", "x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "--size" in out.stderr
