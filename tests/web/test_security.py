"""What the server refuses before the API sees a request, and the one error shape everywhere
(issue items 2, 7, 12 and 13)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from boardlab.web import create_app
from boardlab.web.security import MAX_BODY_BYTES, hide_paths


def one_shape(r: object) -> dict[str, str]:
    data = r.json()  # type: ignore[attr-defined]
    assert set(data) == {"error", "kind"}, data
    assert isinstance(data["error"], str) and "\n" not in data["error"] and data["error"]
    return data  # type: ignore[no-any-return]


def test_oversized_body_is_refused_before_parsing(client: TestClient) -> None:
    # 10 MB of unknown keys used to freeze the server while it parsed them
    junk = json.dumps({"size": 5, **{f"k{i}": "x" * 80 for i in range(120_000)}}).encode()
    r = client.post("/api/state", content=junk, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert one_shape(r)["kind"] == "BodyTooLarge"


def test_oversized_body_without_a_length_is_cut_off(client: TestClient) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(40):
            yield b" " * 16_384

    r = client.post("/api/state", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert one_shape(r)["kind"] == "BodyTooLarge"


def test_body_limit_is_configurable(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path, max_body=1000)
    with TestClient(app, base_url="http://localhost") as c:
        small = c.post("/api/state", json={"size": 3})
        assert small.status_code == 200
        big = c.post("/api/state", json={"size": 3, "moves": ["a2-b2"] * 200})
        assert big.status_code == 413
    assert MAX_BODY_BYTES >= 100_000  # a few hundred kB by default


def test_errors_share_one_shape(client: TestClient) -> None:
    r = client.get("/no/such/page")
    assert r.status_code == 404 and one_shape(r)["kind"] == "NotFound"
    r = client.put("/api/state", json={})
    assert r.status_code == 405 and one_shape(r)["kind"] == "MethodNotAllowed"
    assert r.headers["allow"] == "POST"
    r = client.post(
        "/api/state", content=b"\xff\xfe{", headers={"content-type": "application/json"}
    )
    assert r.status_code in (400, 422) and one_shape(r)
    r = client.post(
        "/api/state", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and one_shape(r)["kind"] == "BadJSON"
    r = client.post("/api/move", json={"size": 3, "level": "9"})
    assert r.status_code == 422 and one_shape(r)["kind"] == "ValidationError"


def test_405_lists_every_method_of_the_path(client: TestClient) -> None:
    r = client.put("/api/tables", json={})
    assert r.status_code == 405
    assert r.headers["allow"] == "DELETE, GET, HEAD, POST"
    one_shape(r)


def test_head_is_answered_wherever_get_is(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/games", "/api/tables?size=3"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == 200 == get.status_code, path
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]


def test_bad_records_are_400_not_500(client: TestClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    texts = [
        deep,
        json.dumps({"size": 5, "moves": []}).replace("5", "9" * 5000),
        '{"size": Infinity, "moves": []}',
        '{"size": 1e999, "moves": []}',
        '[Game "dodgem"]\n[Size "' + "9" * 5000 + '"]\n\n*',
    ]
    for text in texts:
        r = client.post("/api/record/import", json={"text": text[:40_000]})
        assert r.status_code == 400, (text[:40], r.text)
        one_shape(r)
    # the connection is still usable afterwards (a 500 used to drop it)
    assert client.get("/api/health").status_code == 200


def test_a_bug_is_one_line_of_json_and_no_path(client: TestClient, monkeypatch: object) -> None:
    from boardlab.web import routes

    def broken() -> object:
        raise RuntimeError("boom in /home/someone/secret/place.py")

    monkeypatch.setattr(routes, "catalogue", broken)  # type: ignore[attr-defined]
    r = client.get("/api/games")
    assert r.status_code == 500
    data = one_shape(r)
    assert data["kind"] == "InternalError" and "/home" not in data["error"]


def test_security_headers_on_pages_api_and_errors(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/api/health"), client.get("/nowhere")):
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"


def test_page_has_no_inline_script_the_policy_would_block(client: TestClient) -> None:
    html = client.get("/").text
    assert "<script>" not in html.replace(" ", "")
    assert "https://" not in html  # nothing from a CDN


def test_docs_are_off_and_load_nothing_from_a_cdn(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def test_unknown_host_names_are_refused(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path)
    with TestClient(app, base_url="http://localhost") as c:
        assert c.get("/api/health").status_code == 200
        for host in ("127.0.0.1:8000", "localhost:1234", "[::1]:80"):
            assert c.get("/api/health", headers={"host": host}).status_code == 200, host
        r = c.get("/api/health", headers={"host": "attacker.example"})
        assert r.status_code == 400 and one_shape(r)["kind"] == "HostNotAllowed"
        r = c.post("/api/playout", json={"size": 8}, headers={"host": "rebind.example:8000"})
        assert r.status_code == 400


def test_allowed_hosts_add_names(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path, allowed_hosts=["boardlab.lan", "192.168.1.20"])
    with TestClient(app, base_url="http://boardlab.lan") as c:
        assert c.get("/api/health").status_code == 200
        assert c.get("/api/health", headers={"host": "192.168.1.20:8000"}).status_code == 200
        assert c.get("/api/health", headers={"host": "other.lan"}).status_code == 400
    anyhost = create_app(tables=tmp_path, allowed_hosts=["*"])
    with TestClient(anyhost, base_url="http://whatever.example") as c:
        assert c.get("/api/health").status_code == 200


def test_messages_carry_no_server_paths(client: TestClient, tmp_path: Path) -> None:
    tables = client.app.state.service.tables  # type: ignore[attr-defined]
    status = client.get("/api/tables?size=3").json()
    assert status["state"] == "missing"
    assert str(tables) not in status["message"] and "/" not in status["message"].split("with:")[0]
    assert hide_paths("/home/u/.local/share/x.bltb: bad") == "x.bltb: bad"
    assert hide_paths("no path here") == "no path here"
