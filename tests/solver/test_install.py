"""`boardlab tables install`, `list` and `remove`: from a folder and from a real HTTP server on
loopback (cut half-way and resumed), every pack and the digest checked, a damaged or foreign
table refused in one line with nothing installed."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver import install as install_mod
from boardlab.solver.api import build_table, open_table, table_path
from boardlab.solver.digest import read_record, table_digest, write_record
from boardlab.solver.folder import pack_path
from boardlab.solver.plan import make_plan
from tests.solver.http_tables import serve

RULES = rules_for("classic", 4)


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install_mod, "_pause", lambda attempt: None)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A built 4×4 classic table with its digest.json, as a publisher would serve it."""
    tables = tmp_path_factory.mktemp("source")
    build_table(RULES, tables)
    folder = table_path(RULES, tables)
    write_record(folder, table_digest(DodgemTiers(RULES), folder))
    return folder


def copy_of(source: Path, where: Path) -> Path:
    dst = where / source.name
    shutil.copytree(source, dst)
    return dst


def packs_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "packs").iterdir())}


def biggest_pack(folder: Path) -> Path:
    return max((folder / "packs").iterdir(), key=lambda p: p.stat().st_size)


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_install_over_http_resumes_a_download_cut_half_way(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = biggest_pack(source)
    half = victim.stat().st_size // 2
    with serve(source) as srv:
        srv.cuts[f"/packs/{victim.name}"] = [half]
        tables = tmp_path / "tables"
        assert main(["tables", "install", srv.url, "--tables", str(tables)]) == 0
    asked = [r for p, r in srv.log if p == f"/packs/{victim.name}"]
    assert asked == [None, f"bytes={half}-"]  # the second request went on from the cut
    out = capsys.readouterr().out
    assert "installed dodgem-4-classic-wins-normal" in out
    installed = table_path(RULES, tables)
    assert packs_bytes(installed) == packs_bytes(source)
    assert open_table(RULES, tables).probe(RULES.start()) == open_table(RULES, source.parent).probe(
        RULES.start()
    )
    assert read_record(installed) == read_record(source)
    assert [p.name for p in tables.iterdir()] == [installed.name]  # no staging left


def test_a_stopped_install_resumes_in_the_next_run(
    source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(install_mod, "RETRIES", 1)
    victim = biggest_pack(source)
    half = victim.stat().st_size // 2
    tables = tmp_path / "tables"
    argv = ["tables", "install", "--tables", str(tables)]
    with serve(source) as srv:
        srv.cuts[f"/packs/{victim.name}"] = [half]
        err = one_line_exit_2([*argv, srv.url], capsys)
        assert "run the same command again to resume" in err
        assert not table_path(RULES, tables).exists()  # nothing half-installed
        stage = tables / ".install-dodgem-4-classic-wins-normal"
        assert (stage / "packs" / f"{victim.name}.part").stat().st_size == half
        assert main(["tables", "list", "--tables", str(tables)]) == 0
        assert "install stopped" in capsys.readouterr().out
        assert main([*argv, srv.url]) == 0
    ranges = [r for p, r in srv.log if p == f"/packs/{victim.name}"]
    assert ranges == [None, f"bytes={half}-"]
    assert packs_bytes(table_path(RULES, tables)) == packs_bytes(source)
    assert not stage.exists()


def test_a_server_without_ranges_is_fetched_again_from_the_start(
    source: Path, tmp_path: Path
) -> None:
    victim = biggest_pack(source)
    with serve(source, ranges=False) as srv:
        srv.cuts[f"/packs/{victim.name}"] = [victim.stat().st_size // 3]
        assert main(["tables", "install", srv.url, "--tables", str(tmp_path)]) == 0
    assert packs_bytes(table_path(RULES, tmp_path)) == packs_bytes(source)


def test_install_from_a_folder_then_list_and_remove(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = tmp_path / "tables"
    assert main(["tables", "install", str(source), "--tables", str(tables), "--size", "4"]) == 0
    capsys.readouterr()
    assert main(["tables", "list", "--tables", str(tables), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["tables"]
    record = read_record(source)
    assert record is not None
    assert [(r["ruleset"], r["state"], r["digest"], r["verified"]) for r in rows] == [
        ("dodgem-4-classic-wins-normal", "complete", record.sha256, "not verified")
    ]
    on_disk = sum(p.stat().st_size for p in table_path(RULES, tables).rglob("*") if p.is_file())
    assert rows[0]["bytes"] == on_disk
    assert main(["tables", "list", "--tables", str(tables)]) == 0
    assert record.sha256 in capsys.readouterr().out

    err = one_line_exit_2(["tables", "install", str(source), "--tables", str(tables)], capsys)
    assert "--force" in err  # already there: kept
    assert main(["tables", "install", str(source), "--tables", str(tables), "--force"]) == 0

    assert main(["tables", "remove", "--size", "4", "--tables", str(tables)]) == 0
    assert not table_path(RULES, tables).exists()
    err = one_line_exit_2(
        ["tables", "remove", "dodgem-4-classic-wins-normal", "--tables", str(tables)], capsys
    )
    assert "no table of dodgem-4-classic-wins-normal" in err


def test_list_reads_the_verifiers_record(source: Path, tmp_path: Path) -> None:
    from boardlab.cli.tables import table_rows
    from boardlab.solver.verify import RECORD

    copy = copy_of(source, tmp_path)
    assert [r["verified"] for r in table_rows(tmp_path)] == ["not verified"]
    assert main(["verify", "--size", "4", "--workers", "1", "--tables", str(tmp_path)]) == 0
    assert [r["verified"] for r in table_rows(tmp_path)] == ["verified"]
    record = json.loads((copy / RECORD).read_text())
    first = sorted(record["packs"])[0]
    record["packs"][first]["errors"] = {"value contradicted": 1}
    (copy / RECORD).write_text(json.dumps(record))
    assert [r["verified"] for r in table_rows(tmp_path)] == ["failed verification"]
    del record["packs"][first]
    (copy / RECORD).write_text(json.dumps(record))
    (verdict,) = [r["verified"] for r in table_rows(tmp_path)]
    assert verdict.startswith("partly verified (")


def test_a_damaged_pack_is_refused_and_nothing_is_installed(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = copy_of(source, tmp_path / "src")
    victim = biggest_pack(bad)
    data = bytearray(victim.read_bytes())
    data[-20] ^= 0x01
    victim.write_bytes(bytes(data))
    tables = tmp_path / "tables"
    with serve(bad) as srv:
        err = one_line_exit_2(["tables", "install", srv.url, "--tables", str(tables)], capsys)
    assert f"pack {victim.name.removesuffix('.bltier')} is damaged" in err
    assert not tables.exists() or list(tables.iterdir()) == []


def test_consistent_packs_of_other_values_fail_the_digest(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Packs that pass their own checksums but are not the table the digest names (here:
    the source's digest.json tampered with) are refused after the digest."""
    bad = copy_of(source, tmp_path / "src")
    record = json.loads((bad / "digest.json").read_text())
    record["sha256"] = "ab" * 32
    (bad / "digest.json").write_text(json.dumps(record))
    tables = tmp_path / "tables"
    err = one_line_exit_2(
        ["tables", "install", str(bad), "--tables", str(tables), "--digest", "ab" * 32], capsys
    )
    assert "not the table it claims to be" in err or "digests disagree" in err
    assert not tables.exists() or list(tables.iterdir()) == []


def test_the_given_digest_must_agree_with_the_source(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = one_line_exit_2(
        ["tables", "install", str(source), "--tables", str(tmp_path), "--digest", "cd" * 32],
        capsys,
    )
    assert "the digests disagree" in err
    assert list(tmp_path.iterdir()) == []


def test_a_foreign_ruleset_is_refused(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = tmp_path / "tables"
    err = one_line_exit_2(
        ["tables", "install", str(source), "--tables", str(tables), "--size", "5"], capsys
    )
    assert "holds dodgem-4-classic-wins-normal, not dodgem-5-classic-wins-normal" in err

    other = copy_of(source, tmp_path / "src")
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["ruleset"] = "chess-8-standard"
    (other / "manifest.json").write_text(json.dumps(manifest))
    err = one_line_exit_2(["tables", "install", str(other), "--tables", str(tables)], capsys)
    assert "chess-8-standard, which this BoardLab has no solver for" in err

    manifest["ruleset"] = "dodgem-4-classic-wins-normal"
    manifest["spec"]["symmetric"] = False
    (other / "manifest.json").write_text(json.dumps(manifest))
    err = one_line_exit_2(["tables", "install", str(other), "--tables", str(tables)], capsys)
    assert "not dodgem-4-classic-wins-normal" in err
    assert not tables.exists() or list(tables.iterdir()) == []


def test_a_pack_of_another_table_is_refused(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    misere = tmp_path / "misere"
    build_table(rules_for("misere", 4), misere)
    bad = copy_of(source, tmp_path / "src")
    name = make_plan(DodgemTiers(RULES)).packs[3].name
    shutil.copy(pack_path(table_path(rules_for("misere", 4), misere), name), pack_path(bad, name))
    tables = tmp_path / "tables"
    err = one_line_exit_2(["tables", "install", str(bad), "--tables", str(tables)], capsys)
    assert f"pack {name} is damaged" in err
    assert not tables.exists() or list(tables.iterdir()) == []


def test_missing_sources_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tables", "install", "--tables", str(tmp_path / "t")]
    assert "no such folder" in one_line_exit_2([*argv, str(tmp_path / "nothing")], capsys)
    assert "no table there" in one_line_exit_2([*argv, str(tmp_path)], capsys)
    (tmp_path / "dodgem-9-x").mkdir()
    (tmp_path / "dodgem-9-x" / "manifest.json").write_text("{}")
    err = one_line_exit_2([*argv, str(tmp_path)], capsys)
    assert "it holds the tables dodgem-9-x: give one's folder" in err
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    err = one_line_exit_2([*argv, f"http://127.0.0.1:{port}/tables/x"], capsys)
    assert "cannot be reached" in err
    with serve(tmp_path) as srv:
        err = one_line_exit_2([*argv, f"{srv.url}/nothing/here"], capsys)
    assert "no table there" in err
    assert "only folders and http" in one_line_exit_2([*argv, "ftp://example.org/t"], capsys)


def test_a_table_without_any_digest_to_check_is_refused(
    source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(install_mod, "PUBLISHED", {})
    bare = copy_of(source, tmp_path / "src")
    (bare / "digest.json").unlink()
    err = one_line_exit_2(["tables", "install", str(bare), "--tables", str(tmp_path / "t")], capsys)
    assert "no digest to check" in err
    record = read_record(source)
    assert record is not None
    argv = ["tables", "install", str(bare), "--tables", str(tmp_path / "t")]
    assert main([*argv, "--digest", record.sha256]) == 0
