"""Operating the server: health and readiness, Prometheus metrics with moves and routes,
request ids, a database that cannot be reached (503 with Retry-After, nothing written), and
a malformed event between processes dropped with a log line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.web.friends.helpers import bearer, run_coroutine
from tests.web.friends.served import free_port

from boardlab.web import create_app
from boardlab.web.friends.events import Event, _deliver, parse_event


def test_health_readiness_metrics_and_request_ids(api: TestClient) -> None:
    assert api.get("/healthz").json()["status"] == "up"
    assert api.get("/readyz").json() == {"status": "ready"}
    created = api.post("/api/friends", json={"size": 3}).json()
    api.post(f"/api/friends/{created['id']}/join", headers=bearer(created["invite_token"]))
    state = api.get(f"/api/friends/{created['id']}").json()
    token = created["token"] if state["to_move"] == created["colour"] else created["invite_token"]
    moved = api.post(
        f"/api/friends/{created['id']}/move",
        json={"move": state["legal_moves"][0], "ply": 0},
        headers={**bearer(token), "X-Request-ID": "abc-123"},
    )
    assert moved.status_code == 200 and moved.headers["x-request-id"] == "abc-123"
    assert len(api.get("/healthz").headers["x-request-id"]) == 16  # made when not given
    text = api.get("/metrics").text
    assert "boardlab_moves_total 1.0" in text
    route = 'route="/api/friends/{game_id}/move"'
    assert f'boardlab_requests_total{{method="POST",{route},status="200"}} 1.0' in text
    assert "boardlab_open_sockets 0.0" in text


def test_an_unreachable_database_answers_503_with_retry_after(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path / "tables")
    nowhere = f"postgresql://boardlab@127.0.0.1:{free_port()}/games"  # nothing listens there
    app.state.friends.configure(nowhere, migrate=False)
    with TestClient(app, base_url="http://localhost") as api:
        r = api.get("/api/friends/" + "A" * 22)
        assert r.status_code == 503 and r.headers["retry-after"]
        assert r.json()["kind"] == "DatabaseUnavailable" and "database" in r.json()["error"]
        ready = api.get("/readyz")
        assert ready.status_code == 503 and "database" in ready.json()["problems"][0]
        assert api.get("/healthz").status_code == 200  # the process itself is up


def test_a_malformed_event_is_dropped_with_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    got: list[Event] = []

    async def handler(event: Event) -> None:
        got.append(event)

    good = '{"game": "AAAAAAAAAAAAAAAAAAAAAA", "from": "other"}'
    assert parse_event(good, "me") == Event("A" * 22)
    assert parse_event(good, "other") is None  # this process's own
    malformed = (
        "not json",
        "[1]",
        '{"game": "../etc", "from": "x"}',
        b"\xff",
        '{"game": "AAAAAAAAAAAAAAAAAAAAAA", "from": "x", "version": -1}',
        '{"game": "AAAAAAAAAAAAAAAAAAAAAA", "from": "x", "version": true}',
        '{"game": "AAAAAAAAAAAAAAAAAAAAAA", "from": "x", "move": {"ply": 0}}',  # no version
        '{"game": "AAAAAAAAAAAAAAAAAAAAAA", "from": "x", "version": 3, "move": [1]}',
    )
    with caplog.at_level(logging.WARNING, logger="boardlab.web.friends"):
        for raw in (good, *malformed):
            run_coroutine(_deliver(raw, "me", handler))
    assert got == [Event("A" * 22)]
    dropped = [r for r in caplog.records if "malformed event" in r.getMessage()]
    assert len(dropped) == len(malformed)
