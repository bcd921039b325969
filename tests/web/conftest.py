"""Fixtures for the web tests: an API client, and a real uvicorn server with a chromium page."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.web import create_app

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# How long a page's waits last: the server and chromium share two cores with the other test
# worker, and a reply that takes a second on a free machine can take many on a loaded one (the
# tests check what the page shows, not how fast it comes).
PAGE_TIMEOUT_MS = 60_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A TestClient over a fresh app whose tables live in a temporary folder."""
    app = create_app(tables=tmp_path / "tables")
    # a local client, as the person at the machine: builds are allowed for them
    with TestClient(app, base_url="http://localhost", client=("127.0.0.1", 50000)) as c:
        yield c


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Run `app` on uvicorn in a thread, on a free loopback port; yields the base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app on uvicorn, on a free loopback port, for the whole session."""
    tables = Path(os.environ.get("BOARDLAB_TEST_TABLES", tmp_path_factory.mktemp("tables")))
    with serving(create_app(tables=tables)) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright; skipped only when it is not installed."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser tests need {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh page (empty localStorage) at the app, in English, ready to play."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    pg = context.new_page()
    errors = watch_errors(pg)
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    pg.goto(live_server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert errors == [], f"console or page errors: {errors}"


# Console lines a test may cause on purpose (a refused request is logged by the browser).
EXPECTED = ("Failed to load resource: the server responded with a status of 4",)


def watch_errors(pg: Any) -> list[str]:
    """Collect console errors and page errors of `pg` (the list fills as they come)."""
    errors: list[str] = []

    def on_console(msg: Any) -> None:
        if msg.type == "error" and not msg.text.startswith(EXPECTED):
            errors.append(msg.text)

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture
def open_page(browser: Any, live_server: str) -> Iterator[Any]:
    """A factory of fresh pages (empty storage) at a viewport, language and colour scheme;
    phones get touch. Each page's console and page errors fail the test."""
    contexts: list[tuple[Any, list[str]]] = []

    def make(width: int, height: int, locale: str = "en-GB", scheme: str = "light") -> Any:
        ctx = browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            color_scheme=scheme,
            has_touch=width < 600,
            is_mobile=width < 600,
        )
        pg = ctx.new_page()
        contexts.append((ctx, watch_errors(pg)))
        pg.set_default_timeout(PAGE_TIMEOUT_MS)
        pg.goto(live_server + "/")
        pg.wait_for_selector("body[data-ready='1']")
        return pg

    yield make
    for ctx, errors in contexts:
        ctx.close()
        assert errors == [], f"console or page errors: {errors}"


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save a screenshot into test-artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header belongs at the top
    page.wait_for_timeout(250)  # let button transitions finish
    page.screenshot(path=str(path), full_page=full_page)
    return path


def ensure_table(live_server: str, size: int) -> None:
    """Build the live server's table of classic Dodgem at `size` if no test did yet (level 4
    never builds inside a move, so tests of its notices need the table first)."""
    import time

    import httpx

    httpx.post(live_server + "/api/tables", json={"size": size}, timeout=30)
    deadline = time.monotonic() + 120
    while (
        httpx.get(live_server + f"/api/tables?size={size}", timeout=30).json()["state"] != "ready"
    ):
        assert time.monotonic() < deadline, f"the {size}×{size} table was not built"
        time.sleep(0.2)
