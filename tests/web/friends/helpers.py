"""Helpers of the shared-games tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from boardlab.web.friends import schemas as fs
from boardlab.web.friends.store import FriendStore

T = TypeVar("T")


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)` on a thread of its own: a browser test earlier on the same worker
    may keep an event loop running on this thread (Playwright's sync API does)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class ManualClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def started(store: FriendStore, **kwargs: object) -> fs.CreatedOut:
    """A 3×3 Dodgem game (or as `kwargs` say) created and joined by both players."""
    req = fs.CreateRequest.model_validate({"game": "dodgem", "size": 3, **kwargs})
    created = store.create(req, client="10.0.0.1")
    store.join(created.id, created.invite_token)
    return created


def token_to_move(created: fs.CreatedOut, state: fs.FriendStateOut) -> str:
    """The token of the seat whose turn it is (in the first game of the match)."""
    return created.token if state.to_move == created.colour else created.invite_token


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def error_of(ws: Any) -> dict[str, Any]:
    """The next error sent to `ws` (states pushed meanwhile are skipped)."""
    for _ in range(10):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            return msg
    raise AssertionError("no error came")


def until(ws: Any, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first state pushed to `ws` that satisfies `pred` (at most 10 messages)."""
    for _ in range(10):
        msg = ws.receive_json()
        if msg["type"] == "state" and pred(msg["state"]):
            state: dict[str, Any] = msg["state"]
            return state
    raise AssertionError("no such state came")
