"""Every number a command takes is checked (finite, in range, within the machine), and a
FIFO, device or folder named as a file is refused by its type before anything reads it: one
line on stderr, exit status 2, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardlab.cli.main import main

Capture = pytest.CaptureFixture[str]


def _one_line_error(capsys: Capture, *argv: str) -> str:
    status = main(list(argv))
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["solve", "--size", "3", "--memory", "nan"], "not a finite number"),
        (["solve", "--size", "3", "--memory", "inf"], "not a finite number"),
        (["solve", "--size", "3", "--memory", "1e-9"], "at least 0.0625"),
        (["solve", "--size", "3", "--memory", "1e6"], "more than this machine has"),
        (["solve", "--size", "5", "--estimate", "--cores", "-1"], "--cores"),
        (["solve", "--size", "3", "--force", "--scheduler", "garbage"], "tcp://HOST:PORT"),
        (["verify", "--size", "3", "--fraction", "-0.5"], "above 0 and at most 1"),
        (["verify", "--size", "3", "--fraction", "1.5"], "above 0 and at most 1"),
        (["verify", "--size", "3", "--fraction", "nan"], "not a finite number"),
        (["league", "--size", "3", "--levels", "1,2", "--jobs", "500"], "cores of this machine"),
        (["league", "--size", "3", "--levels", "1,2", "--time", "inf"], "--time"),
        (["serve", "--host", "999.1.1.1"], "not an IPv4 address"),
        (["serve", "--retain-days", "nan"], "--retain-days"),
        (["serve", "--invite-expiry", "0"], "--invite-expiry"),
    ],
)
def test_numbers_out_of_bounds(tmp_path: Path, capsys: Capture, argv: list[str], says: str) -> None:
    tables = [] if argv[0] == "serve" else ["--tables", str(tmp_path)]
    assert says in _one_line_error(capsys, *argv, *tables)
    assert not any(tmp_path.iterdir())  # nothing was started or written


def _special(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
        return path
    if kind == "folder":
        return tmp_path
    return Path("/dev/zero")


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_play_load_refuses_special_files(tmp_path: Path, capsys: Capture, kind: str) -> None:
    path = _special(tmp_path, kind)
    line = _one_line_error(capsys, "play", "--load", str(path))
    assert "not a regular file" in line


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_league_journal_refuses_special_files(tmp_path: Path, capsys: Capture, kind: str) -> None:
    path = Path("/dev/full") if kind == "device" else _special(tmp_path, kind)
    line = _one_line_error(
        capsys, "league", "--size", "3", "--levels", "1,2", "--games", "1", "--journal", str(path)
    )
    assert "not a regular file" in line and "journal" in line


def test_a_malformed_scheduler_is_refused_before_the_table_is_touched(
    tmp_path: Path, capsys: Capture
) -> None:
    """With the table built already (nothing to do) or `--force` (which would delete it
    first), a malformed `--scheduler` is still one line, and the table is left as it was."""
    assert main(["solve", "--size", "3", "--tables", str(tmp_path)]) == 0
    capsys.readouterr()
    before = sorted((p.relative_to(tmp_path), p.stat().st_size) for p in tmp_path.rglob("*"))
    assert before
    for force in ([], ["--force"]):
        argv = ["solve", "--size", "3", "--tables", str(tmp_path), "--scheduler", "garbage"]
        assert "tcp://HOST:PORT" in _one_line_error(capsys, *argv, *force)
        after = sorted((p.relative_to(tmp_path), p.stat().st_size) for p in tmp_path.rglob("*"))
        assert after == before
