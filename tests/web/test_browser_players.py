"""What a player runs into while playing (issue 38), in a real chromium on a phone and a
desktop: the board never moves while the computer replies, a reloaded game is still played
here, Watch leaves the seats as chosen, the end-of-game card and a resign that asks first.
Every test also fails on a console or page error (see conftest)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import PAGE_TIMEOUT_MS, ensure_table

pytestmark = pytest.mark.browser

PHONE = (390, 844)
DESKTOP = (1440, 900)


def start_3x3(page: Any, red: str) -> None:
    """A 3×3 classic game, the human on Blue against `red`."""
    if page.locator("#new-game").is_visible():
        page.click("#new-game")
    page.select_option("#s-game", "dodgem")
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", red)
    page.click("#start")
    page.wait_for_selector("[data-sq=c3]")


def hash_moves(page: Any) -> list[str]:
    got = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('moves') || ''")
    return [m for m in str(got).split(",") if m]


def wait_for(page: Any, expression: str, arg: Any = None) -> None:
    """`page.wait_for_function`, whose timeout says what the page showed meanwhile."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(expression, arg=arg)
    except PageTimeout as exc:
        shown = page.evaluate(
            "() => [location.hash, document.getElementById('status-text').textContent,"
            " document.getElementById('message').textContent]"
        )
        raise AssertionError(
            f"waited {PAGE_TIMEOUT_MS} ms for {expression!r}; the page showed {shown}"
        ) from exc


def play(page: Any, move: str) -> None:
    """Play `move` ("a2-b2") by two clicks and wait until the server has it."""
    before = len(hash_moves(page))
    src, dst = move.split("-")
    page.click(f"[data-sq={src}]")
    page.click(f"[data-sq={dst}]")
    wait_for(
        page,
        "(n) => (new URLSearchParams(location.hash.slice(1)).get('moves') || '')"
        ".split(',').filter(Boolean).length > n",
        before,
    )


def your_turn(page: Any) -> None:
    wait_for(page, "() => document.getElementById('status-text').textContent.includes('(You)')")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_board_never_moves_across_level_4_replies(
    open_page: Any, live_server: str, viewport: tuple[int, int]
) -> None:
    ensure_table(live_server, 3)  # level 4 plays perfectly and announces its forced win
    page = open_page(*viewport)
    start_3x3(page, "4")
    page.wait_for_selector("#level-note:not([hidden])")
    board = page.locator("#board svg")
    controls = page.locator("#controls")
    first = (board.bounding_box(), controls.bounding_box())
    seen = [first]
    for move in ("a2-b2", "a3-b3", "b2-c2"):
        play(page, move)
        seen.append((board.bounding_box(), controls.bounding_box()))  # while it thinks
        your_turn(page)
        seen.append((board.bounding_box(), controls.bounding_box()))  # after its reply
    assert page.locator("#notice").is_visible()  # the forced win was announced meanwhile
    assert "forced win" in page.text_content("#notice")
    assert page.locator("#save-puzzle").is_visible()
    assert all(s == first for s in seen), seen


def test_a_reloaded_game_resumes_the_computer_and_counts_once(open_page: Any) -> None:
    page = open_page(*DESKTOP)
    start_3x3(page, "1")
    page.click("#record-reset")
    # hold the computer's first answer for good, so that the page reloads on the computer's
    # turn (a handler removed while a request waits in it lets that request go on)
    held: list[Any] = []

    def hold_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/move", hold_first)
    play(page, "a2-b2")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('thinking')"
    )
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    # the computer replies by itself: no Continue to find (the first computer move of a
    # fresh test server may wait for its warm-up)
    page.wait_for_function(
        "() => (new URLSearchParams(location.hash.slice(1)).get('moves') || '')"
        ".split(',').length === 2",
        timeout=90_000,
    )
    your_turn(page)
    assert page.locator("#pause").is_hidden()
    page.click("#resign")
    page.click("#resign-yes")
    page.wait_for_selector("#endcard:not([hidden])")
    assert page.locator("#record-games").get_attribute("data-games") == "1"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('resignation')"
    )
    page.wait_for_timeout(300)
    assert page.locator("#record-games").get_attribute("data-games") == "1"


@pytest.mark.parametrize("button", ["#watch", "#watch100"])
def test_watch_leaves_the_seats_as_they_were(open_page: Any, button: str) -> None:
    page = open_page(*DESKTOP)
    assert (page.input_value("#s-side0"), page.input_value("#s-side1")) == ("human", "3")
    page.click(button)
    page.wait_for_function("() => location.hash.includes('moves=')")
    assert "You" not in page.text_content("#status-text")  # computers play both sides
    assert (page.input_value("#s-side0"), page.input_value("#s-side1")) == ("human", "3")
    page.click("#pause")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert (page.input_value("#s-side0"), page.input_value("#s-side1")) == ("human", "3")
    page.click("#start")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.includes('(You)')"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_resign_asks_first_and_the_end_card_offers_the_next_game(
    open_page: Any, viewport: tuple[int, int]
) -> None:
    page = open_page(*viewport)
    start_3x3(page, "1")
    page.click("#record-reset")
    page.click("#resign")
    page.wait_for_selector("#resign-dialog[open]")
    page.click("#resign-no")  # changed their mind: the game goes on
    assert page.locator("#resign-dialog").is_hidden()
    assert "(You)" in page.text_content("#status-text")
    page.click("#resign")
    page.click("#resign-yes")
    card = page.locator("#endcard")
    card.wait_for(state="visible")
    assert page.text_content("#endcard-title") == "You lost"
    assert "Resignation" in page.text_content("#endcard-reason")
    assert "Level 1 1 (+1)" in page.text_content("#endcard-record")
    box, board = card.bounding_box(), page.locator("#board svg").bounding_box()
    assert board["y"] <= box["y"] and box["y"] + box["height"] <= board["y"] + board["height"]
    # Swap colours: the human now plays Red, the computer Blue moves first
    page.click("#end-swap")
    page.wait_for_selector("#endcard", state="hidden")
    page.wait_for_function(
        "() => document.getElementById('status-text').textContent.startsWith('Red to move (You)')"
    )
    page.click("#resign")
    page.click("#resign-yes")
    card.wait_for(state="visible")
    page.click("#endcard-close")  # closed to look at the final position
    assert card.is_hidden()
    assert page.locator("#record-games").get_attribute("data-games") == "2"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_console_error_on_any_page(
    browser: Any, live_server: str, viewport: tuple[int, int]
) -> None:
    """Every page loads without a console line of level error, a refused request included
    (the main page once asked /api/ladder before its menus were filled: a 422)."""
    ctx = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        locale="en-GB",
        has_touch=viewport[0] < 600,
        is_mobile=viewport[0] < 600,
    )
    page = ctx.new_page()
    seen: list[str] = []
    page.on("console", lambda m: seen.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda exc: seen.append(str(exc)))
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    paths = [
        "/",
        "/#game=dotdash&variant=standard&size=13",
        "/#game=dodgem&variant=classic&size=7",
        "/puzzles",
        "/review",
        "/review#game=dodgem&variant=classic&size=3&moves=a2-b2",
        "/friend",
    ]
    for path in paths:
        page.goto("about:blank")
        page.goto(live_server + path)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_timeout(400)
    ctx.close()
    assert seen == []


def test_theme_switch_holds_over_the_system_and_is_remembered(open_page: Any) -> None:
    page = open_page(*DESKTOP)  # the system is light here
    bg = "() => getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(bg)
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.click("#theme")  # system -> light
    page.click("#theme")  # light -> dark
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(bg) != light
    page.goto(page.url.split("#")[0] + "puzzles")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"  # every page
    page.click("#theme")  # dark -> the system's again
    assert page.evaluate("document.documentElement.dataset.theme") == "light"


def test_arrow_keys_step_through_the_moves(open_page: Any) -> None:
    page = open_page(*DESKTOP)
    start_3x3(page, "human")
    play(page, "a2-b2")
    play(page, "c1-c2")
    page.locator("#status").click()  # the focus off the board (its arrows move a cursor)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => location.hash.endsWith('moves=a2-b2')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => !location.hash.includes('moves=')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash.endsWith('moves=a2-b2,c1-c2')")


def test_the_move_list_is_coloured_by_each_moves_value(open_page: Any, live_server: str) -> None:
    ensure_table(live_server, 3)
    page = open_page(*DESKTOP)
    start_3x3(page, "human")
    page.check("#analysis-toggle", force=True)
    play(page, "a2-b2")  # blue throws its win away: red to move now wins (see the notices)
    page.wait_for_selector("#movelist .ply.v-loss", timeout=60_000)
    assert "red to move wins" in page.text_content("#value-line").lower()


def test_review_shows_each_sides_summary_the_chart_and_steps_with_the_arrows(
    open_page: Any, live_server: str
) -> None:
    ensure_table(live_server, 3)
    page = open_page(*DESKTOP)
    moves = "a2-b2,c1-c2,a3-b3,c2-c3,b2-c2,b1-b2"
    page.goto(f"{live_server}/review#game=dodgem&variant=classic&size=3&moves={moves}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#rv-chart-card:not([hidden]) .chart-svg", timeout=60_000)
    sides = page.locator("#rv-sides li").all_text_contents()
    assert sides[0].startswith("Blue: 2 of 3 moves kept the value") and "win → loss" in sides[0]
    assert sides[1] == "Red: 3 of 3 moves kept the value"
    # the review opens at the first mistake (move 1); → goes to the next move, ← back
    current = "() => document.querySelector('.rv-move[aria-current=true]')?.dataset.ply"
    page.wait_for_function(f"() => ({current})() === '1'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({current})() === '2'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => ({current})() === '1'")


def test_a_build_started_from_the_page_can_be_cancelled(open_page: Any) -> None:
    page = open_page(*DESKTOP)
    page.select_option("#s-size", "5")
    page.select_option("#s-side1", "4")
    page.wait_for_selector("#build-table:not([hidden])")
    assert "about 2 min" in page.text_content("#build-table")  # not "about 30 s"
    page.click("#build-table")
    page.wait_for_selector("#cancel-build", state="visible")
    page.click("#cancel-build")
    page.wait_for_selector("#table-progress", state="hidden")
    page.wait_for_function(
        "() => document.getElementById('message').textContent === 'The build was cancelled.'"
    )
    assert page.locator("#build-table").is_visible()  # offered again
