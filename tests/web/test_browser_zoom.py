"""Dot Dash by touch on a phone (issue 38): a tap on a stone at full size selects it and shows
every destination, a second tap plays one, with no zoom and no pan, on 13×13 and 19×19; the
destinations stay clear of the coordinates; zoom is there on demand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.conftest import PAGE_TIMEOUT_MS, shot, watch_errors

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# Red to move with a stone on M13 (13x13); Blue has five on row 1
START = "12R/" + "13/" * 11 + "BBBBB8 r"


def lone_red(n: int) -> tuple[str, str]:
    """A position with one red stone in the middle of an empty n×n board (and a blue one on
    B1, off its lines), Red to move; and the red stone's point."""
    mid = n // 2
    rows = []
    for i in range(n):
        r = n - 1 - i
        if r == mid:
            rows.append(f"{mid}R{n - 1 - mid}")
        elif r == 0:
            rows.append(f"1B{n - 2}")
        else:
            rows.append(str(n))
    return "/".join(rows) + " r", f"{'ABCDEFGHIJKLMNOPQRS'[mid]}{mid + 1}"


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    pg = context.new_page()
    errors = watch_errors(pg)
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    yield pg
    context.close()
    assert errors == [], f"console or page errors: {errors}"


def open_board(page: Any, live_server: str, n: int, start: str | None = None) -> None:
    link = f"{live_server}/#game=dotdash&variant=standard&size={n}"
    page.goto(link + (f"&start={start}" if start else ""))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(f"() => document.querySelectorAll('[data-pt]').length === {n * n}")
    # two humans (the setup sheet is closed on a phone)
    page.select_option("#s-side0", "human", force=True)
    page.select_option("#s-side1", "human", force=True)


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def targets(page: Any) -> dict[str, dict[str, float]]:
    """The destination dots drawn now, by point, with their boxes on screen."""
    got = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('circle.target')].map((c) => {
            const r = c.getBoundingClientRect();
            return [c.dataset.target, {x: r.x, y: r.y, width: r.width, height: r.height}];
        }))"""
    )
    return dict(got)


def select(page: Any, point: str) -> dict[str, dict[str, float]]:
    """Tap the stone on `point` (at full size) and return its destinations."""
    x, y = centre(page.locator(f"[data-pt={point}]").bounding_box())
    page.touchscreen.tap(x, y)
    page.wait_for_selector("svg .selected")
    return targets(page)


def reachable_without_pan(page: Any, dots: dict[str, dict[str, float]]) -> None:
    """Every dot lies on the visible page and inside the board's own view, clear of the
    coordinates, with nothing zoomed or scrolled."""
    assert page.evaluate("window.scrollX === 0 && window.scrollY === 0")
    assert not page.locator(".dd-scroller.zoomed").count()
    view = page.locator(".dd-scroller").bounding_box()
    labels = page.evaluate(
        """() => [...document.querySelectorAll('.dd-coord')].map((t) => {
            const r = t.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    for point, box in dots.items():
        x, y = centre(box)
        assert 0 <= x <= PHONE["width"] and 0 <= y <= PHONE["height"], point
        assert view["x"] <= x <= view["x"] + view["width"], point
        assert view["y"] <= y <= view["y"] + view["height"], point
        assert box["width"] >= 9.5, f"{point}: a {box['width']:.1f} px dot is hard to see"
        assert not any(overlaps(box, lab) for lab in labels), f"{point} under a coordinate"


def moves_now(page: Any) -> str:
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('moves') || ''"))


def test_every_slide_on_13x13_in_two_taps_without_zoom_or_pan(phone: Any, live_server: str) -> None:
    page = phone
    start, stone = lone_red(13)
    open_board(page, live_server, 13, start)
    dots = select(page, stone)
    assert len(dots) == 32  # 8 directions, 3 to 6 points each
    reachable_without_pan(page, dots)
    shot(page, "dotdash13-phone-selected", full_page=False)
    for point, box in dots.items():
        if not page.locator("svg .selected").count():
            select(page, stone)
        page.touchscreen.tap(*centre(box))
        page.wait_for_function("(m) => location.hash.includes(m)", arg=f"{stone}-{point}")
        page.click("#undo")
        page.wait_for_function("() => !location.hash.includes('moves=')")
    assert moves_now(page) == ""


def test_19x19_every_destination_in_view_and_a_near_miss_still_plays(
    phone: Any, live_server: str
) -> None:
    page = phone
    start, stone = lone_red(19)
    open_board(page, live_server, 19, start)
    dots = select(page, stone)
    assert len(dots) == 56  # 8 directions, 3 to 9 points each
    reachable_without_pan(page, dots)
    # a finger lands a few pixels off: the nearest destination is played
    x, y = centre(dots["J4"])
    page.touchscreen.tap(x + 5, y - 4)
    page.wait_for_function("() => location.hash.includes('J10-J4')")


def test_a_tap_beside_a_small_stone_selects_it(phone: Any, live_server: str) -> None:
    page = phone
    start, stone = lone_red(19)
    open_board(page, live_server, 19, start)
    x, y = centre(page.locator(f"[data-pt={stone}]").bounding_box())
    page.touchscreen.tap(x + 9, y + 7)  # over a neighbouring point, nearer the stone's reach
    page.wait_for_selector("svg .selected")


def test_zoom_on_demand_and_back(phone: Any, live_server: str) -> None:
    page = phone
    open_board(page, live_server, 13, START)
    board = page.locator(".dd-scroller").bounding_box()
    page.tap("[data-pt=M13]")  # selects at once: no zoom on the first tap
    assert page.locator("svg .selected").count() == 1
    assert not page.locator(".dd-scroller.zoomed").count()
    page.tap("#dd-zoom")
    assert page.locator(".dd-scroller.zoomed").count() == 1
    size = page.locator("[data-pt=M12]").bounding_box()
    assert min(size["width"], size["height"]) >= 44
    assert page.text_content("#dd-zoom") == "Zoom out"
    assert page.locator(".dd-scroller").bounding_box() == board  # the board stays put
    shot(page, "dotdash13-phone-zoomed", full_page=False)
    page.locator("[data-pt=M10]").scroll_into_view_if_needed()
    page.tap("[data-pt=M10]")  # the slide is made and the whole board comes back
    page.wait_for_function("() => location.hash.includes('M13-M10')")
    assert not page.locator(".dd-scroller.zoomed").count()
    assert page.text_content("#dd-zoom") == "Zoom in"


def test_pie_stones_go_in_with_one_tap_each(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/#game=dotdash&variant=standard&size=13")
    page.wait_for_selector("body[data-ready='1']")
    page.tap("#pie-setup")
    page.tap("#pie-who [data-placer=me]")  # against the computer: I place, it chooses
    for point in ("D4", "D5", "E4"):
        page.tap(f"[data-pt={point}]")
    page.wait_for_function("() => location.hash.includes('start=setup')")
    assert page.locator("[data-stone=D4]").count() == 1


def test_desktop_mouse_clicks_play_at_once(page: Any, live_server: str) -> None:
    """A mouse on a wide screen: one click selects, and nothing zooms."""
    page.goto(f"{live_server}/#game=dotdash&variant=standard&size=13&start={START}")
    page.wait_for_function("() => document.querySelectorAll('[data-pt]').length === 169")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "human")
    page.click("[data-pt=M13]")
    assert page.locator("svg .selected").count() == 1
    assert page.locator(".dd-scroller.zoomed").count() == 0
