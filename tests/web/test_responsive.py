"""The server stays responsive while computer moves are slow (real uvicorn on loopback)."""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from tests.web.conftest import serving

from boardlab.web import create_app


def test_slow_computer_moves_do_not_block_other_requests(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path)
    service = app.state.service

    def slow_choose(rules: Any, session: Any, level: str, rng: Any) -> Any:
        time.sleep(3.0)
        return session.legal_moves()[0]

    service.choose = slow_choose
    with serving(app) as base, ThreadPoolExecutor(max_workers=12) as pool:
        body = {"size": 4, "level": "random"}
        moves = [
            pool.submit(httpx.post, f"{base}/api/move", json=body, timeout=30) for _ in range(8)
        ]
        time.sleep(0.3)  # the slow moves are now running
        t0 = time.perf_counter()
        health = httpx.get(f"{base}/api/health", timeout=5)
        state = httpx.post(f"{base}/api/state", json={"size": 4}, timeout=5)
        quick = time.perf_counter() - t0
        assert health.status_code == 200 and state.status_code == 200
        # Both quick answers arrive while every slow move is still thinking: they did not
        # queue behind them (a blocked event loop would hold them for 3 s or more).
        assert not any(f.done() for f in moves), f"quick requests took {quick:.2f} s"
        assert quick < 2.5
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
