"""Board flip (issue 38): the button or the f key turns the board half round for the viewer,
coordinates with it, remembered across a reload; a click or tap where a square or point is
drawn on the flipped board plays that square, for Dodgem and Dot Dash, on a phone and a
desktop. Every test also fails on a console or page error (see conftest)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PHONE = (390, 844)
DESKTOP = (1440, 900)
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drawn(loc: Any) -> dict[str, float]:
    """Where the element of locator `loc` is drawn, once it is: the board is drawn again when
    the players change, and an element between two drawings has no box."""
    for _ in range(100):
        loc.wait_for(state="visible")
        got = loc.bounding_box()
        if got is not None:
            return dict(got)
        loc.page.wait_for_timeout(50)
    raise AssertionError(f"{loc} is never drawn")


def box(page: Any, selector: str) -> dict[str, float]:
    return drawn(page.locator(selector))


def press_at(page: Any, selector: str, phone: bool) -> None:
    """Touch or click the screen where `selector` is drawn (by its place, not the element)."""
    x, y = centre(box(page, selector))
    if phone:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def moves_now(page: Any) -> str:
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('moves') || ''"))


def drawn_top_right(page: Any, a: str, b: str) -> bool:
    """Whether square `a` is drawn right of and above square `b`."""
    pa = box(page, f"[data-sq={a}]")
    pb = box(page, f"[data-sq={b}]")
    return bool(pa["x"] > pb["x"] and pa["y"] < pb["y"])


def two_humans(page: Any) -> None:
    page.select_option("#s-side0", "human", force=True)
    page.select_option("#s-side1", "human", force=True)


@VIEWPORTS
def test_a_flipped_dodgem_board_plays_the_square_clicked(
    open_page: Any, live_server: str, viewport: tuple[int, int]
) -> None:
    phone = viewport == PHONE
    page = open_page(*viewport)
    page.goto(f"{live_server}/#game=dodgem&variant=classic&size=3")
    page.wait_for_selector("[data-sq=c3]")
    two_humans(page)
    assert page.get_attribute("#flip", "aria-pressed") == "false"
    assert drawn_top_right(page, "c3", "a1")  # a1 bottom left, as the rules count
    page.click("#flip")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    # turned half round: a1 top right, c3 bottom left
    assert drawn_top_right(page, "a1", "c3")
    a_label = drawn(page.locator("#board text.coord", has_text="a").first)
    c_label = drawn(page.locator("#board text.coord", has_text="c").first)
    assert a_label["x"] > c_label["x"]  # the files read c b a from the left
    # Blue's car on a2 to b2, pressed where they are drawn now
    press_at(page, "[data-sq=a2]", phone)
    press_at(page, "[data-sq=b2]", phone)
    page.wait_for_function("() => location.hash.includes('moves=a2-b2')")
    # Red's car on b1 leaves by the edge drawn at the bottom now (its strip moved there)
    strip = drawn(page.locator(".exit-strip.exit-1"))
    board = drawn(page.locator("[data-sq=b1]"))
    assert strip["y"] > board["y"] + board["height"] - 1
    # remembered: the reloaded page is still flipped
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("[data-sq=c3]")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    assert drawn_top_right(page, "a1", "c3")
    if not phone:
        page.locator("body").press("f")  # the key flips back
        assert page.get_attribute("#flip", "aria-pressed") == "false"
        assert drawn_top_right(page, "c3", "a1")


# Red to move with one stone on G7 of 13×13, Blue one on B1
LONE = "13/13/13/13/13/13/6R6/13/13/13/13/13/1B11 r"


@VIEWPORTS
def test_a_flipped_dot_dash_board_plays_the_point_tapped(
    open_page: Any, live_server: str, viewport: tuple[int, int]
) -> None:
    phone = viewport == PHONE
    page = open_page(*viewport)
    page.goto(f"{live_server}/#game=dotdash&variant=standard&size=13&start={LONE}")
    page.wait_for_function("() => document.querySelectorAll('[data-pt]').length === 169")
    two_humans(page)
    b1 = drawn(page.locator("[data-pt=B1]"))
    if phone:
        page.tap("#flip")
    else:
        page.locator("body").press("f")
    assert page.get_attribute("#flip", "aria-pressed") == "true"
    # B1 is drawn where L13 was: top right, one point in from the corner
    flipped_b1 = drawn(page.locator("[data-pt=B1]"))
    assert flipped_b1["x"] > b1["x"] and flipped_b1["y"] < b1["y"]
    xs = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.dd-coord')]
            .map((t) => [t.textContent, t.getBoundingClientRect().x]))"""
    )
    assert xs["A"] > xs["M"]  # the columns read M … A from the left
    press_at(page, "[data-pt=G7]", phone)
    page.wait_for_selector("svg .selected")
    # G7 to G4 goes up the drawing now: the target is drawn above the stone
    stone = drawn(page.locator("[data-pt=G7]"))
    target = drawn(page.locator("circle.target[data-target=G4]"))
    assert target["y"] < stone["y"]
    press_at(page, "circle.target[data-target=G4]", phone)
    page.wait_for_function("() => location.hash.includes('G7-G4')")
    assert moves_now(page).upper() == "G7-G4"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", ["/", "/puzzles", "/review", "/friend"])
def test_the_flip_switch_leaves_the_phone_top_bar_inside_the_screen(
    open_page: Any, live_server: str, path: str, lang: str
) -> None:
    page = open_page(360, 740)
    page.evaluate(f"localStorage.setItem('boardlab.lang', '{lang}')")
    page.goto(live_server + path)
    page.wait_for_selector("body[data-ready='1']")
    # shown wherever a board is (the friend page's create form has none)
    assert page.is_visible("#flip") == (path != "/friend")
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.topbar *')]"
        ".map((e) => e.getBoundingClientRect().right))"
    )
    assert right <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
