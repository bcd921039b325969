"""POST /api/estimate: the search's estimate where no table exists, through the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import serving

from boardlab.core.registry import get_game
from boardlab.web import create_app
from boardlab.web.estimates import QUICK_SHARE, quick_nodes
from boardlab.web.limits import WorkLimits

FINISHED_3X3 = ["a3-b3", "b1-a1", "b3-c3", "a1-b1", "c3-off", "b1-a1", "a2-b2", "a1-b1",
                "b2-c2", "b1-a1", "c2-off"]  # fmt: skip


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize(
    "spec",
    [
        {"game": "dodgem", "size": 6, "moves": ["a2-b2", "c1-c2"]},
        {"game": "dodgem", "variant": "misere", "size": 8, "moves": []},
        {"game": "dotdash", "size": 13, "moves": ["G7-D7"]},
    ],
    ids=["dodgem-6", "misere-8", "dotdash-13"],
)
def test_estimate_of_a_board_without_a_table(client: TestClient, spec: dict[str, Any]) -> None:
    state = post(client, "/api/state", spec)
    est = post(client, "/api/estimate", spec)
    assert est["to_move"] == state["to_move"] and est["ply"] == len(spec["moves"])
    assert 0.0 <= est["share"] <= 1.0
    assert est["depth"] > 0 and est["nodes"] > 0
    assert est["line"] and est["line"][0] in state["legal_moves"]
    assert est["proven"] is False and est["plies"] is None
    # the whole line replays from the position
    after = post(client, "/api/state", {**spec, "moves": [*spec["moves"], *est["line"]]})
    assert after["moves"][len(spec["moves"]) :] == est["line"]


@pytest.mark.parametrize(
    "spec",
    [{"game": "dodgem", "size": 6, "moves": ["a2-b2"]}, {"game": "dotdash", "size": 13}],
    ids=["dodgem-6", "dotdash-13"],
)
def test_a_quick_estimate_spends_a_quarter_of_the_budget(
    client: TestClient, spec: dict[str, Any]
) -> None:
    full = post(client, "/api/estimate", spec)
    quick = post(client, "/api/estimate", {**spec, "quick": True})
    assert quick["nodes"] < full["nodes"]
    assert quick["depth"] <= full["depth"]
    assert quick["line"] and quick["line"][0] in post(client, "/api/state", spec)["legal_moves"]


def test_the_quick_budget_is_a_quarter_of_each_game_s_own() -> None:
    from boardlab.ai.dodgem import estimate as dodgem
    from boardlab.ai.dotdash import estimate as dotdash

    assert quick_nodes(get_game("dodgem").estimate) == dodgem.NODES // QUICK_SHARE
    assert quick_nodes(get_game("dotdash").estimate) == dotdash.NODES // QUICK_SHARE
    assert quick_nodes(lambda rules, position, history=(): None) is None  # takes no budget


def test_quick_is_a_yes_or_no(client: TestClient) -> None:
    r = client.post("/api/estimate", json={"size": 6, "quick": "very"})
    assert r.status_code == 422


def test_a_forced_result_is_proven_not_estimated(client: TestClient) -> None:
    est = post(client, "/api/estimate", {"size": 3})
    assert est["proven"] is True and est["share"] == 1.0
    assert est["plies"] is not None and est["plies"] % 2 == 1  # Blue moves last and wins


def test_a_finished_game_or_a_bad_move_is_a_clear_400(client: TestClient) -> None:
    r = client.post("/api/estimate", json={"size": 3, "moves": FINISHED_3X3})
    assert r.status_code == 400 and "over" in r.json()["error"]
    r = client.post("/api/estimate", json={"size": 6, "moves": ["a1-a9"]})
    assert r.status_code == 400 and "\n" not in r.json()["error"]


@pytest.mark.slow
def test_the_estimate_runs_in_a_worker_process(tmp_path: Path) -> None:
    # deadlines far above the work: a worker process started on a busy machine takes its
    # time to import and compile, and this test is about where the search runs
    limits = WorkLimits(processes=True, move_seconds=300.0, queue_seconds=300.0)
    app = create_app(tables=tmp_path, limits=limits)
    spec = {"game": "dodgem", "size": 6, "moves": ["a2-b2"]}
    with serving(app) as base, httpx.Client(base_url=base, timeout=600) as c:
        r = c.post("/api/estimate", json=spec)
        assert r.status_code == 200, r.text
        assert r.json()["depth"] > 0 and 0.0 <= r.json()["share"] <= 1.0
        bad = c.post("/api/estimate", json={"size": 3, "moves": FINISHED_3X3})
        assert bad.status_code == 400 and "over" in bad.json()["error"]
