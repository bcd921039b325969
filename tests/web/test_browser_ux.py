"""The page as players expect it (issue 12), in a real chromium: the phone layout, every
control in view on a desktop, Help at its top, Watch in one click, the record kept in the
browser, Resign, the forced-win notice, level 4's honesty about search, and the Dot Dash pie
seating. Every test also fails on a console or page error (see conftest)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.conftest import ensure_table, shot, watch_errors

pytestmark = pytest.mark.browser


def status_has(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.getElementById('status-text').textContent.includes(t)", arg=text
    )


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    return (
        bool(box)
        and box["y"] >= 0
        and box["x"] >= 0
        and (box["y"] + box["height"] <= vh + 0.5 and box["x"] + box["width"] <= vw + 0.5)
    )


def test_phone_board_in_view_after_start(open_page: Any) -> None:
    page = open_page(390, 844)
    assert page.locator("#board svg").is_visible()
    assert not page.locator("#start").is_visible()  # the sheet is closed
    page.tap("#new-game")
    page.wait_for_selector("#start", state="visible")
    page.select_option("#s-size", "5")
    page.tap("#start")
    page.wait_for_function("() => document.querySelectorAll('[data-sq]').length === 25")
    page.wait_for_selector("#start", state="hidden")
    page.wait_for_timeout(300)
    assert in_view(page, "#board svg")
    assert in_view(page, "#status")
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_desktop_every_control_in_view(open_page: Any) -> None:
    page = open_page(1440, 900)
    controls = [
        "#s-game", "#s-variant", "#s-size", "#s-side0", "#s-side1", "#s-alternate",
        "#start", "#watch", "#watch100", "[data-speed='0']", "#undo", "#redo", "#resign",
        "#swap", "#record-reset", "#analysis-toggle + .slider", "#export", "#import",
        "#copy-link", "#help-open", "[data-lang=ja]", "#sound", "#board svg",
    ]  # fmt: skip
    for lang in ("en", "ja"):
        page.click(f"[data-lang={lang}]")
        hidden = [c for c in controls if not page.locator(c).is_visible() or not in_view(page, c)]
        assert hidden == [], f"{lang}: not in view without scrolling: {hidden}"
    assert page.evaluate("document.documentElement.scrollHeight") <= 900 + 1


def test_help_opens_at_its_top(page: Any) -> None:
    for lang, title in (("en", "Dodgem: how to play"), ("ja", "ドッジェムの遊び方")):
        page.click(f"[data-lang={lang}]")
        page.click("#help-open")
        dialog = page.locator("#help-dialog")
        assert dialog.evaluate("d => d.scrollTop") == 0
        assert in_view(page, "#help-body h2 >> nth=0")
        assert page.locator("#help-body h2").first.text_content() == title
        page.keyboard.press("Escape")


def test_japanese_help_has_no_stray_spaces(page: Any) -> None:
    page.click("[data-lang=ja]")
    page.click("#help-open")
    text = page.text_content("#help-body")
    # a space between two Japanese characters is a stray line break of the source
    assert not re.search(r"[぀-ヿ一-鿿]\s+[぀-ヿ一-鿿]", text)


def test_watch_is_one_click_from_a_fresh_page(page: Any) -> None:
    page.click("#watch")
    page.wait_for_function("() => location.hash.includes('moves=')")
    # computers play both sides; the menus keep the seats chosen there (issue 38)
    assert (page.input_value("#s-side0"), page.input_value("#s-side1")) == ("human", "3")
    assert page.locator("#pause").is_visible()
    assert "You" not in page.text_content("#status-text")
    page.click("#pause")
    assert page.text_content("#pause") == "Continue"


def test_record_survives_reload_resign_counts_and_links_do_not(page: Any, live_server: str) -> None:
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "1")
    page.click("#start")
    page.wait_for_selector("[data-sq=c3]")
    page.click("#record-reset")
    assert page.locator("#pause").is_hidden()  # no Pause on your own turn
    page.click("#resign")
    page.click("#resign-yes")  # resign asks first
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('resignation')"
    )
    assert "Red wins" in page.text_content("#status-text")
    assert page.locator("#record-games").get_attribute("data-games") == "1"
    assert page.locator(".rec-b .n").text_content() == "1"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#record-games").get_attribute("data-games") == "1"
    # a finished game opened from a link does not count
    page.goto("about:blank")
    page.goto(live_server + "/#game=dodgem&variant=classic&size=3&start=3/2B/R2%20b&moves=c2-off")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('wins')"
    )
    page.wait_for_timeout(300)
    assert page.locator("#record-games").get_attribute("data-games") == "1"
    page.click("#record-reset")
    assert page.locator("#record-games").get_attribute("data-games") == "0"


@pytest.mark.parametrize("level", ["1", "2", "3"])
def test_no_forced_win_notice_below_level_4(page: Any, level: str) -> None:
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", level)
    page.select_option("#s-side1", "human")
    page.click("#start")
    page.wait_for_function("() => location.hash.includes('moves=')")
    page.wait_for_timeout(500)
    assert page.locator("#notice").is_hidden()


def test_forced_win_notice_for_level_4_with_plurals(page: Any, live_server: str) -> None:
    ensure_table(live_server, 3)
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "4")
    page.select_option("#s-side1", "human")
    page.click("#start")
    page.wait_for_selector("#notice:not([hidden])")
    text = page.text_content("#notice")
    assert "Computer level 4" in text and "forced win in 9 moves (18 plies)" in text
    # one move and one ply: Blue to move takes its last car off (analysis shows the notice)
    page.select_option("#s-side0", "human")
    page.goto("about:blank")
    page.goto(live_server + "/#game=dodgem&variant=classic&size=3&start=3/2B/R2%20b")
    page.wait_for_selector("body[data-ready='1']")
    page.check("#analysis-toggle", force=True)
    page.wait_for_selector("#notice:not([hidden])", timeout=60_000)
    assert "forced win in 1 move (1 ply)" in page.text_content("#notice")


def test_level_4_without_a_table_says_it_plays_by_search(page: Any) -> None:
    page.select_option("#s-size", "5")
    page.select_option("#s-side1", "4")
    # offered as soon as it is chosen, before Start
    page.wait_for_selector("#level-note:not([hidden])")
    assert "plays by search" in page.text_content("#level-text")
    assert "about 2 min" in page.text_content("#build-table")
    assert page.locator("#build-table").is_visible()
    page.click("#start")
    page.wait_for_selector("#level-note:not([hidden])")
    assert "plays by search" in page.text_content("#level-text")
    assert page.locator("#build-table").is_visible()
    # Dot Dash has no tables at all
    page.select_option("#s-game", "dotdash")
    page.select_option("#s-side1", "4")
    page.wait_for_function(
        "() => document.getElementById('s-level4').textContent.includes('no perfect-play tables')"
    )


def test_dot_dash_pie_human_takes_red(page: Any) -> None:
    page.select_option("#s-game", "dotdash")
    page.select_option("#s-size", "9")
    page.select_option("#s-side0", "2")
    page.select_option("#s-side1", "human")
    page.click("#start")
    page.wait_for_selector("#pie-setup")
    page.click("#pie-setup")
    page.click("#pie-who [data-placer=computer]")
    page.wait_for_selector("#pie-dialog")
    page.click("#pie-dialog [data-choose=R]")
    page.wait_for_function("() => location.hash.includes('start=setup')")
    assert (page.input_value("#s-side0"), page.input_value("#s-side1")) == ("human", "2")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.startsWith('Red to move (You)')"
    )
    assert "you chose red; the computer plays blue" in page.text_content("#message").lower()
    # the computer moved at most once, for blue (when blue held the single stone)
    moves = page.evaluate("(new URLSearchParams(location.hash.slice(1)).get('moves') || '')")
    assert len([m for m in moves.split(",") if m]) <= 1
    page.wait_for_timeout(800)
    assert page.text_content("#status-text").startswith("Red to move (You)")


def test_screenshots_phone_and_desktop_light_and_dark(open_page: Any) -> None:
    for width, height, name in ((390, 844, "phone"), (1440, 900, "desktop")):
        for scheme in ("light", "dark"):
            for lang in ("en", "ja"):
                page = open_page(width, height, "ja-JP" if lang == "ja" else "en-GB", scheme)
                page.click(f"[data-lang={lang}]")
                page.wait_for_timeout(200)
                shot(page, f"ux-{name}-{lang}-{scheme}", full_page=False)


def test_phone_sheet_offers_the_level_4_table_up_front(open_page: Any) -> None:
    page = open_page(390, 844)
    page.tap("#new-game")
    page.select_option("#s-size", "5")
    page.select_option("#s-side1", "4")
    page.wait_for_selector("#s-level4-box", state="visible")
    assert "plays by search" in page.text_content("#s-level4")
    assert page.locator("#s-build").is_visible()
    assert "about 2 min" in page.text_content("#s-build")


def test_moves_glide_unless_reduced_motion_is_preferred(browser: Any, live_server: str) -> None:
    for motion, expected in (("no-preference", True), ("reduce", False)):
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion=motion)
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/#game=dodgem&variant=classic&size=3")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#s-side1", "human")
        # count the animations started from now on (each lasts only a fifth of a second)
        page.evaluate(
            "() => { window.started = 0; const animate = Element.prototype.animate;"
            " Element.prototype.animate = function (...a) { window.started += 1;"
            " return animate.apply(this, a); }; }"
        )
        page.click("[data-sq=a2]")
        page.click("[data-sq=b2]")
        page.wait_for_function("() => location.hash.includes('a2-b2')")
        page.wait_for_selector("[data-car=b2]")
        moving = page.evaluate("() => window.started > 0")
        assert moving == expected, motion
        # the last move stays marked, from a2 to b2
        assert page.locator(".last-trace").count() == 1
        assert page.locator("rect.sq.last").count() == 2
        ctx.close()
        assert errors == []


def test_dark_mode_follows_the_system_and_sound_is_remembered(open_page: Any) -> None:
    light = open_page(1280, 860, scheme="light")
    dark = open_page(1280, 860, scheme="dark")
    bg = "() => getComputedStyle(document.documentElement).backgroundColor"
    lum = [
        sum(int(x) for x in p.evaluate(bg).strip("rgba()").split(",")[:3]) for p in (light, dark)
    ]
    assert lum[0] > 600 and lum[1] < 150
    assert dark.get_attribute("#sound", "aria-pressed") == "false"  # off unless switched on
    dark.click("#sound")
    assert dark.get_attribute("#sound", "aria-pressed") == "true"
    dark.reload()
    dark.wait_for_selector("body[data-ready='1']")
    assert dark.get_attribute("#sound", "aria-pressed") == "true"


def test_a_finished_game_shows_no_move_values_and_the_list_says_who_resigned(page: Any) -> None:
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "1")
    page.click("#start")
    page.check("#analysis-toggle", force=True)
    page.wait_for_selector("circle.badge", timeout=60_000)  # each car's best move value
    page.click("#resign")
    page.click("#resign-yes")  # resign asks first
    status_has(page, "resignation")
    assert page.locator("circle.badge").count() == 0
    assert page.locator("#movelist li.end").text_content() == "Blue resigned"
    page.click("[data-lang=ja]")
    assert page.locator("#movelist li.end").text_content() == "青の投了"


def test_help_close_is_in_view_without_scrolling_on_a_phone(open_page: Any) -> None:
    for lang in ("en", "ja"):
        page = open_page(390, 844, "ja-JP" if lang == "ja" else "en-GB")
        page.click(f"[data-lang={lang}]")
        page.click("#help-open")
        close = "#help-dialog button[value=close]"
        assert page.locator("#help-dialog").evaluate("d => d.scrollHeight > d.clientHeight")
        assert in_view(page, close)
        page.click(close)
        assert page.locator("#help-dialog").is_hidden()


def test_desktop_controls_stay_in_view_with_the_notice_a_message_and_the_level_note(
    open_page: Any, live_server: str
) -> None:
    ensure_table(live_server, 3)  # level 4 never builds inside a move
    page = open_page(1440, 900)
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "4")
    page.click("#start")
    page.wait_for_selector("#level-note:not([hidden])")
    page.click("[data-sq=a2]")
    page.click("[data-sq=a1]")
    page.wait_for_selector("#notice:not([hidden])", timeout=60_000)
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('(You)')"
    )
    page.click("[data-sq=a3]")
    page.click("[data-sq=c1]")  # not a step: the page explains
    page.wait_for_selector("#message:not([hidden])")
    for c in ("#status", "#notice", "#board svg", "#undo", "#resign", "#swap", "#level-note"):
        assert in_view(page, c), c


def test_help_on_a_dot_dash_board_opens_at_dot_dash(page: Any) -> None:
    page.select_option("#s-game", "dotdash")
    page.click("#start")
    page.wait_for_selector("[data-pt]")
    for lang, title in (("en", "Dot Dash"), ("ja", "ドットダッシュ")):
        page.click(f"[data-lang={lang}]")
        page.click("#help-open")
        assert page.locator("#help-body h2").first.text_content() == title
        assert in_view(page, "#help-body h2 >> nth=0")
        page.keyboard.press("Escape")
