"""Messages that used to mislead: a 405 on the static files names what is allowed."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from boardlab.web import create_app


def test_a_405_on_static_files_names_the_allowed_methods(tmp_path: Path) -> None:
    with TestClient(create_app(tables=tmp_path), base_url="http://localhost") as c:
        r = c.post("/static/app.js")
    assert r.status_code == 405
    assert r.json()["error"] == "POST is not allowed here (allowed: GET, HEAD)"
    assert r.headers["allow"] == "GET, HEAD"
