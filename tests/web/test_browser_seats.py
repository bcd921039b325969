"""The New game sheet's seat menus read whole (issue 38): "Computer level 3 · rated 1125" and
its Japanese are not cut off, in the narrow left column of a wide screen or on a phone."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# the native menu's arrow sits inside the box, beside the text
ARROW = 24

WIDEST = """() => [...document.querySelectorAll('.setup label.side-row select')].map((sel) => {
  const cs = getComputedStyle(sel);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const texts = [...sel.options].map((o) => o.text);
  const widest = Math.max(...texts.map((t) => ctx.measureText(t).width));
  const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return {room, widest, texts};
})"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("viewport", [(390, 844), (1440, 900)], ids=["phone", "desktop"])
@pytest.mark.parametrize("game", ["dodgem&size=4", "dotdash&size=13"])
def test_seat_menus_show_their_whole_text(
    open_page: Any, live_server: str, viewport: tuple[int, int], lang: str, game: str
) -> None:
    page = open_page(*viewport)
    page.evaluate(f"localStorage.setItem('boardlab.lang', '{lang}')")
    page.goto(f"{live_server}/#game={game}")
    page.wait_for_selector("body[data-ready='1']")
    if page.locator("#new-game").is_visible():
        page.click("#new-game")  # the phone's sheet
    page.wait_for_function(
        "() => [...document.querySelectorAll('#s-side1 option')].some((o) => o.text.includes('·'))"
    )
    menus = page.evaluate(WIDEST)
    assert len(menus) == 2
    for menu in menus:
        assert any("1" in t and "·" in t for t in menu["texts"])  # ratings are in the names
        assert menu["widest"] <= menu["room"] - ARROW, menu
