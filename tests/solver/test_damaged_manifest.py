"""A manifest that is present but damaged (unreadable, not JSON, JSON of the wrong shape, or
gone while the packs remain) is reported as "table damaged: rebuild it with ..." in one line by
every read command, and a read command never rebuilds such a table."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.core.errors import CorruptTableError
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import open_table, table_path
from boardlab.solver.folder import MANIFEST, read_manifest
from boardlab.solver.store import TableStore

Capture = pytest.CaptureFixture[str]
RULES = rules_for("classic", 3)


def _set(key: str, value: object) -> Callable[[dict[str, object]], object]:
    def change(m: dict[str, object]) -> object:
        m[key] = value
        return m

    return change


DAMAGE: dict[str, Callable[[dict[str, object]], object]] = {
    "a list": lambda m: [1, 2, 3],
    "a number": lambda m: 5,
    "pack_tiers a list": _set("pack_tiers", [1, 2]),
    "complete a string": _set("complete", "yes"),
    "a negative tier": _set("pack_tiers", {"L000-0-0": [-1]}),
    "totals missing": lambda m: {k: v for k, v in m.items() if k != "histogram"},  # type: ignore[union-attr]
}


@pytest.fixture
def tables(small_tables_folder: Path, tmp_path: Path) -> Path:
    """A private copy of the 3×3 classic table."""
    src = table_path(RULES, small_tables_folder)
    dst = table_path(RULES, tmp_path)
    shutil.copytree(src, dst)
    return tmp_path


def _damage(tables: Path, change: Callable[[dict[str, object]], object]) -> Path:
    path = table_path(RULES, tables) / MANIFEST
    path.write_text(json.dumps(change(json.loads(path.read_text()))))
    return path


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_manifest_of_the_wrong_shape_is_damage(tables: Path, kind: str) -> None:
    _damage(tables, DAMAGE[kind])
    with pytest.raises(CorruptTableError, match=r"table damaged: .*rebuild it with: boardlab"):
        open_table(RULES, tables)


def test_a_sound_manifest_passes(tables: Path) -> None:
    manifest = read_manifest(table_path(RULES, tables))
    assert manifest is not None and manifest["complete"] is True


@pytest.mark.parametrize("command", ["probe", "analyze", "stats"])
@pytest.mark.parametrize("kind", ["a list", "pack_tiers a list", "not JSON", "missing"])
def test_read_commands_say_damaged_in_one_line(
    tables: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, command: str, kind: str
) -> None:
    path = table_path(RULES, tables) / MANIFEST
    if kind == "missing":
        path.unlink()
    elif kind == "not JSON":
        path.write_text("{ not json")
    else:
        _damage(tables, DAMAGE[kind])
    before = sorted(p.name for p in (path.parent / "packs").iterdir())
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("B2/B2/1RR b\n"))
    extra = ["--position", "B2/B2/1RR b"] if command == "analyze" else []
    status = main([command, "--size", "3", "--tables", str(tables), *extra])
    _, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, err
    assert "table damaged" in lines[0] and "boardlab solve" in lines[0]
    # nothing rebuilt: the manifest is as damaged as it was, the packs untouched
    assert path.exists() == (kind != "missing")
    assert sorted(p.name for p in (path.parent / "packs").iterdir()) == before


def test_the_store_never_rebuilds_a_damaged_table(tables: Path) -> None:
    path = table_path(RULES, tables) / MANIFEST
    path.unlink()
    store = TableStore(tables)
    assert store.get(RULES, build=True) is None
    assert not path.exists()
    with pytest.raises(CorruptTableError, match="manifest is missing"):
        store.open(RULES)


def test_an_unreadable_folder_is_not_called_missing(
    tables: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = table_path(RULES, tables) / MANIFEST
    real_stat = Path.stat

    def denied(self: Path, *args: object, **kwargs: object) -> os.stat_result:
        if self == manifest:  # as in a folder without read and search permission
            raise PermissionError(13, "Permission denied")
        return real_stat(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "stat", denied)
    status = main(["analyze", "--size", "3", "--tables", str(tables)])
    _, err = capsys.readouterr()
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "Permission denied" in err and "no tablebase" not in err


def test_a_flipped_header_length_byte_is_called_damage(tables: Path) -> None:
    from boardlab.solver.tierfile import MAGIC, read_header

    pack = next((table_path(RULES, tables) / "packs").iterdir())
    data = bytearray(pack.read_bytes())
    data[len(MAGIC) + 3] ^= 0x40  # the high byte of the header's length
    pack.write_bytes(bytes(data))
    with pytest.raises(CorruptTableError, match="damaged header") as info:
        read_header(pack, "boardlab solve")
    assert "truncated header" not in str(info.value)


@pytest.mark.parametrize("command", ["probe", "analyze", "stats"])
def test_a_fifo_in_place_of_a_pack_is_refused_not_waited_on(
    tables: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    packs = sorted((table_path(RULES, tables) / "packs").iterdir())
    for pack in packs:
        pack.unlink()
        os.mkfifo(pack)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("B2/B2/1RR b\n"))
    status = main([command, "--size", "3", "--tables", str(tables)])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "FIFO" in err and "rebuild it with" in err
