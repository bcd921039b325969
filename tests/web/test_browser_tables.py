"""A damaged table in a real chromium: the level-4 note and the New game sheet say it is
damaged, with the server's one-line message naming the rebuild command (in English and in
Japanese), and the page's rebuild button builds it again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import PAGE_TIMEOUT_MS, serving, shot, watch_errors
from tests.web.test_browser import setup_game
from tests.web.test_tables_web import built

from boardlab.web import create_app

pytestmark = pytest.mark.browser


@pytest.fixture
def damaged_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server of its own whose built 3×3 table has had its pack files overwritten."""
    tables = tmp_path / "tables"
    monkeypatch.setenv("BOARDLAB_TABLES", str(tables))
    for f in built(tables, 3):
        f.write_bytes(b"BLPACK\n" + b"\x00" * 64)
    with serving(create_app(tables=tables)) as url:
        yield url


def test_a_damaged_table_is_shown_as_damaged_and_can_be_rebuilt(
    browser: Any, damaged_server: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    page = context.new_page()
    errors = watch_errors(page)
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.goto(damaged_server + "/")
    page.wait_for_selector("body[data-ready='1']")
    setup_game(page, 3, "human", "4")
    page.wait_for_function(
        "() => document.getElementById('level-note').dataset.table === 'damaged'"
    )
    text = page.text_content("#level-text") or ""
    assert "damaged" in text and "rebuild it with: boardlab solve" in text, text
    assert "not built" not in text
    assert "damaged" in (page.text_content("#s-level4") or "")
    assert page.is_visible("#build-table")
    assert (page.text_content("#build-table") or "").startswith("Rebuild the table")
    shot(page, "table-damaged")

    page.click("[data-lang=ja]")
    page.wait_for_function(
        "() => document.getElementById('level-text').textContent.includes('壊れて')"
    )
    ja = page.text_content("#level-text") or ""
    assert "rebuild it with: boardlab solve" in ja  # the server's message, as it said it
    assert "作り直す" in (page.text_content("#build-table") or "")
    page.click("[data-lang=en]")

    page.click("#build-table")
    page.wait_for_function(
        "() => document.getElementById('level-note').dataset.table === 'ready'", timeout=120_000
    )
    assert "perfectly" in (page.text_content("#level-text") or "")
    assert not page.is_visible("#build-table")
    context.close()
    assert errors == [], f"console or page errors: {errors}"
