"""Page layouts at 1440×900 (issue 38's look at every page): the friend page keeps its board in
the wide left column beside its cards (the main page's three-column rules are its own)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_friend_page_keeps_its_board_on_the_left(open_page: Any, live_server: str) -> None:
    page = open_page(1440, 900)
    page.goto(live_server + "/friend")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#f-start")
    page.wait_for_selector("#f-play:not([hidden]) #board svg")
    board = page.locator("#board svg").bounding_box()
    match = page.locator("#f-side .card").first.bounding_box()
    assert board["x"] + board["width"] <= match["x"]  # the board, then the cards to its right
    assert board["width"] >= 450  # in the wide column
    assert page.is_visible("#flip")  # a board is shown: the flip switch with it
