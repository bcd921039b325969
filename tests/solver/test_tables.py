"""Tier files and tables folders: round trip, damage, resume after a kill, Dask, the API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.errors import CorruptTableError, MissingTableError, UnknownGameError
from boardlab.core.outcome import Value
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver import analyse, api, default_tables_dir, ensure_table, open_table, solvable
from boardlab.solver.api import build_table, decode, table_path
from boardlab.solver.folder import pack_path
from boardlab.solver.packsolve import solve_in_memory
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import PackFile, write_pack


def folder_bytes(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tables")
    build_table(rules_for("classic", 3), d)
    build_table(rules_for("piecepack", 4), d)
    build_table(rules_for("classic", 4), d)
    return d


@pytest.mark.parametrize(("variant", "size"), [("classic", 3), ("piecepack", 4)])
def test_round_trip_every_entry(built: Path, variant: str, size: int) -> None:
    rules = rules_for(variant, size)
    game = DodgemTiers(rules)
    want = solve_in_memory(game)
    tb = open_table(rules, built)
    for tier, codes in want.items():
        assert np.array_equal(tb.pack(tb.pack_of(tier)).tier_codes(tier), codes)
        for i in np.flatnonzero(codes)[::37]:
            pos = game.position(tier, int(i))
            assert pos is not None
            assert tb.probe(pos) == decode(int(codes[i]))
    # counts are over every position of the game: each stored entry weighs its orbit
    weighed = sum(int(game.weighted_counts(t, c)[1:].sum()) for t, c in want.items())
    assert tb.header["positions"] == weighed
    assert weighed > sum(int(np.count_nonzero(c)) for c in want.values())
    tb.check()


@pytest.mark.parametrize("codec", ["zlib", "zstd"])
def test_pack_file_round_trip(tmp_path: Path, codec: str) -> None:
    rng = np.random.default_rng(3)
    small = rng.integers(0, 200, 40000).astype(np.uint16)
    wide = rng.integers(0, 600, 50000).astype(np.uint16)
    path = tmp_path / "p.bltier"
    write_pack(path, [(7, small), (9, wide), (11, np.zeros(0, np.uint16))], {"x": 1}, codec)
    pf = PackFile(path, "rebuild")
    assert np.array_equal(pf.tier_codes(7), small) and np.array_equal(pf.tier_codes(9), wide)
    assert pf.code(9, 49999) == wide[49999] and len(pf.tier_codes(11)) == 0
    assert pf.tiers[7][1] == 1 and pf.tiers[9][1] == 2
    pf.check()


def test_probe_and_analyse_start(built: Path) -> None:
    rules = rules_for("classic", 3)
    tb = open_table(rules, built)
    assert tb.probe(rules.start()) == (Value.WIN, 19)
    moves = analyse(rules, tb, rules.start())
    assert moves[0].value is Value.WIN and moves[0].remoteness == 19
    assert {str(m.move) for m in moves} == {str(m) for m in rules.legal_moves(rules.start())}


def test_missing_and_unsupported(tmp_path: Path) -> None:
    with pytest.raises(MissingTableError, match="boardlab solve --game dodgem --size 5"):
        open_table(rules_for("classic", 5), tmp_path)
    assert solvable(rules_for("piecepack", 6)) and not solvable(rules_for("classic", 7))
    with pytest.raises(UnknownGameError, match="3×3 to 6×6"):
        open_table(rules_for("classic", 7), tmp_path)


def _copy(src: Path, dst: Path) -> None:
    import shutil

    shutil.copytree(src, dst)


@pytest.mark.parametrize("cut", [1, 100, 5000])
def test_truncated_pack_is_refused_with_the_rebuild_command(
    built: Path, tmp_path: Path, cut: int
) -> None:
    rules = rules_for("classic", 4)
    _copy(table_path(rules, built), table_path(rules, tmp_path))
    tb = open_table(rules, tmp_path)
    tier, _ = tb.game.locate(rules.start())
    path = pack_path(tb.path, tb.pack_of(tier))
    data = path.read_bytes()
    path.write_bytes(data[: max(0, len(data) - cut)])
    with pytest.raises(CorruptTableError) as err:
        tb.probe(rules.start())
    text = str(err.value)
    assert "\n" not in text and str(path) in text
    assert "boardlab solve --game dodgem --size 4 --force" in text


def test_large_tables_refuse_a_missing_pack_at_once_and_a_damaged_one_when_read(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond EAGER_PACKS packs (6×6) opening lists the packs instead of reading them all."""
    monkeypatch.setattr(api, "EAGER_PACKS", 0)
    rules = rules_for("classic", 4)
    _copy(table_path(rules, built), table_path(rules, tmp_path))
    tb = open_table(rules, tmp_path)
    tier, _ = tb.game.locate(rules.start())
    assert tb.probe(rules.start())[0] is Value.DRAW
    path = pack_path(tb.path, tb.pack_of(tier))
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(CorruptTableError) as err:
        open_table(rules, tmp_path).probe(rules.start())
    assert "\n" not in str(err.value) and "boardlab solve --game dodgem --size 4" in str(err.value)
    path.unlink()
    with pytest.raises(CorruptTableError, match="is missing; rebuild it with: boardlab solve"):
        open_table(rules, tmp_path)


def test_corrupt_block_is_never_served(built: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    _copy(table_path(rules, built), table_path(rules, tmp_path))
    tb = open_table(rules, tmp_path)
    tier, _ = tb.game.locate(rules.start())
    path = pack_path(tb.path, tb.pack_of(tier))
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # inside the last block's payload
    path.write_bytes(bytes(data))
    pf = PackFile(path, "boardlab solve --size 4 --force")
    with pytest.raises(CorruptTableError, match="checksum mismatch; rebuild it with: boardlab"):
        for t in pf.tiers:
            pf.tier_codes(t)
    with pytest.raises(CorruptTableError, match="payload checksum"):
        tb.check()


def test_a_damaged_pack_is_solved_again_and_only_it(built: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    ref = table_path(rules, built)
    _copy(ref, table_path(rules, tmp_path))
    plan = make_plan(DodgemTiers(rules))
    victim = pack_path(table_path(rules, tmp_path), plan.packs[5].name)
    victim.write_bytes(victim.read_bytes()[:50])
    others = {p.name: p.stat().st_mtime_ns for p in victim.parent.iterdir() if p != victim}
    build_table(rules, tmp_path)
    assert folder_bytes(table_path(rules, tmp_path)) == folder_bytes(ref)
    after = {p.name: p.stat().st_mtime_ns for p in victim.parent.iterdir() if p != victim}
    assert after == others


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


@pytest.mark.parametrize("after", [1, 6])
def test_killed_solve_resumes_to_identical_bytes(built: Path, tmp_path: Path, after: int) -> None:
    rules = rules_for("classic", 4)
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "4", "--tables", str(tmp_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    packs = table_path(rules, tmp_path) / "packs"
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if packs.is_dir() and len(list(packs.glob("*.bltier"))) >= after:
            break
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)  # in the middle: some packs written, not all
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    written = len(list(packs.glob("*.bltier")))
    assert after <= written < len(make_plan(DodgemTiers(rules)).packs)
    subprocess.run(cmd, check=True, capture_output=True)
    assert folder_bytes(table_path(rules, tmp_path)) == folder_bytes(table_path(rules, built))


@pytest.mark.slow
def test_threads_give_identical_bytes(built: Path, tmp_path: Path) -> None:
    """`--workers 3`: threads of this process, a pack's tiers cut into runs where a level has
    few packs; the files are those of one worker."""
    rules = rules_for("classic", 4)
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "4", "--workers", "3"]
    out = subprocess.run([*cmd, "--tables", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert folder_bytes(table_path(rules, tmp_path)) == folder_bytes(table_path(rules, built))


def test_runs_cut_a_pack_in_order_into_about_equal_parts() -> None:
    from boardlab.solver.runners import split_runs

    assert split_runs([1, 2, 3, 4], [10, 10, 10, 10], 2) == [[1, 2], [3, 4]]
    assert split_runs([1, 2, 3], [100, 1, 1], 2) == [[1], [2, 3]]
    assert split_runs([7], [5], 4) == [[7]]
    assert split_runs([1, 2, 3, 4, 5, 6], [1] * 6, 3) == [[1, 2], [3, 4], [5, 6]]


@pytest.mark.slow
def test_an_existing_cluster_of_worker_processes_gives_identical_bytes(
    built: Path, tmp_path: Path
) -> None:
    """`--scheduler`: the packs go to separate worker processes (each with its own game and
    child cache, the arguments pickled), as on a cluster of machines sharing the folder."""
    from distributed import LocalCluster

    rules = rules_for("classic", 4)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "4"]
        cmd += ["--scheduler", cluster.scheduler_address, "--tables", str(tmp_path)]
        out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert folder_bytes(table_path(rules, tmp_path)) == folder_bytes(table_path(rules, built))


@pytest.mark.slow
def test_ctrl_c_stops_a_solve_on_threads_cleanly(tmp_path: Path) -> None:
    """Ctrl-C at the terminal (SIGINT to the process group) in the middle of a 5×5 solve on
    a local cluster: exit 130 with one line, nothing left running, no half-written file."""
    rules = rules_for("classic", 5)
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "5", "--workers", "2"]
    proc = subprocess.Popen(
        [*cmd, "--tables", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal gives a command
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    packs = table_path(rules, tmp_path) / "packs"
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if packs.is_dir() and len(list(packs.glob("*.bltier"))) >= 20:  # into level 15
            break
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "interrupted"
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # no worker left behind
    assert not list(packs.glob(".*"))  # no temporary file
    written = len(list(packs.glob("*.bltier")))
    assert 20 <= written < len(make_plan(DodgemTiers(rules)).packs)
    for f in packs.glob("*.bltier"):
        pf = PackFile(f, "rebuild")
        pf.check()  # every file whole
        pf.close()


def test_unreachable_scheduler_is_one_line_and_exit_2(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "3", "--tables", str(tmp_path)]
    out = subprocess.run(
        [*cmd, "--scheduler", "tcp://127.0.0.1:8199"], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "scheduler" in out.stderr


def test_resident_bytes_follows_what_the_process_holds() -> None:
    from boardlab.solver.engine import resident_bytes

    before = resident_bytes()
    block = np.ones(200 << 20, np.uint8)  # 200 MiB, every page touched
    after = resident_bytes()
    assert 150 << 20 < after - before < 400 << 20
    del block


def test_a_tiny_memory_budget_still_finishes_with_identical_files(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Almost nothing left for tiers: the child cache keeps at most one tier and every tier
    goes beyond the budget on its own; the files come out the same."""
    import boardlab.solver.engine as engine

    monkeypatch.setattr(engine, "MIN_BUDGET", 4096)
    rules = rules_for("classic", 4)
    build_table(rules, tmp_path, budget=1)
    assert folder_bytes(table_path(rules, tmp_path)) == folder_bytes(table_path(rules, built))


def test_a_kept_compressor_writes_the_bytes_of_a_fresh_one() -> None:
    """Pack files keep their bytes: the compressor a thread keeps between blocks writes what
    a compressor made for each block writes."""
    import zstandard

    from boardlab.solver.tierfile import ZSTD_LEVEL, compress

    rng = np.random.default_rng(8)
    for _ in range(3):
        raw = rng.integers(0, 40, 1 << 14).astype(np.uint8).tobytes()
        assert compress(raw, "zstd") == zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)
