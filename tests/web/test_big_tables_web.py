"""Tables too big to build from the page (6×6: hours here) are not offered a build: the API
says what the table holds, its build time and disk on this machine, and the commands that
build or install it; once a 6×6 table is in the folder, the page and level 4 read it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.core.registry import make_rules
from boardlab.core.session import GameSession
from boardlab.solver import api
from boardlab.solver.api import EAGER_PACKS
from boardlab.solver.buildcost import (
    KNOWN_POSITIONS,
    PAGE_BUILD_LIMIT_S,
    plan_positions,
    save_estimate,
)
from boardlab.solver.folder import MANIFEST
from boardlab.solver.store import solver_view
from boardlab.web import create_app

CLASSIC_6 = "dodgem-6-classic-wins-normal"


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tables"
    monkeypatch.setenv("BOARDLAB_TABLES", str(folder))
    return folder


def local(app: Any) -> TestClient:
    return TestClient(app, base_url="http://localhost", client=("127.0.0.1", 5000))


@dataclass
class Measured:
    """What `boardlab solve --estimate` keeps, as `estimate.Estimate` gives it."""

    positions: int
    wall: float
    disk_bytes: int

    def seconds_on(self, cores: int) -> float:
        return self.wall

    def workers_in_budget(self, cores: int) -> int:
        return cores


def test_6x6_offers_no_build_but_its_cost_and_commands(tables: Path) -> None:
    with local(create_app(tables)) as c:
        out = c.get("/api/tables?size=6").json()
        assert out["state"] == "missing" and out["solvable"] is True
        assert out["buildable"] is False and out["estimate_measured"] is False
        assert out["estimate_s"] > PAGE_BUILD_LIMIT_S
        assert out["positions"] == KNOWN_POSITIONS[CLASSIC_6]
        assert out["disk_bytes"] > 1e9
        assert out["commands"] == [
            "boardlab solve --game dodgem --size 6",
            f"boardlab tables install FOLDER-OR-URL/{CLASSIC_6}",
        ]
        r = c.post("/api/tables", json={"size": 6})
        assert r.status_code == 403 and r.json()["kind"] == "BuildsNotAllowedError"
        assert "boardlab solve --game dodgem --size 6" in r.json()["error"]
        assert c.app.state.service.builds.building() is None  # type: ignore[attr-defined]
        assert c.get("/api/tables?size=6").json()["state"] == "missing"
        small = c.get("/api/tables?size=5").json()  # minutes at most: still offered
        assert small["buildable"] is True and small["commands"] == []


def test_this_machines_estimate_decides(tables: Path) -> None:
    slow = Measured(237_548_052, 2 * PAGE_BUILD_LIMIT_S, 30_000_000)
    save_estimate(tables, "dodgem-5-classic-wins-normal", slow)
    fast = Measured(KNOWN_POSITIONS[CLASSIC_6], PAGE_BUILD_LIMIT_S / 2, 25_000_000_000)
    save_estimate(tables, CLASSIC_6, fast)
    with local(create_app(tables)) as c:
        five = c.get("/api/tables?size=5").json()
        assert five["buildable"] is False and five["estimate_measured"] is True
        assert five["estimate_s"] == pytest.approx(2 * PAGE_BUILD_LIMIT_S)
        assert c.post("/api/tables", json={"size": 5}).status_code == 403
        six = c.get("/api/tables?size=6").json()
        assert six["buildable"] is True and six["estimate_s"] == pytest.approx(
            PAGE_BUILD_LIMIT_S / 2
        )


def stand_in_6x6(tables: Path) -> Path:
    """A folder where the 6×6 classic table goes, with a complete manifest of the real rules
    and more packs than are checked when opened: empty files, so any read of a position
    finds the table damaged. It stands for an installed table without its 25 GB."""
    rules = make_rules("dodgem", "classic", 6)
    game = api.require_game(solver_view(rules))
    # the tiers of the start and of every position one move on (what level 4 looks up)
    start = GameSession(rules).position
    near = [start, *(rules.play(start, m) for m in rules.legal_moves(start))]
    tiers = sorted({game.locate(p)[0] for p in near})
    folder = tables / CLASSIC_6
    (folder / "packs").mkdir(parents=True)
    names = [f"L000-{i}" for i in range(EAGER_PACKS + 1)]
    for name in names:
        (folder / "packs" / f"{name}.bltier").touch()
    pack_tiers: dict[str, list[int]] = {name: [] for name in names}
    for i, tier in enumerate(tiers):
        pack_tiers[names[i]].append(tier)
    manifest = {
        "ruleset": CLASSIC_6,
        "complete": True,
        "spec": game.spec(),
        "codec": "zstd",
        "levels": 1,
        "tiers": len(tiers),
        "packs": len(names),
        "positions_indexed": KNOWN_POSITIONS[CLASSIC_6],
        "pack_tiers": pack_tiers,
        # the totals a complete manifest carries (made up: nothing here reads them)
        "positions": KNOWN_POSITIONS[CLASSIC_6],
        "win": 1,
        "loss": 1,
        "draw": KNOWN_POSITIONS[CLASSIC_6] - 2,
        "max_remoteness": 1,
        "histogram": [],
        "bytes": 0,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest))
    return folder


def test_an_installed_6x6_table_is_read_like_any_other(tables: Path) -> None:
    stand_in_6x6(tables)
    with local(create_app(tables)) as c:
        out = c.get("/api/tables?size=6").json()
        assert out["state"] == "ready" and out["commands"] == []
        # level 4 goes to the table for its move and reads the stand-in's packs: empty, they
        # are found damaged there (a 6×6 table checks a pack when it first reads it)
        r = c.post("/api/move", json={"size": 6, "level": "4", "forced": False})
        assert r.status_code == 503 and r.json()["kind"] == "CorruptTableError"
        assert "L000-0" in r.json()["error"] and "--size 6" in r.json()["error"]
        # analysis reads the same table
        r = c.post("/api/analysis", json={"size": 6})
        assert r.status_code == 503 and r.json()["kind"] == "CorruptTableError"
        assert ".bltier" in r.json()["error"] and "--size 6" in r.json()["error"]


def test_stored_counts_are_the_plans() -> None:
    # the 6×6 counts take seconds each: the 5×5 piecepack board, counted the same way,
    # checks the sum against the solver's plan, and a 6×6 entry against its tier count
    from boardlab.solver.plan import make_plan

    game = api.require_game(solver_view(make_rules("dodgem", "classic", 3)))
    assert plan_positions(game) == make_plan(game).positions
    assert set(KNOWN_POSITIONS) == {
        "dodgem-6-classic-wins-normal",
        "dodgem-6-classic-loses-normal",
        "dodgem-6-classic-wins-misere",
        "dodgem-6-piecepack-passes-normal",
    }
