"""The small classic tables shipped in the package: their digests are the published ones, and
a store over an empty folder installs them, checked, on first use, never writing where they
ship."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from boardlab.core.errors import MissingTableError
from boardlab.core.registry import make_rules
from boardlab.core.session import GameSession
from boardlab.solver import api
from boardlab.solver.digest import read_record, table_digest
from boardlab.solver.published import PUBLISHED
from boardlab.solver.store import BUNDLED_TABLES, TableStore, solver_view

pytestmark = pytest.mark.shipped_tables

SHIPPED = {3: "dodgem-3-classic-wins-normal", 4: "dodgem-4-classic-wins-normal"}


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("size", sorted(SHIPPED))
def test_shipped_packs_have_the_published_digest(size: int) -> None:
    ruleset = SHIPPED[size]
    folder = BUNDLED_TABLES / ruleset
    game = api.require_game(solver_view(make_rules("dodgem", "classic", size)))
    assert game.ruleset_id == ruleset
    digest = table_digest(game, folder, 1)
    assert digest.sha256 == PUBLISHED[ruleset]
    record = read_record(folder)
    assert record is not None and record.sha256 == PUBLISHED[ruleset]


def test_only_the_small_classic_tables_ship() -> None:
    shipped = sorted(p.name for p in BUNDLED_TABLES.iterdir() if p.is_dir())
    assert shipped == sorted(SHIPPED.values())


@pytest.mark.parametrize("size", sorted(SHIPPED))
def test_a_fresh_folder_opens_the_shipped_table_without_building(
    size: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("a shipped table was built instead of installed")

    monkeypatch.setattr(api, "run_build", no_build)
    before = fingerprint(BUNDLED_TABLES)
    rules = make_rules("dodgem", "classic", size)
    store = TableStore(tmp_path / "tables")
    assert store.built(rules)
    table = store.get(rules, build=False)
    assert table is not None
    session: GameSession[object, object] = GameSession(rules)
    probed = store.probe(rules, session.position)
    assert probed is not None
    installed = tmp_path / "tables" / SHIPPED[size]
    assert fingerprint(installed)["manifest.json"] == before[f"{SHIPPED[size]}/manifest.json"]
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [SHIPPED[size]]
    assert fingerprint(BUNDLED_TABLES) == before  # the package's copy is only read
    # a second store over the same folder opens the installed copy
    again = TableStore(tmp_path / "tables")
    assert again.probe(rules, session.position) == probed


def test_a_damaged_shipped_copy_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    ruleset = SHIPPED[3]
    bundled = tmp_path / "shipped"
    shutil.copytree(BUNDLED_TABLES / ruleset, bundled / ruleset)
    pack = sorted((bundled / ruleset / "packs").iterdir())[-1]
    data = bytearray(pack.read_bytes())
    data[-1] ^= 0xFF
    pack.write_bytes(bytes(data))
    store = TableStore(tmp_path / "tables", bundled=bundled)
    rules = make_rules("dodgem", "classic", 3)
    with pytest.raises(MissingTableError):
        store.open(rules)
    assert not (tmp_path / "tables").exists() or not list((tmp_path / "tables").iterdir())


def test_other_rules_and_stores_without_shipped_tables_stay_missing(tmp_path: Path) -> None:
    with pytest.raises(MissingTableError):
        TableStore(tmp_path / "a").open(make_rules("dodgem", "misere", 3))
    with pytest.raises(MissingTableError):
        TableStore(tmp_path / "b", bundled=None).open(make_rules("dodgem", "classic", 3))
