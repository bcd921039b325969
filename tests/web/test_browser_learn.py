"""Puzzles and review in a real chromium, in English and Japanese: solve a puzzle, fail one
(solution and retry), review a finished game and click a marked move, and reach both from the
main page (Review, Save as puzzle)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import PAGE_TIMEOUT_MS, ensure_table, shot, watch_errors

from boardlab.core.records import GameRecord

pytestmark = pytest.mark.browser

REVIEWS = Path(__file__).parents[1] / "ai" / "reviews"
RIGHT = {"en": "Right!", "ja": "正解"}
WRONG = {"en": "Not this one", "ja": "違います"}
SUMMARY = {
    "en": "3 mistakes, first at move 1 (Red d1-d2)",
    "ja": "悪手 3 回、最初は 1 手目（赤 d1-d2）",
}


@pytest.fixture
def learn_page(browser: Any, live_server: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    pg = context.new_page()
    errors = watch_errors(pg)
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    pg.base = live_server  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert errors == [], f"console or page errors: {errors}"


def post(page: Any, path: str, body: dict[str, Any]) -> Any:
    return page.evaluate(
        "async ([p, b]) => (await fetch(p, {method: 'POST', headers: "
        "{'Content-Type': 'application/json'}, body: b})).json()",
        [path, json.dumps(body)],
    )


def open_puzzles(page: Any, lang: str, hash_: str) -> dict[str, Any]:
    """Open the Puzzles page in `lang`; returns the puzzle shown (asked of the server)."""
    page.goto(page.base + "/puzzles")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"[data-lang={lang}]")
    page.goto("about:blank")
    page.goto(page.base + "/puzzles#" + hash_)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("() => document.getElementById('pz-meta').dataset.position")
    position = page.get_attribute("#pz-meta", "data-position")
    variant = page.input_value("#pz-variant").split("/")[1]
    size = int(page.input_value("#pz-size"))
    puzzle: dict[str, Any] = post(
        page, "/api/puzzle", {"variant": variant, "size": size, "position": position}
    )
    assert puzzle["position"] == position
    return puzzle


def play(page: Any, move: str) -> None:
    src, dst = move.split("-")
    if dst == "off":
        page.dblclick(f"[data-sq={src}]")
    else:
        page.click(f"[data-sq={src}]")
        page.click(f"[data-sq={dst}]")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_solve_a_puzzle(learn_page: Any, lang: str) -> None:
    page = learn_page
    puzzle = open_puzzles(page, lang, "variant=classic&size=4&seed=3")
    task = page.text_content("#pz-task")
    assert task and ("to move" in task if lang == "en" else "手番" in task)
    play(page, puzzle["solution"])
    page.wait_for_selector("#pz-message.good")
    message = page.text_content("#pz-message") or ""
    assert RIGHT[lang] in message
    if len(puzzle["line"]) > 1:  # the computer answered with the line's best defence
        assert puzzle["line"][1] in message
    assert page.text_content("#pz-streak") == "1"
    assert int(page.text_content("#pz-rating") or 0) > 1000
    shot(page, f"puzzle-solved-{lang}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_fail_a_puzzle_then_see_the_solution_and_retry(learn_page: Any, lang: str) -> None:
    page = learn_page
    puzzle = open_puzzles(page, lang, "variant=classic&size=4&seed=5")
    wrong = next(iter(puzzle["wrong"]))
    play(page, wrong)
    page.wait_for_selector("#pz-show:not([hidden])")
    assert WRONG[lang] in (page.text_content("#pz-message") or "")
    rating = int(page.text_content("#pz-rating") or 0)
    assert rating < 1000 and page.text_content("#pz-streak") == "0"
    page.click("#pz-show")
    page.wait_for_function(
        "(m) => document.getElementById('pz-message').textContent.includes(m)",
        arg=puzzle["solution"],
    )
    page.click("#pz-retry")
    page.wait_for_selector("#pz-retry", state="hidden")
    page.wait_for_selector("#board[data-ply='0']", state="attached")  # the puzzle's position again
    play(page, puzzle["solution"])
    page.wait_for_selector("#pz-message.good")
    assert int(page.text_content("#pz-rating") or 0) == rating  # a retry does not count
    shot(page, f"puzzle-retried-{lang}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_a_finished_game(learn_page: Any, lang: str) -> None:
    page = learn_page
    rec = GameRecord.load(REVIEWS / "classic-4.txt")
    page.goto(page.base + "/review")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"[data-lang={lang}]")
    page.goto("about:blank")
    link = f"game=dodgem&variant=classic&size=4&moves={','.join(rec.moves)}"
    page.goto(page.base + "/review#" + link)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(
        "(s) => document.getElementById('rv-summary').textContent === s", arg=SUMMARY[lang]
    )
    marked = page.eval_on_selector_all(".rv-move.mistake", "els => els.map(e => e.dataset.ply)")
    assert marked == ["2", "7", "12"]
    # the first mistake is shown at once; click the second: its position and better line
    page.click(".rv-move[data-ply='7']")
    page.wait_for_function("() => document.getElementById('rv-best').textContent.includes('b3-c3')")
    assert "b3-c3" in (page.text_content("#rv-line") or "")
    # the board shows the position before ply 7 (blue to move, the cars of that position)
    state = post(page, "/api/state", {"size": 4, "moves": rec.moves[:6]})
    page.wait_for_function("() => document.querySelectorAll('.board .car').length > 0")
    cars = page.eval_on_selector_all(".board .car-wrap:not(.ghost)", "els => els.length")
    text = state["position"].split()[0]
    assert cars == sum(ch in "BR" for ch in text)
    # the better line plays on the board, a move at a time, to its last move
    line = re.split("[:：]", page.text_content("#rv-line") or "", maxsplit=1)[1].split()
    page.click("#rv-play")
    page.wait_for_function(
        "(n) => document.getElementById('rv-detail').dataset.step === String(n)",
        arg=len(line),
        timeout=30_000,
    )
    end = post(page, "/api/state", {"size": 4, "moves": rec.moves[:6] + line})
    page.wait_for_function("() => document.querySelectorAll('.board .car').length > 0")
    shown = page.eval_on_selector_all(".board .car-wrap:not(.ghost)", "els => els.length")
    assert shown == sum(ch in "BR" for ch in end["position"].split()[0])
    shot(page, f"review-{lang}")


def test_review_an_imported_record(learn_page: Any) -> None:
    page = learn_page
    page.goto(page.base + "/review")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#rv-text", (REVIEWS / "misere-3.txt").read_text())
    page.click("#rv-load")
    page.wait_for_function(
        "() => document.getElementById('rv-summary').textContent.startsWith('1 mistake')"
    )
    assert page.eval_on_selector_all(".rv-move.mistake", "els => els.length") == 1
    assert "variant=misere" in page.evaluate("location.hash")


def test_main_page_opens_review_and_links_puzzles(page: Any, live_server: str) -> None:
    rec = GameRecord.load(REVIEWS / "classic-3.txt")
    page.goto("about:blank")
    page.goto(live_server + "/#game=dodgem&variant=classic&size=3&moves=" + ",".join(rec.moves))
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#puzzles-link", "href") == "/puzzles"
    page.click("#review-game")
    page.wait_for_url("**/review#*")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(
        "() => document.getElementById('rv-summary').textContent.startsWith('1 mistake')"
    )


def test_save_as_puzzle_after_a_forced_win_notice(page: Any, live_server: str) -> None:
    # 3×3 classic, human blue against level 4 playing from the table: blue's a2-b2 loses, so
    # level 4 announces the forced win
    ensure_table(live_server, 3)  # level 4 never builds inside a move
    page.select_option("#s-size", "3")
    page.select_option("#s-side0", "human")
    page.select_option("#s-side1", "4")
    page.click("#start")
    page.wait_for_function("() => document.querySelectorAll('[data-sq]').length === 9")
    play(page, "a2-b2")
    page.wait_for_selector("#save-puzzle:not([hidden])")
    page.click("#save-puzzle")
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('boardlab.puzzles.saved') || '[]').length === 1"
    )
    saved = page.evaluate("JSON.parse(localStorage.getItem('boardlab.puzzles.saved'))")[0]
    assert saved["position"] == "B2/B2/1RR b" and saved["solution"] == "a3-b3"
    page.goto(live_server + "/puzzles")
    page.wait_for_selector("body[data-ready='1']")
    assert "B2/B2/1RR b" in (page.text_content("#pz-saved") or "")


def test_levels_show_their_ratings_in_the_new_game_sheet(
    page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardlab.ai import ladder

    measured = ladder.measured_board

    def rating(size: int, level: str) -> int:
        found = ladder.ladder_ratings("dodgem", "classic", size)
        assert found is not None
        return found[level]

    has = "(w) => [...document.getElementById('s-side1').options].some(o => o.text.endsWith(w))"
    page.select_option("#s-size", "4")
    page.wait_for_function(has, arg=f"level 2 · rated {rating(4, '2')}")
    assert page.locator("#s-rating-note").is_visible()  # what the numbers are
    page.click("[data-lang=ja]")
    page.wait_for_function(has, arg=f" · レート{rating(4, '3')}")
    # each board shows its own ratings, and a board never measured shows none
    page.select_option("#s-size", "3")
    page.wait_for_function(has, arg=f" · レート{rating(3, '3')}")
    # (the live server runs in this process: take the board out of the measured ones)
    monkeypatch.setattr(
        ladder,
        "measured_board",
        lambda g, v, n: (
            None if (g, v, n) == ("dotdash", "capture-unlimited", 19) else measured(g, v, n)
        ),
    )
    page.select_option("#s-game", "dotdash")
    page.select_option("#s-variant", "capture-unlimited")
    page.select_option("#s-size", "19")
    page.wait_for_function(
        "() => [...document.getElementById('s-side1').options].every(o => !o.text.includes(' · '))"
    )
    page.locator("#s-rating-note").wait_for(state="hidden")


@pytest.mark.parametrize("path", ["/", "/puzzles", "/review"])
def test_phone_top_bar_keeps_every_link_in_view(browser: Any, live_server: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.goto(live_server + path)
    page.wait_for_selector("body[data-ready='1']")
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.topnav a, .topnav button')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    context.close()
    assert right <= 390


@pytest.mark.parametrize(
    "link",
    ["game=dodgem&variant=classic&size=4", "game=dodgem&variant=classic&size=6",
     "game=dotdash&variant=standard&size=13"],
    ids=["table", "dodgem-6", "dotdash"],
)  # fmt: skip
def test_review_is_offered_on_every_board(page: Any, live_server: str, link: str) -> None:
    """From the table where one covers the board, else by the search's estimates."""
    page.goto("about:blank")
    page.goto(f"{live_server}/#{link}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#review-game:not([hidden])")
