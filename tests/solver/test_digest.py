"""The table digest: one value however a table was built (workers, interruptions, codec), a
different one for other values, and damage named in one line."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.errors import CorruptTableError, MissingTableError
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver import published
from boardlab.solver.api import build_table, open_table, table_path
from boardlab.solver.digest import (
    SCHEME,
    read_record,
    table_digest,
    write_record,
)
from boardlab.solver.folder import pack_path
from boardlab.solver.packsolve import solve_in_memory
from boardlab.solver.plan import make_plan


def digest_of(rules: object, tables: Path) -> str:
    game = DodgemTiers(rules)  # type: ignore[arg-type]
    return table_digest(game, table_path(rules, tables), jobs=2).sha256


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("one")
    build_table(rules_for("classic", 4), d)
    return d


def test_one_two_workers_and_a_resumed_solve_share_one_digest(
    one_worker: Path, tmp_path: Path
) -> None:
    rules = rules_for("classic", 4)
    two = tmp_path / "two"
    build_table(rules, two, workers=2)

    resumed = tmp_path / "resumed"
    cmd = [sys.executable, "-m", "boardlab", "solve", "--size", "4", "--tables", str(resumed)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    packs = table_path(rules, resumed) / "packs"
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if packs.is_dir() and len(list(packs.glob("*.bltier"))) >= 3:
            break
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = len(list(packs.glob("*.bltier")))
    assert 3 <= written < len(make_plan(DodgemTiers(rules)).packs)  # killed half-way
    subprocess.run(cmd, check=True, capture_output=True)

    digests = {digest_of(rules, d) for d in (one_worker, two, resumed)}
    assert len(digests) == 1
    assert len(digests.pop()) == 64


def test_the_digest_covers_values_not_the_codec(one_worker: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    build_table(rules, tmp_path, codec="zlib")
    a, b = table_path(rules, one_worker), table_path(rules, tmp_path)
    name = make_plan(DodgemTiers(rules)).packs[-1].name
    assert pack_path(a, name).read_bytes() != pack_path(b, name).read_bytes()
    assert digest_of(rules, tmp_path) == digest_of(rules, one_worker)


def test_the_digest_is_the_hash_of_the_values_in_plan_order(one_worker: Path) -> None:
    """Recomputed here from the codes solved in memory, as the docs describe it."""
    import hashlib
    import json
    import struct

    rules = rules_for("classic", 4)
    game = DodgemTiers(rules)
    codes = solve_in_memory(game)
    top = hashlib.sha256(f"{SCHEME}\n{game.ruleset_id}\n".encode())
    spec = {k: v for k, v in game.spec().items() if k != "adapter"}
    top.update(json.dumps(spec, sort_keys=True).encode() + b"\n")
    for pack in make_plan(game).packs:
        sha = hashlib.sha256()
        for t in pack.tiers:
            c = codes[t]
            width = 2 if len(c) and int(c.max()) >= 256 else 1
            sha.update(struct.pack("<qqB", t, len(c), width))
            sha.update(c.astype("<u2" if width == 2 else "<u1").tobytes())
        top.update(f"{pack.name} {sha.hexdigest()}\n".encode())
    assert digest_of(rules, one_worker) == top.hexdigest()


def test_other_values_give_another_digest(one_worker: Path, tmp_path: Path) -> None:
    build_table(rules_for("misere", 4), tmp_path)
    assert digest_of(rules_for("misere", 4), tmp_path) != digest_of(
        rules_for("classic", 4), one_worker
    )


def test_a_damaged_or_missing_pack_is_named(one_worker: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    shutil.copytree(table_path(rules, one_worker), table_path(rules, tmp_path))
    tb = open_table(rules, tmp_path)
    tier, _ = tb.game.locate(rules.start())
    victim = pack_path(tb.path, tb.pack_of(tier))
    tb.close()
    data = bytearray(victim.read_bytes())
    data[-5] ^= 0x40
    victim.write_bytes(bytes(data))
    with pytest.raises(CorruptTableError, match=f"{victim}: block .* checksum mismatch"):
        digest_of(rules, tmp_path)
    victim.unlink()
    with pytest.raises(CorruptTableError, match="cannot be read"):
        digest_of(rules, tmp_path)
    with pytest.raises(MissingTableError):
        digest_of(rules_for("classic", 3), tmp_path)


def test_the_record_follows_the_manifest(one_worker: Path, tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    folder = table_path(rules, tmp_path)
    shutil.copytree(table_path(rules, one_worker), folder)
    digest = table_digest(DodgemTiers(rules), folder)
    assert read_record(folder) is None
    write_record(folder, digest)
    assert read_record(folder) == digest
    manifest = folder / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"complete": true', '"complete": false'))
    assert read_record(folder) is None  # another manifest: the record no longer holds


def test_cli_prints_the_digest_and_compares_it_with_the_published_one(
    one_worker: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["tables", "digest", "--size", "4", "--tables", str(one_worker)]
    assert main(args) == 0
    out = capsys.readouterr().out.split()
    rules = rules_for("classic", 4)
    assert out == [digest_of(rules, one_worker), rules.ruleset_id()]
    assert read_record(table_path(rules, one_worker)) is not None
    monkeypatch.setitem(published.PUBLISHED, rules.ruleset_id(), "0" * 64)
    assert main(args) == 1
    assert "the published digest differs" in capsys.readouterr().err
    monkeypatch.setitem(published.PUBLISHED, rules.ruleset_id(), out[0])
    assert main(args) == 0
    assert "the published digest: the same" in capsys.readouterr().err


def test_cli_without_a_table_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "digest", "--size", "5", "--tables", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "boardlab solve --game dodgem --size 5" in err


@pytest.mark.parametrize("variant", ["classic", "blocked-loses", "misere", "piecepack"])
def test_3x3_tables_built_here_have_the_published_digests(variant: str, tmp_path: Path) -> None:
    rules = rules_for(variant, 3)
    build_table(rules, tmp_path)
    assert digest_of(rules, tmp_path) == published.PUBLISHED[rules.ruleset_id()]


def test_4x4_classic_built_here_has_the_published_digest(one_worker: Path) -> None:
    rules = rules_for("classic", 4)
    assert digest_of(rules, one_worker) == published.PUBLISHED[rules.ruleset_id()]


def test_published_digests_name_tables_of_the_solver() -> None:
    from boardlab.solver.digest import is_sha256
    from boardlab.solver.install import find_adapter

    assert len(published.PUBLISHED) >= 12
    for ruleset, digest in published.PUBLISHED.items():
        assert find_adapter(ruleset) is not None and is_sha256(digest)


def test_ctrl_c_stops_the_digest_without_hashing_the_other_packs(
    one_worker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second pack's hash, if it started, waits until the pool is shut down: no pack after
    it can start, whatever the threads' timing."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from boardlab.solver import digest as digest_mod

    hashed: list[str] = []
    shut = threading.Event()
    real = digest_mod.pack_sha256

    def counted(path: Path, *args: object) -> str:
        hashed.append(path.name)
        if len(hashed) > 1:
            shut.wait()
        return real(path, *args)  # type: ignore[arg-type]

    class Pool(ThreadPoolExecutor):
        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            super().shutdown(wait=False, cancel_futures=cancel_futures)
            shut.set()
            super().shutdown(wait=wait)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(digest_mod, "pack_sha256", counted)
    monkeypatch.setattr(digest_mod, "ThreadPoolExecutor", Pool)
    rules = rules_for("classic", 4)
    with pytest.raises(KeyboardInterrupt):
        table_digest(DodgemTiers(rules), table_path(rules, one_worker), jobs=1, on_pack=interrupt)
    assert 1 <= len(hashed) <= 2 < len(make_plan(DodgemTiers(rules)).packs)
