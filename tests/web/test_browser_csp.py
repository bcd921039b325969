"""The page works under a strict Content-Security-Policy (no inline scripts or styles): every
script is a module file and every style lives in the stylesheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request, Response
from tests.web.conftest import serving, watch_errors

from boardlab.web import create_app

pytestmark = pytest.mark.browser

STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def test_the_page_runs_under_a_strict_policy(browser: Any, tmp_path: Path) -> None:
    app = create_app(tables=tmp_path)

    @app.middleware("http")
    async def policy(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = STRICT
        return response

    with serving(app) as url:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
        page = ctx.new_page()
        errors = watch_errors(page)
        violations: list[str] = []
        page.on(
            "console", lambda m: "Content Security Policy" in m.text and violations.append(m.text)
        )
        page.goto(url + "/#game=dodgem&variant=classic&size=3")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#s-side1", "human")
        page.click("[data-sq=a2]")
        page.click("[data-sq=b2]")
        page.wait_for_function("() => location.hash.includes('a2-b2')")
        page.check("#analysis-toggle", force=True)
        page.wait_for_selector("#chart circle.pt", timeout=60_000)
        page.click("#help-open")
        page.keyboard.press("Escape")
        page.select_option("#s-game", "dotdash")
        page.select_option("#s-side0", "human")
        page.click("#start")
        page.wait_for_selector("[data-pt=G7]")
        page.click("[data-pt=G7]")
        page.click("[data-pt=G4]")
        page.wait_for_function("() => location.hash.includes('G7-G4')")
        ctx.close()
    assert violations == []
    assert errors == []
