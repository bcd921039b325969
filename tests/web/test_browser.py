"""The page in a real chromium: play by clicking, take a car off, watch 100 games, analysis
colours, the language switch and illegal-move explanations. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

import pytest
from tests.web.conftest import ensure_table, shot

pytestmark = pytest.mark.browser


def setup_game(page: Any, size: int, blue: str, red: str) -> None:
    page.select_option("#s-size", str(size))
    page.select_option("#s-side0", blue)
    page.select_option("#s-side1", red)
    page.click("#start")
    page.wait_for_function(
        "(n) => location.hash.includes(`size=${n}&`) || location.hash.endsWith(`size=${n}`)",
        arg=size,
    )
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-sq]').length === n * n", arg=size
    )


def open_link(page: Any, url: str) -> None:
    """Load the app at a link (a new document, so the hash is read on load)."""
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def current_moves(page: Any) -> list[str]:
    query = parse_qs(page.evaluate("location.hash").lstrip("#"))
    return query["moves"][0].split(",") if "moves" in query else []


def server_state(page: Any, moves: list[str], size: int) -> Any:
    body = json.dumps({"size": size, "moves": moves})
    return page.evaluate(
        "async (b) => (await fetch('/api/state', {method: 'POST', headers: "
        "{'Content-Type': 'application/json'}, body: b})).json()",
        body,
    )


def test_play_a_whole_3x3_game_against_level_4_by_clicking(page: Any) -> None:
    setup_game(page, 3, "human", "4")
    page.wait_for_selector("[data-sq=c3]")
    for _ in range(80):
        page.wait_for_function(
            "() => !document.getElementById('status-text').textContent.includes('thinking')"
        )
        moves = current_moves(page)
        state = server_state(page, moves, 3)
        if state["result"]:
            break
        if state["to_move"] != 0:
            page.wait_for_timeout(100)
            continue
        move = state["legal_moves"][-1]
        src, dst = move.split("-")
        if dst == "off":
            page.dblclick(f"[data-sq={src}]")
        else:
            page.click(f"[data-sq={src}]")
            page.click(f"[data-sq={dst}]")
        page.wait_for_function(
            "(n) => (new URLSearchParams(location.hash.slice(1)).get('moves') || '')"
            ".split(',').filter(Boolean).length > n",
            arg=len(moves),
        )
    else:
        pytest.fail("the game did not end")
    status = page.text_content("#status-text")
    assert "wins" in status or "Draw" in status
    assert page.locator("#record-games").get_attribute("data-games") == "1"
    assert page.locator("#movelist .ply").count() == len(current_moves(page))
    shot(page, "game-3x3-vs-level4")


def test_double_click_takes_a_car_off(page: Any, live_server: str) -> None:
    open_link(page, live_server + "/#game=dodgem&variant=classic&size=3&start=3/2B/R2%20b")
    page.wait_for_selector("[data-car=c2]")
    page.dblclick("[data-sq=c2]")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('wins')"
    )
    assert "Blue wins" in page.text_content("#status-text")
    assert page.locator("[data-car=c2]").count() == 0
    assert current_moves(page) == ["c2-off"]


def test_exit_marker_and_illegal_attempts_are_explained(page: Any, live_server: str) -> None:
    open_link(page, live_server + "/#game=dodgem&variant=classic&size=3&start=3/1BB/R2%20b")
    page.click("[data-sq=a1]")  # Red's car
    assert "Red" in page.text_content("#message")
    page.click("[data-sq=b2]")
    page.click("[data-sq=a3]")  # not a step
    assert "one square" in page.text_content("#message")
    page.click("[data-sq=b2]")
    page.wait_for_timeout(500)  # not a double click
    page.click("[data-sq=b2]")
    page.dblclick("[data-sq=b2]")  # b2 is not on the exit edge
    assert "leave the board" in page.text_content("#message")
    page.wait_for_timeout(500)
    page.click("[data-sq=c2]")
    page.click("[data-exit=c2]")
    page.wait_for_function("() => location.hash.includes('c2-off')")
    shot(page, "exit-marker")


def test_watch_100_games_at_instant_speed(page: Any) -> None:
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "1")
    page.select_option("#s-side1", "2")
    page.click("[data-speed='0']")
    page.click("#watch100")
    page.wait_for_selector("#run-progress:not([hidden])")
    page.wait_for_function(
        "() => document.getElementById('record-games')?.dataset.games === '100'", timeout=240_000
    )
    numbers = [int(x) for x in page.locator(".rec .n").all_text_contents()]
    assert sum(numbers) == 100
    assert page.locator("#run-progress").is_hidden()
    assert page.locator("#watch100").is_visible()
    shot(page, "watch-100")


def test_analysis_colours_moves_by_value(page: Any) -> None:
    setup_game(page, 3, "human", "human")
    page.check("#analysis-toggle", force=True)
    page.wait_for_selector("#move-values li", timeout=120_000)
    win = page.locator("#move-values li.v-win")
    assert win.count() == 1
    assert win.get_attribute("data-move") == "a3-b3"
    assert win.locator(".val").text_content() == "win 19"
    assert page.locator("#move-values li.v-loss").count() == 2
    green = win.evaluate("e => getComputedStyle(e).backgroundColor")
    red = page.locator("#move-values li.v-loss").first.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert green == "rgb(31, 157, 99)" and red == "rgb(214, 69, 65)"
    assert "wins in 19" in page.text_content("#value-line")
    page.click("[data-sq=a3]")
    assert page.locator("circle.target.v-win").count() == 1
    page.click("[data-sq=b3]")
    page.wait_for_selector("#chart circle.pt[data-ply='1']")
    assert page.locator("#chart circle.pt.v-win").count() == 2  # both points favour Blue
    shot(page, "analysis")


def test_language_switch_is_remembered(page: Any, live_server: str) -> None:
    page.click("[data-lang=ja]")
    assert page.text_content("[data-i18n='setup.title']") == "新しい対局"
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "手番" in page.text_content("#status-text")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.text_content("#start") == "開始"
    page.click("#help-open")
    assert "ドッジェムの遊び方" in page.text_content("#help-body")
    shot(page, "help-ja")
    page.click("#help-dialog button[value=close]")
    page.click("[data-lang=en]")
    assert page.text_content("#start") == "Start"


def test_settings_are_remembered_and_link_restores_moves(page: Any, live_server: str) -> None:
    setup_game(page, 5, "human", "human")
    page.click("[data-sq=a2]")
    page.click("[data-sq=b2]")
    page.wait_for_function("() => location.hash.includes('a2-b2')")
    link = page.evaluate("location.href")
    open_link(page, live_server + "/")
    assert page.input_value("#s-size") == "5"
    open_link(page, link)
    assert current_moves(page) == ["a2-b2"]
    assert page.locator("[data-car=b2]").count() == 1
    page.click("#undo")
    page.wait_for_function("() => !location.hash.includes('a2-b2')")
    page.click("#redo")
    page.wait_for_function("() => location.hash.includes('a2-b2')")


def test_phone_width_layout(browser: Any, live_server: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(live_server + "/#game=dodgem&variant=classic&size=4")
    page.wait_for_selector("body[data-ready='1']")
    box = page.locator("#board svg").bounding_box()
    assert box["width"] <= 390 and box["width"] > 300
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow
    page.tap("[data-sq=a2]")
    page.tap("[data-sq=b2]")
    page.wait_for_function("() => location.hash.includes('a2-b2')")
    shot(page, "phone", full_page=False)
    page.tap("[data-lang=ja]")
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    shot(page, "phone-ja", full_page=False)
    context.close()


def test_dot_dash_move_fives_and_pie_setup(page: Any, live_server: str) -> None:
    # Blue has five in a row on row 1; Red slides G7-G4 (7x7), dropping stones on G6 and G5,
    # and Blue, with more fives at the start of its turn, wins.
    start = "6R/7/7/7/7/7/BBBBB2 r"
    open_link(page, f"{live_server}/#game=dotdash&variant=standard&size=7&start={start}")
    assert page.locator(".dd-five.c-blue").count() == 1
    assert "fives 1" in page.text_content(".dd-side.c-blue")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "human")
    page.click("[data-pt=G7]")
    page.click("[data-pt=G5]")  # only two points: not a legal slide
    assert "three points" in page.text_content("#message")
    page.click("[data-pt=G4]")
    page.wait_for_function("() => location.hash.includes('G7-G4')")
    assert page.locator("[data-stone=G6]").count() == 1
    assert page.locator("[data-stone=G5]").count() == 1
    assert "Blue wins" in page.text_content("#status-text")
    shot(page, "dotdash")
    page.click("#start")
    page.wait_for_function("() => !location.hash.includes('start=')")
    page.click("#pie-setup")
    for point in ("D4", "D5", "E4"):
        page.click(f"[data-pt={point}]")
    page.click("#pie-dialog [data-choose=B]")
    page.wait_for_function("() => location.hash.includes('start=setup')")
    assert page.locator("[data-stone=D4]").count() == 1
    assert "Red to move" in page.text_content("#status-text")


def test_keyboard_play_and_exit(page: Any, live_server: str) -> None:
    open_link(page, f"{live_server}/#game=dodgem&variant=classic&size=3&start=3/B1B/1R1 b")
    page.select_option("#s-side1", "human")
    page.focus("#board svg")
    page.keyboard.press("ArrowUp")  # the cursor starts on a blue car (a2); up is a3
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # pick up a2
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # put it on b2
    page.wait_for_function("() => location.hash.includes('a2-b2')")
    page.click("[data-sq=b1]")  # red b1-a1
    page.click("[data-sq=a1]")
    page.wait_for_function("() => location.hash.includes('b1-a1')")
    page.focus("#board svg")
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):  # the cursor follows clicks: a1 to c2
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # Enter on the picked-up car: off the board
    page.wait_for_function("() => location.hash.includes('c2-off')")


def test_watch_one_game_then_stop(page: Any) -> None:
    page.select_option("#s-size", "4")
    page.select_option("#s-side0", "1")
    page.select_option("#s-side1", "1")
    page.click("[data-speed='300']")
    page.click("#start")
    page.wait_for_function("() => (location.hash.split('moves=')[1] || '').split(',').length >= 3")
    page.click("#pause")
    stopped = len(current_moves(page))
    page.wait_for_timeout(1200)
    assert len(current_moves(page)) == stopped
    assert "paused" in page.text_content("#status-text")
    page.click("#pause")  # Continue
    page.wait_for_function("(n) => location.hash.split(',').length > n", arg=stopped)


def test_alternate_colours_each_new_game(page: Any) -> None:
    page.select_option("#s-size", "4")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "1")
    page.check("#s-alternate")
    page.click("#start")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('You')"
    )
    assert "Blue to move (You)" in page.text_content("#status-text")
    page.click("#start")
    # now the computer has Blue and moves first; the human plays Red
    page.wait_for_function("() => location.hash.includes('moves=')")
    assert "Red to move (You)" in page.text_content("#status-text")


def test_import_a_record_and_export_it_again(page: Any) -> None:
    record = '[Game "dodgem"]\n[Variant "classic"]\n[Size "3"]\n\n1. a2-b2 c1-c2 2. b2-b3 *\n'
    page.click("#import")
    page.fill("#record-text", "1. a2-c2")
    page.click("#record-load")
    # No Size tag: explained, and the dialog stays (the answer comes from the server).
    page.locator("#record-error").wait_for(state="visible", timeout=10_000)
    assert page.text_content("#record-error")
    page.fill("#record-text", record)
    page.click("#record-load")
    page.wait_for_function("() => location.hash.includes('moves=a2-b2,c1-c2,b2-b3')")
    assert page.input_value("#s-size") == "3"
    page.click("#export")
    text = page.input_value("#record-text")
    assert "1. a2-b2 c1-c2 2. b2-b3" in text
    page.click("#record-dialog button[value=close]")


def test_notice_when_the_computer_has_a_forced_win(page: Any, live_server: str) -> None:
    ensure_table(live_server, 3)  # so the move answer carries the table's forced win
    setup_game(page, 3, "4", "human")  # the computer has Blue, a first-player win
    page.wait_for_selector("#notice:not([hidden])")
    text = page.text_content("#notice")
    assert "Computer level 4" in text and "forced win" in text and "18 plies" in text
