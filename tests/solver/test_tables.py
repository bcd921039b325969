"""Table files: round trip, damage detection, ruleset keys, resumable builds, the API."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardlab.core.errors import CorruptTableError, MissingTableError
from boardlab.core.outcome import Value
from boardlab.games.dodgem.rules import DodgemRules, rules_for
from boardlab.solver import analyse, default_tables_dir, ensure_table, open_table, solvable
from boardlab.solver.api import build_table, decode, table_path
from boardlab.solver.build import solve_in_memory, solve_to_workdir
from boardlab.solver.index import scheme_for


class Stop(Exception):
    pass


@pytest.fixture
def built(small_tables_folder: Path) -> Path:
    """The session's small tables: classic and misère 3×3, classic 4×4."""
    return small_tables_folder


def test_round_trip_every_entry(built: Path) -> None:
    for variant, size in (("classic", 3), ("misere", 3), ("classic", 4)):
        rules = rules_for(variant, size)
        want = solve_in_memory(rules)
        tb = open_table(rules, built)
        assert np.array_equal(tb.codes(), want)
        sch = scheme_for(rules)
        for i in np.flatnonzero(want)[::97]:
            pos = sch.position(int(i))
            assert pos is not None
            assert tb.probe(pos) == decode(int(want[i]))
        assert tb.header["ruleset"] == rules.ruleset_id()
        assert tb.header["positions"] == int(np.count_nonzero(want))
        tb.file.check()


def test_probe_and_analyse_start(built: Path) -> None:
    rules = rules_for("classic", 3)
    tb = open_table(rules, built)
    assert tb.probe(rules.start()) == (Value.WIN, 19)
    moves = analyse(rules, tb, rules.start())
    assert moves[0].value is Value.WIN and moves[0].remoteness == 19
    assert {str(m.move) for m in moves} == {str(m) for m in rules.legal_moves(rules.start())}
    order = [(m.value, m.remoteness) for m in moves]
    assert order == sorted(
        order,
        key=lambda vr: (
            {Value.WIN: 0, Value.DRAW: 1, Value.LOSS: 2}[vr[0]],
            (vr[1] or 0) * (1 if vr[0] is Value.WIN else -1),
        ),
    )
    # each move's value is the flipped value of the child for its side to move
    for m in moves:
        v, r = tb.probe(rules.play(rules.start(), m.move))
        assert m.value is v.flipped() and m.remoteness == r + 1  # type: ignore[operator]
    assert tb.get(rules_for("classic", 4).start(), "nope") == "nope"


def test_missing_and_unsupported(tmp_path: Path) -> None:
    with pytest.raises(MissingTableError) as exc:
        open_table(rules_for("classic", 3), tmp_path)
    assert "boardlab solve" in str(exc.value)
    assert solvable(rules_for("misere", 5))
    assert not solvable(rules_for("classic", 6))
    assert not solvable(rules_for("piecepack", 6))
    assert solvable(DodgemRules(size=4, blocked="loses", goal="misere"))


def test_table_is_keyed_by_ruleset(built: Path, tmp_path: Path) -> None:
    classic = table_path(rules_for("classic", 3), built)
    other = rules_for("misere", 3)
    target = table_path(other, tmp_path)
    target.write_bytes(classic.read_bytes())
    with pytest.raises(CorruptTableError) as exc:
        open_table(other, tmp_path)
    assert str(target) in str(exc.value) and "--variant misere" in str(exc.value)


@pytest.mark.parametrize("cut", [0, 5, 40, -1, -100])
def test_truncation_detected(built: Path, tmp_path: Path, cut: int) -> None:
    rules = rules_for("classic", 4)
    data = table_path(rules, built).read_bytes()
    target = table_path(rules, tmp_path)
    target.write_bytes(data[:cut])
    with pytest.raises(CorruptTableError) as exc:
        open_table(rules, tmp_path)
    assert str(target) in str(exc.value) and "boardlab solve" in str(exc.value)


def test_corruption_detected(built: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    data = bytearray(table_path(rules, built).read_bytes())
    target = table_path(rules, tmp_path)
    for where in (20, len(data) // 2, len(data) - 3):
        bad = bytearray(data)
        bad[where] ^= 0x41
        target.write_bytes(bytes(bad))
        with pytest.raises(CorruptTableError):
            tb = open_table(rules, tmp_path)
            tb.file.check()
        with pytest.raises(CorruptTableError):  # and probing never returns damaged data
            tb = open_table(rules, tmp_path)
            tb.codes()


def test_interrupted_build_resumes_to_identical_bytes(built: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    reference = table_path(rules, built).read_bytes()
    work = tmp_path / "work" / rules.ruleset_id()
    work.mkdir(parents=True)
    reached: list[int] = []
    for stop_at in (3, 200, 500):

        def progress(done: int, total: int, positions: int, stop_at: int = stop_at) -> None:
            reached.append(done)
            if done >= stop_at:
                raise Stop

        with pytest.raises(Stop):
            solve_to_workdir(rules, work, on_progress=progress)
    parts = sorted((work / "parts").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    # a half-written part (as after kill -9) and a stray temp file are ignored
    parts[-1].write_bytes(parts[-1].read_bytes()[:50])
    (work / "parts" / "x.part.123.tmp").write_bytes(b"junk")
    seen: list[int] = []
    build_table(rules, tmp_path, on_slices=lambda d, t, p: seen.append(d))
    assert reached[-1] - 64 <= seen[0] < reached[-1]
    assert table_path(rules, tmp_path).read_bytes() == reference
    assert not (tmp_path / "work").exists()


def test_parallel_build_gives_identical_bytes(built: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    build_table(rules, tmp_path, jobs=2)
    assert table_path(rules, tmp_path).read_bytes() == table_path(rules, built).read_bytes()


def test_ensure_table_builds_and_reports(tmp_path: Path) -> None:
    rules = rules_for("blocked-loses", 3)
    calls: list[tuple[int, int]] = []
    tb = ensure_table(rules, tmp_path, on_progress=lambda d, t: calls.append((d, t)))
    assert tb.probe(rules.start()) == (Value.WIN, 19)
    assert calls and calls[-1][0] == calls[-1][1]
    assert ensure_table(rules, tmp_path).path == tb.path


def test_default_tables_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BOARDLAB_TABLES", str(tmp_path))
    assert default_tables_dir() == tmp_path
    monkeypatch.delenv("BOARDLAB_TABLES")
    assert default_tables_dir().name == "tables"
    assert "boardlab" in str(default_tables_dir())


def test_wide_scratch_gives_the_same_codes(tmp_path: Path) -> None:
    rules = rules_for("misere", 4)
    narrow = solve_to_workdir(rules, tmp_path / "narrow")
    wide = solve_to_workdir(rules, tmp_path / "wide")
    assert narrow.dtype == np.uint8 and wide.dtype == np.uint16
    assert np.array_equal(np.asarray(narrow), np.asarray(wide))
    assert np.array_equal(np.asarray(wide), solve_in_memory(rules))


@pytest.mark.parametrize("delay", [0.3, 1.0, 1.6])
def test_killed_solve_resumes_to_identical_bytes(built: Path, tmp_path: Path, delay: float) -> None:
    import signal
    import subprocess
    import sys
    import time

    rules = rules_for("classic", 4)
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "4", "--tables", str(tmp_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    subprocess.run(cmd, check=True, capture_output=True)
    assert table_path(rules, tmp_path).read_bytes() == table_path(rules, built).read_bytes()
