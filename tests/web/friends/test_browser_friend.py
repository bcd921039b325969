"""Play a friend in real chromium: two browser contexts play a whole 3×3 game through the
invitation link, a third with the watch link sees every move live and cannot move; the same
after the server process is killed (SIGKILL) in mid-game and started again."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import shot, watch_errors
from tests.web.friends.test_restart import free_port, server

pytestmark = pytest.mark.browser

# the browser logs refused requests and dropped sockets; those are expected here
EXPECTED = ("Failed to load resource", "WebSocket connection to")


def open_page(browser: Any, url: str, lang: str = "en") -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    pg = ctx.new_page()
    pg.set_default_timeout(20_000)
    errors = watch_errors(pg)
    pg.add_init_script(f"localStorage.setItem('boardlab.lang', '{lang}')")
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']")
    return ctx, pg, errors


def create_game(page: Any, clock: bool = False) -> tuple[str, str]:
    """Fill the form for 3×3 Dodgem, creator plays the first colour; the two links."""
    page.select_option("#f-game", "dodgem")
    page.select_option("#f-variant", "classic")
    page.select_option("#f-size", "3")
    page.select_option("#f-colour", "first")
    if clock:
        page.check("#f-clock-on")
    page.click("#f-start")
    page.wait_for_function("() => document.getElementById('f-invite').value.includes('#g=')")
    invite = page.input_value("#f-invite")
    watch = page.input_value("#f-watch")
    assert "&t=" in invite and "&t=" not in watch
    return invite, watch


def wait_all(pages: list[Any], selector: str, timeout: int = 20_000) -> None:
    """Every page shows `selector`; else fail naming what each page shows."""
    for pg in pages:
        try:
            pg.wait_for_selector(selector, timeout=timeout)
        except Exception:
            seen = [
                pg.evaluate(
                    "() => [JSON.stringify(document.body.dataset), location.href,"
                    " document.getElementById('f-message').textContent]"
                )
                for pg in pages
            ]
            raise AssertionError(f"{selector} not on every page: {seen}") from None


def server_state(page: Any) -> Any:
    return page.evaluate(
        "async () => { const id = new URLSearchParams(location.hash.slice(1)).get('g');"
        " return (await fetch('/api/friends/' + id)).json(); }"
    )


def click_move(page: Any, move: str) -> None:
    src, dst = move.split("-")
    if dst == "off":
        page.dblclick(f"[data-sq={src}]")
    else:
        page.click(f"[data-sq={src}]")
        page.click(f"[data-sq={dst}]")


def wait_ply(pages: list[Any], ply: int) -> None:
    for pg in pages:
        pg.wait_for_selector(f"body[data-ply='{ply}']")


def play_until(players: dict[int, Any], watcher: Any, stop_after: int | None = None) -> Any:
    """The player to move clicks the first legal move until the game ends (or `stop_after`
    plies); after every move all three pages show it. The final state."""
    pages = [*players.values(), watcher]
    while True:
        state = server_state(watcher)
        if state["status"] != "playing" or (stop_after is not None and state["ply"] >= stop_after):
            return state
        mover = players[state["to_move"]]
        other = players[1 - state["to_move"]]
        assert mover.get_attribute("body", "data-seat") == str(state["to_move"])
        # the waiting player's board takes no move
        assert other.evaluate("document.body.dataset.seat") == str(1 - state["to_move"])
        click_move(mover, state["legal_moves"][0])
        wait_ply(pages, state["ply"] + 1)
        listed = watcher.inner_text("#f-movelist")
        assert state["legal_moves"][0] in listed  # the spectator saw this very move


def check_spectator_cannot_move(watcher: Any, state: Any) -> None:
    assert watcher.evaluate("document.body.dataset.seat") == "watch"
    for button in ("#f-resign", "#f-draw", "#f-rematch", "#f-accept"):
        assert not watcher.is_visible(button)
    status = watcher.evaluate(
        "async ([id, move, ply]) => (await fetch('/api/friends/' + id + '/move', {"
        " method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({move, ply})})).status",
        [state["id"], state["legal_moves"][0], state["ply"]],
    )
    assert status == 403
    # clicking the board changes nothing either
    click_move(watcher, state["legal_moves"][0])
    watcher.wait_for_timeout(400)
    assert server_state(watcher)["ply"] == state["ply"]


def test_two_contexts_play_a_whole_game_and_a_spectator_sees_every_move(
    browser: Any, live_server: str
) -> None:
    made = []
    try:
        ctx, creator, errors_a = open_page(browser, live_server + "/friend")
        made.append(ctx)
        invite, watch = create_game(creator)
        assert creator.inner_text("#f-status").startswith("Waiting for your friend")
        ctx, friend, errors_b = open_page(browser, invite, lang="ja")
        made.append(ctx)
        ctx, watcher, errors_c = open_page(browser, watch)
        made.append(ctx)
        for pg in (creator, friend, watcher):
            pg.wait_for_selector("body[data-status='playing'][data-conn='live']")
        assert "友だち" in friend.inner_text("#f-score")  # the invited friend reads Japanese
        check_spectator_cannot_move(watcher, server_state(watcher))
        final = play_until({0: creator, 1: friend}, watcher)
        assert final["status"] == "over" and final["result"] is not None
        for pg in (creator, friend, watcher):
            pg.wait_for_selector("body[data-status='over']")
        winner = final["result"]["winner"]
        assert ("Blue wins" if winner == 0 else "Red wins") in watcher.inner_text("#f-status")
        assert "勝ち" in friend.inner_text("#f-status")
        # rematch with colours swapped: every page follows to the next game
        creator.click("#f-rematch")
        for pg in (creator, friend, watcher):
            pg.wait_for_selector("body[data-status='playing'][data-ply='0']")
        assert creator.evaluate("document.body.dataset.seat") == "1"
        assert friend.evaluate("document.body.dataset.seat") == "0"
        score = "You 1 – 0 Your friend" if winner == 0 else "You 0 – 1 Your friend"
        assert score in creator.inner_text("#f-score")
        for errors in (errors_a, errors_b, errors_c):
            assert [e for e in errors if not e.startswith(EXPECTED)] == []
    finally:
        for ctx in made:
            ctx.close()


@pytest.mark.slow
def test_sigkill_mid_game_both_browsers_reconnect_and_finish(browser: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'friends.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    made = []
    try:
        with server(url, tmp_path / "tables", port) as proc:
            ctx, creator, _ = open_page(browser, base + "/friend")
            made.append(ctx)
            invite, watch = create_game(creator)
            ctx, friend, _ = open_page(browser, invite)
            made.append(ctx)
            ctx, watcher, _ = open_page(browser, watch)
            made.append(ctx)
            # a fresh `boardlab serve` compiles its players' kernels in the background at
            # first: on a busy machine its answers may take a while then
            live = "body[data-status='playing'][data-conn='live']"
            wait_all([creator, friend, watcher], live, timeout=60_000)
            before = play_until({0: creator, 1: friend}, watcher, stop_after=3)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
            for pg in (creator, friend, watcher):
                pg.wait_for_selector("body[data-conn='polling']")
        with server(url, tmp_path / "tables", port):
            wait_all([creator, friend, watcher], "body[data-conn='live']", timeout=60_000)
            after = server_state(watcher)
            assert after["moves"] == before["moves"] and after["ply"] == 3
            final = play_until({0: creator, 1: friend}, watcher)
            assert final["status"] == "over" and final["moves"][:3] == before["moves"]
    finally:
        for ctx in made:
            ctx.close()


@pytest.mark.parametrize(("width", "lang"), [(1280, "en"), (390, "ja")])
def test_the_main_page_leads_to_play_a_friend(
    browser: Any, live_server: str, width: int, lang: str
) -> None:
    ctx, pg, errors = open_page(browser, live_server + "/", lang=lang)
    try:
        pg.set_viewport_size({"width": width, "height": 860})
        if not pg.is_visible("#friend-open"):  # a phone: the New game sheet holds it
            pg.click("#new-game")
        pg.click("#friend-open")
        pg.wait_for_url("**/friend")
        pg.wait_for_selector("body[data-ready='1']")
        assert pg.is_visible("#f-start")
        title = pg.inner_text("#f-create h2")
        assert title == ("New shared game" if lang == "en" else "新しい共有対局")
        # on a phone nothing of the page is wider than the screen
        assert pg.evaluate("document.documentElement.scrollWidth") <= width
        assert [e for e in errors if not e.startswith(EXPECTED)] == []
    finally:
        ctx.close()


def test_a_dot_dash_game_starts_with_the_pie_across_two_devices(
    browser: Any, live_server: str
) -> None:
    """The creator places three stones in English; the friend, in Japanese, sees an empty
    board meanwhile, then the stones, takes blue; red's single stone (the creator's) moves
    first, and the friend's board shows that move."""
    made = []
    try:
        ctx, creator, errors_a = open_page(browser, live_server + "/friend")
        made.append(ctx)
        creator.select_option("#f-game", "dotdash")
        creator.select_option("#f-size", "9")
        assert creator.is_visible("#f-setup") and not creator.is_visible("#f-colour")
        creator.select_option("#f-setup", "fixed")
        assert creator.is_visible("#f-colour")  # the fixed start: the creator picks a colour
        creator.select_option("#f-setup", "place")
        assert not creator.is_visible("#f-colour")
        creator.click("#f-start")
        creator.wait_for_function("() => document.getElementById('f-invite').value.includes('#g=')")
        ctx, friend, errors_b = open_page(browser, creator.input_value("#f-invite"), lang="ja")
        made.append(ctx)
        for pg in (creator, friend):
            pg.wait_for_selector("body[data-status='playing'][data-conn='live']")
        creator.wait_for_function(
            "() => document.getElementById('f-status').textContent.startsWith('Place three')"
        )
        assert "友だちが石を3個置いています" in friend.inner_text("#f-status")
        assert "あなたが色を選びます" in friend.inner_text("#f-seats")
        creator.click("[data-pt=D5]")
        creator.click("[data-pt=E5]")
        assert creator.locator("[data-stone]").count() == 2
        assert friend.locator("[data-stone]").count() == 0  # nothing is shown before all three
        shot(creator, "friend-pie-placing-en")
        creator.click("[data-pt=E6]")
        friend.wait_for_selector("#f-take-1:visible")
        assert friend.inner_text("#f-take-1") == "青を取る"
        assert friend.locator("[data-stone]").count() == 3
        assert "友だちが色を選んで" not in friend.inner_text("#f-status")
        creator.wait_for_function(
            "() => document.getElementById('f-status').textContent.includes('choosing a colour')"
        )
        shot(friend, "friend-pie-choosing-ja")
        friend.click("#f-take-1")
        # The seats were already red (creator) and blue (friend), so only the end of the stage
        # shows that the choice has arrived: wait for it on both pages.
        creator.wait_for_function(
            "() => document.getElementById('f-status').textContent.startsWith('Your move')"
        )
        friend.wait_for_selector("#f-take-1", state="hidden")
        for pg, seat in ((creator, "0"), (friend, "1")):
            assert pg.get_attribute("body", "data-seat") == seat
        state = server_state(creator)
        assert state["setup"] is None and state["to_move"] == 0
        assert state["start"] == state["position"] and "R" in state["position"]
        move = state["legal_moves"][0]
        src, dst = move.split("-")
        creator.click(f"[data-pt={src}]")
        creator.click(f"[data-pt={dst}]")
        wait_ply([creator, friend], 1)
        assert move in friend.inner_text("#f-movelist")
        for errors in (errors_a, errors_b):
            assert [e for e in errors if not e.startswith(EXPECTED)] == []
    finally:
        for ctx in made:
            ctx.close()
