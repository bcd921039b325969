"""Dot Dash 13x13 on a phone: a first tap zooms the board so that each point is a comfortable
finger target, the next tap plays, and "Zoom out" brings the whole board back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.conftest import shot, watch_errors

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# Red to move with a stone on M13 (13x13); Blue has five on row 1
START = "12R/" + "13/" * 11 + "BBBBB8 r"


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    pg = context.new_page()
    errors = watch_errors(pg)
    pg.set_default_timeout(20_000)
    yield pg
    context.close()
    assert errors == [], f"console or page errors: {errors}"


def open_13(page: Any, live_server: str, start: str | None = None) -> None:
    link = f"{live_server}/#game=dotdash&variant=standard&size=13"
    page.goto(link + (f"&start={start}" if start else ""))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("() => document.querySelectorAll('[data-pt]').length === 169")


def target(page: Any, point: str) -> float:
    """The tap target of `point` as drawn on screen: the smaller side, in CSS pixels (once
    the point is drawn: the board is redrawn after each move)."""
    # found and measured in one step in the page: between two steps the board may be
    # redrawn and the element found first gone
    size = page.wait_for_function(
        """(p) => {
            const el = document.querySelector(`[data-pt=${p}]`);
            const r = el && el.getBoundingClientRect();
            return r && r.width > 0 && r.height > 0 ? Math.min(r.width, r.height) : null;
        }""",
        arg=point,
    )
    return float(size.json_value())


def test_first_tap_zooms_then_a_tap_places_a_pie_stone(phone: Any, live_server: str) -> None:
    page = phone
    open_13(page, live_server)
    before = target(page, "G7")
    assert before < 30  # what a phone gives a 13x13 board without zooming
    page.tap("#pie-setup")
    page.tap("#pie-who [data-placer=me]")  # against the computer: I place, it chooses
    page.tap("[data-pt=D4]")
    # the first tap only zoomed: nothing placed, the bar says where and offers to zoom out
    assert page.locator("[data-stone]").count() == 0
    assert page.is_visible("#dd-zoom-out")
    assert "D4" in page.text_content(".dd-zoom-where")
    after = target(page, "D4")
    assert after >= 44, f"zoomed target {after:.1f} px (was {before:.1f} px)"
    # the zoomed board stays inside the page and scrolls inside its own square
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    box = page.locator("[data-pt=D4]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # the coordinates stay readable: column D and row 4 are shown on the visible edges
    view = page.locator(".dd-scroller").bounding_box()
    for ruler, label in ((".dd-ruler.cols", "D"), (".dd-ruler.rows", "4")):
        text = page.locator(f"{ruler} text", has_text=label).first.bounding_box()
        assert view["x"] <= text["x"] and text["x"] + text["width"] <= view["x"] + view["width"]
        assert view["y"] <= text["y"] and text["y"] + text["height"] <= view["y"] + view["height"]
        assert text["height"] >= 14  # CSS pixels
    shot(page, "dotdash13-phone-zoomed", full_page=False)
    page.tap("[data-pt=D4]")
    assert page.locator("[data-stone=D4]").count() == 1
    # still zoomed for the next stones: they go in with one tap each
    page.tap("[data-pt=D5]")
    page.tap("[data-pt=E4]")
    assert page.locator("[data-stone]").count() == 3
    assert page.is_hidden("#dd-zoom-out")  # all three placed: the whole board again
    assert target(page, "G7") == pytest.approx(before, abs=0.5)
    page.wait_for_function("() => location.hash.includes('start=setup')")
    assert page.locator("[data-stone=D4]").count() == 1


def test_zoomed_slide_and_zoom_out(phone: Any, live_server: str) -> None:
    page = phone
    open_13(page, live_server, START)
    # two humans (the setup sheet is closed on a phone)
    page.select_option("#s-side0", "human", force=True)
    page.select_option("#s-side1", "human", force=True)
    page.tap("[data-pt=M13]")  # zooms near Red's stone
    assert page.is_visible("#dd-zoom-out")
    assert page.locator(".dd-board .selected, svg .selected").count() == 0
    page.tap("#dd-zoom-out")
    assert page.is_hidden("#dd-zoom-out")
    page.tap("[data-pt=M12]")  # zoom again, elsewhere
    assert target(page, "M12") >= 44
    page.tap("[data-pt=M13]")  # select
    assert page.locator("svg .selected").count() == 1
    page.locator("[data-pt=M10]").scroll_into_view_if_needed()
    page.tap("[data-pt=M10]")  # slide: the move is made and the board zooms out
    page.wait_for_function("() => location.hash.includes('M13-M10')")
    assert page.locator("[data-stone=M11]").count() == 1
    assert page.is_hidden("#dd-zoom-out")


def test_desktop_mouse_clicks_play_at_once(page: Any, live_server: str) -> None:
    """A mouse on a wide screen never zooms: one click selects."""
    page.goto(f"{live_server}/#game=dotdash&variant=standard&size=13&start={START}")
    page.wait_for_function("() => document.querySelectorAll('[data-pt]').length === 169")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "human")
    page.click("[data-pt=M13]")
    assert page.locator("svg .selected").count() == 1
    assert page.is_hidden("#dd-zoom-out")
