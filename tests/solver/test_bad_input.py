"""Bad input to the table commands: one line on stderr, exit status 2, nothing lost of what
was solved."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import build_table, table_path

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["solve", "--size", "7"], "7×7"),
        (["solve", "--size", "2"], "size"),
        (["solve", "--variant", "nonsense"], "nonsense"),
        (["solve", "--game", "dotdash", "--size", "9"], "no tables for Dot Dash"),
        (["solve", "--size", "4", "--memory", "0"], "--memory"),
        (["solve", "--size", "4", "--workers", "0"], "--workers"),
    ],
)
def test_unsolvable_rules_and_bad_options(
    tmp_path: Path, capsys: Capture, argv: list[str], says: str
) -> None:
    status, _, err = run(capsys, *argv, "--tables", str(tmp_path))
    assert status == 2 and says in one_line(err)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_tables_folder(tmp_path: Path, capsys: Capture) -> None:
    missing = tmp_path / "nowhere"
    status, _, err = run(capsys, "analyze", "--size", "5", "--tables", str(missing))
    assert status == 2 and "boardlab solve --game dodgem --size 5" in one_line(err)
    assert not missing.exists()


def test_a_tables_folder_that_cannot_be_written(tmp_path: Path, capsys: Capture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    status, _, err = run(capsys, "solve", "--size", "3", "--tables", str(blocker))
    assert status == 2 and str(blocker) in one_line(err)
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_tables_folder(tmp_path: Path, capsys: Capture) -> None:
    build_table(rules_for("classic", 3), tmp_path)
    folder = table_path(rules_for("classic", 3), tmp_path)
    folder.chmod(0)
    try:
        status, _, err = run(capsys, "analyze", "--size", "3", "--tables", str(tmp_path))
    finally:
        folder.chmod(0o755)
    assert status == 2 and "boardlab solve" in one_line(err)


@pytest.mark.parametrize("workers", ["1", "2"])  # in this process, or a local cluster's threads
def test_a_full_disk_stops_cleanly_and_loses_nothing(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    reference = tmp_path / "reference"
    build_table(rules_for("classic", 4), reference)
    want = table_path(rules_for("classic", 4), reference)
    real_fsync = os.fsync
    written = []

    def fsync(fd: int) -> None:
        if len(written) >= 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(fd)
        real_fsync(fd)

    monkeypatch.setattr("boardlab.solver.tierfile.os.fsync", fsync)
    work = tmp_path / "work"
    status, _, err = run(
        capsys, "solve", "--size", "4", "--workers", workers, "--tables", str(work)
    )
    lines = err.strip().splitlines()  # progress lines, then the error in one line
    assert status == 2 and lines[-1].startswith("error:") and "No space left" in lines[-1]
    assert sum(x.startswith("error") for x in lines) == 1
    folder = table_path(rules_for("classic", 4), work)
    packs = sorted(p.name for p in (folder / "packs").iterdir())
    # packs in flight on other threads may have passed the check at the same moment
    assert 5 <= len(packs) <= 4 + int(workers) and not any(p.endswith(".tmp") for p in packs)
    for name in packs:  # what was solved is kept, byte for byte
        assert (folder / "packs" / name).read_bytes() == (want / "packs" / name).read_bytes()
    monkeypatch.setattr("boardlab.solver.tierfile.os.fsync", real_fsync)
    status, out, _ = run(capsys, "solve", "--size", "4", "--tables", str(work))
    assert status == 0 and "wrote" in out
    for p in sorted((want / "packs").iterdir()):
        assert (folder / "packs" / p.name).read_bytes() == p.read_bytes()
