"""The search's estimate where no table exists (issue 38), in a real chromium: Dot Dash on
13×13 and Dodgem on 6×6 show the bar labelled as an estimate with its depth, and the best
line; the board does not move when the estimate arrives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.conftest import watch_errors

pytestmark = pytest.mark.browser

PHONE = (390, 844)
DESKTOP = (1440, 900)
# the board's box on the page (not the viewport: the phone scrolls to the analysis card)
BOARD_BOX = """() => { const r = document.getElementById('board').getBoundingClientRect();
  return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }"""
LINKS = {
    "dotdash-13": "game=dotdash&variant=standard&size=13&moves=G7-D7",
    "dodgem-6": "game=dodgem&variant=classic&size=6&moves=a2-b2,c1-c2",
}


@pytest.fixture
def open_link(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh page (empty storage) at a game link and a viewport, analysis switched on."""
    contexts: list[tuple[Any, list[str]]] = []

    def make(link: str, width: int, height: int) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
        pg = ctx.new_page()
        contexts.append((ctx, watch_errors(pg)))
        pg.set_default_timeout(60_000)
        pg.goto(f"{live_server}/#{link}")
        pg.wait_for_selector("body[data-ready='1']")
        return pg

    yield make
    for ctx, errors in contexts:
        ctx.close()
        assert errors == [], f"console or page errors: {errors}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("board", list(LINKS))
def test_the_estimate_appears_labelled_with_its_depth(
    open_link: Any, board: str, viewport: tuple[int, int]
) -> None:
    page = open_link(LINKS[board], *viewport)
    page.wait_for_selector("#board svg")
    before = page.evaluate(BOARD_BOX)
    page.check("#analysis-toggle", force=True)
    page.wait_for_selector("#estimate[data-state=estimate]")
    label = page.text_content("#est-label") or ""
    assert label.startswith("Estimate · depth ") and int(label.rsplit(" ", 1)[1]) > 0
    line = (page.text_content("#est-moves") or "").split()
    assert line  # the best line, first move first
    pct = page.text_content("#est-pct") or ""
    assert pct.endswith("%") and 1 <= int(pct.split()[-1].rstrip("%")) <= 99
    assert page.locator("#status-est").is_visible()  # the thin bar by the board too
    # the positions before are estimated as well, so the last move gets its mark
    page.wait_for_selector("#movelist .ply:is(.e-kept, .e-dubious, .e-mistake)")
    assert page.evaluate(BOARD_BOX) == before
