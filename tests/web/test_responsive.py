"""The server stays responsive while computer moves are slow (real uvicorn on loopback)."""

from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from tests.web.conftest import serving

from boardlab.web import create_app
from boardlab.web.limits import WorkLimits


def test_slow_computer_moves_do_not_block_other_requests(tmp_path: Path) -> None:
    """Computer moves that think until released hold every compute thread; health and state
    requests are still answered while they think (a blocked event loop, or quick requests
    queued behind the moves, would leave them unanswered until the release). Judged by
    order, not by a clock."""
    # one client here, allowed all four threads (by default a client gets a share of them)
    limits = WorkLimits(threads=4, per_client=4, waiting_per_client=4)
    app = create_app(tables=tmp_path, limits=limits)
    service = app.state.service
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_choose(rules: Any, session: Any, level: str, rng: Any, budget: Any = None) -> Any:
        started.release()
        release.wait(60)
        return session.legal_moves()[0]

    service.choose = slow_choose
    with serving(app) as base, ThreadPoolExecutor(max_workers=12) as pool:
        body = {"size": 4, "level": "random"}
        try:
            moves = [
                pool.submit(httpx.post, f"{base}/api/move", json=body, timeout=90) for _ in range(8)
            ]
            for _ in range(4):  # the four compute threads are all thinking now
                assert started.acquire(timeout=30)
            health = httpx.get(f"{base}/api/health", timeout=30)
            state = httpx.post(f"{base}/api/state", json={"size": 4}, timeout=30)
            assert health.status_code == 200 and state.status_code == 200
            assert not any(f.done() for f in moves)  # answered while every move still thinks
        finally:
            release.set()
        failed = [f.result().text[:200] for f in moves if f.result().status_code != 200]
        assert failed == []


def test_first_registry_lookups_from_many_threads_see_every_game() -> None:
    # A fresh interpreter, so that the registry starts empty as in a new server.
    code = (
        "import threading\n"
        "from boardlab.core.registry import games\n"
        "out = []\n"
        "ts = [threading.Thread(target=lambda: out.append(sorted(games()))) for _ in range(8)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n"
        "print(len({tuple(o) for o in out}), len(out[0]))\n"
    )
    for _ in range(3):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        distinct, count = map(int, result.stdout.split())
        assert distinct == 1 and count >= 2
