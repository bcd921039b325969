"""Review by the search where no table covers the board (issue 38): a Dot Dash game on the
Review page gets a quick estimate of each position (POST /api/estimate with quick), the moves
marked by the estimate, per-side counts and the share chart, said to be an estimate with its
depth; progress while it runs, and Stop keeps what was estimated. Every test also fails on a
console or page error (see conftest)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

DESKTOP = (1440, 900)


def dot_dash_game(live_server: str, plies: int) -> list[str]:
    """A 13×13 Dot Dash game of `plies` moves between two computer levels (not finished)."""
    r = httpx.post(
        live_server + "/api/playout",
        json={"game": "dotdash", "size": 13, "players": ["1", "1"], "seed": 7, "max_plies": plies},
        timeout=120,
    )
    assert r.status_code == 200, r.text
    moves: list[str] = r.json()["moves"]
    assert len(moves) == plies and r.json()["state"]["result"] is None
    return moves


def review_url(live_server: str, moves: list[str]) -> str:
    return f"{live_server}/review#game=dotdash&variant=standard&size=13&moves={','.join(moves)}"


def test_a_dot_dash_game_is_reviewed_by_quick_estimates(open_page: Any, live_server: str) -> None:
    moves = dot_dash_game(live_server, 8)
    page = open_page(*DESKTOP)
    asked: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda req: (
            asked.append(json.loads(req.post_data or "{}"))
            if req.url.endswith("/api/estimate")
            else None
        ),
    )
    page.goto(review_url(live_server, moves))
    page.wait_for_selector("body[data-ready='1']")
    # every position of the unfinished game, once each and each a quick look
    assert sorted(len(a["moves"]) for a in asked) == list(range(9))
    assert all(a["quick"] is True for a in asked)
    note = page.text_content("#rv-est-note") or ""
    assert "estimate" in note and "depth" in note
    assert page.is_hidden("#rv-progress")
    shown = page.eval_on_selector_all(".rv-move", "els => els.map(e => e.dataset.mark)")
    assert len(shown) == 8 and "pending" not in shown
    assert set(shown) <= {"est-kept", "est-dubious", "est-mistake"}
    summary = page.text_content("#rv-summary") or ""
    assert "by the estimate" in summary.lower()
    assert page.locator("#rv-sides li").count() == 2
    assert page.text_content("#rv-chart-title") == "Estimated share of each position"
    assert page.locator("#rv-chart .estimate-chart circle.pt").count() == 9
    # a move's detail: what the search preferred there, and at what depth
    page.click(".rv-move[data-ply='3']")
    page.wait_for_function(
        "() => document.getElementById('rv-best').textContent.includes('The search preferred')"
    )
    assert "depth" in (page.text_content("#rv-best") or "")
    # the board is Dot Dash's own
    assert page.locator("#board [data-pt]").count() == 169


def test_stop_keeps_the_estimates_made_so_far(open_page: Any, live_server: str) -> None:
    moves = dot_dash_game(live_server, 8)
    page = open_page(*DESKTOP)
    held: list[Any] = []

    def hold_after_two(route: Any) -> None:
        if len(json.loads(route.request.post_data or "{}").get("moves", [])) >= 2:
            held.append(route)  # never answered: the review waits on it (Stop aborts it)
        else:
            route.continue_()

    page.route("**/api/estimate", hold_after_two)
    page.goto(review_url(live_server, moves))
    page.wait_for_function(
        "() => document.querySelector('#rv-progress .label').textContent.startsWith("
        "'Estimating position 3 of 9')"
    )
    assert page.is_visible("#rv-stop")
    page.click("#rv-stop")
    page.wait_for_function(
        "() => document.querySelector('#rv-progress .label').textContent"
        " === 'Stopped after 2 of 9 positions.'"
    )
    assert page.is_hidden("#rv-stop")
    shown = page.eval_on_selector_all(".rv-move", "els => els.map(e => e.dataset.mark)")
    assert shown[0] != "pending" and shown[1:] == ["pending"] * 7
    assert len(held) == 1
    page.unroute("**/api/estimate")
