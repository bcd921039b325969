"""Bounded work and memory per request (issue items 1 and 3): playouts stop at their deadline,
a client that goes away stops its work, one client cannot take every thread, player pools
and their search tables stay bounded."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import serving

from boardlab.core.registry import make_rules
from boardlab.solver.store import TableStore
from boardlab.web import create_app
from boardlab.web import players as players_module
from boardlab.web import service as service_module
from boardlab.web.limits import WorkLimits
from boardlab.web.schemas import MoveRequest
from boardlab.web.service import Service

HEAVY = {"size": 8, "players": ["3", "3"], "max_plies": 1000, "seed": 1}


def other_client(base: str, timeout: float = 30) -> httpx.Client:
    """A client from another loopback address (127.0.0.2), i.e. another client to the server."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    return httpx.Client(base_url=base, timeout=timeout, transport=transport)


def test_playout_stops_at_its_deadline_and_can_go_on(tmp_path: Path) -> None:
    app = create_app(tables=tmp_path, limits=WorkLimits(playout_seconds=1.0))
    with TestClient(app, base_url="http://localhost") as c:
        r = c.post("/api/playout", json=HEAVY)
        assert r.status_code == 200, r.text
        out = r.json()
        # stopped by its clock, part way: a 1000-ply 8×8 playout of level 3 takes minutes
        assert out["complete"] is False and out["stopped"] == "time"
        assert 0 < len(out["moves"]) < HEAVY["max_plies"]
        # paging: post the moves back and go on from there
        again = c.post("/api/playout", json={**HEAVY, "moves": out["moves"], "max_plies": 2})
        assert again.status_code == 200
        assert again.json()["state"]["moves"][: len(out["moves"])] == out["moves"]
        if not again.json()["state"]["result"]:
            assert again.json()["stopped"] in ("plies", "time")


def test_playout_answers_at_its_deadline_while_a_move_runs_past_it(tmp_path: Path) -> None:
    """A move that outlasts the playout's deadline (a deep search, kernels compiling) does not
    hold the answer back: the page comes with the moves played so far, before that move ends,
    and posting them back goes on from there."""
    app = create_app(tables=tmp_path, limits=WorkLimits(playout_seconds=0.5))
    service: Service = app.state.service
    real = service.choose
    release = threading.Event()
    calls: list[int] = []

    def slow_third(rules: Any, session: Any, level: str, rng: Any, budget: Any = None) -> Any:
        calls.append(len(session.moves))
        if len(calls) == 3:
            release.wait(60)  # the third move runs until the test lets it end
        return real(rules, session, level, rng, budget)

    service.choose = slow_third  # type: ignore[method-assign]
    body = {"size": 5, "players": ["1", "1"], "max_plies": 50, "seed": 3}
    try:
        with TestClient(app, base_url="http://localhost") as c:
            out = c.post("/api/playout", json=body).json()
            assert not release.is_set()  # answered while the third move still runs
            assert out["complete"] is False and out["stopped"] == "time"
            assert len(out["moves"]) == 2 and out["state"]["moves"] == out["moves"]
            release.set()
            service.choose = real  # type: ignore[method-assign]
            again = c.post("/api/playout", json={**body, "moves": out["moves"], "max_plies": 1})
            assert again.status_code == 200
            assert again.json()["state"]["moves"][:2] == out["moves"]
    finally:
        release.set()


def test_playout_cap_in_plies_is_reported(client: TestClient) -> None:
    out = client.post("/api/playout", json={"size": 5, "players": ["1", "1"], "max_plies": 3})
    data = out.json()
    assert len(data["moves"]) == 3 and data["complete"] is False and data["stopped"] == "plies"


def test_client_that_goes_away_frees_the_server(tmp_path: Path) -> None:
    limits = WorkLimits(threads=1, per_client=1, playout_seconds=300)
    with serving(create_app(tables=tmp_path, limits=limits)) as base:
        with httpx.Client(base_url=base, timeout=30) as c:
            c.post("/api/move", json={"size": 8, "level": "3"})  # warm up the kernels
        with httpx.Client(base_url=base, timeout=1.5) as c:
            try:
                c.post("/api/playout", json=HEAVY)
                raise AssertionError("a 1000-ply 8×8 playout should not finish in 1.5 s")
            except httpx.ReadTimeout:
                pass  # the client gives up and disconnects
        # the abandoned playout (300 s of clock) stopped at its next ply instead of holding
        # the only thread: another client is served within its 30 s deadline
        with other_client(base, timeout=30) as c:
            r = c.post("/api/move", json={"size": 3, "level": "1"})
        assert r.status_code == 200, r.text


def wait_inside(app: Any, n: int) -> None:
    """Wait until `n` computations are inside the app's gate (a loaded machine may take a
    while to get a request there; a fixed sleep would guess)."""
    deadline = time.monotonic() + 120
    while app.state.gate.in_use() < n:
        assert time.monotonic() < deadline, "the request never reached the gate"
        time.sleep(0.01)


def test_one_client_cannot_take_every_thread(tmp_path: Path) -> None:
    limits = WorkLimits(threads=2, per_client=1, waiting_per_client=0, playout_seconds=10)
    app = create_app(tables=tmp_path, limits=limits)
    with serving(app) as base:
        results: list[Any] = []

        def heavy() -> None:
            with httpx.Client(base_url=base, timeout=30) as c:
                results.append(c.post("/api/playout", json=HEAVY))

        t = threading.Thread(target=heavy)
        t.start()
        wait_inside(app, 1)  # the first playout holds the client's share
        with httpx.Client(base_url=base, timeout=30) as c:
            second = c.post("/api/playout", json=HEAVY)  # same client, share used up
        assert second.status_code == 429
        assert second.json()["kind"] == "TooManyRequestsError"
        with other_client(base) as c:
            r = c.post("/api/move", json={"size": 3, "level": "1"})
        # served while the first client's playout (10 s of clock) still runs
        assert r.status_code == 200 and t.is_alive() and not results
        t.join(timeout=30)
        assert results and results[0].status_code == 200


def test_a_full_server_answers_busy_instead_of_queueing_forever(tmp_path: Path) -> None:
    limits = WorkLimits(threads=1, per_client=1, queue_seconds=0.5, playout_seconds=10)
    app = create_app(tables=tmp_path, limits=limits)
    with serving(app) as base:
        t = threading.Thread(
            target=lambda: httpx.post(base + "/api/playout", json=HEAVY, timeout=30)
        )
        t.start()
        wait_inside(app, 1)  # the playout holds the only thread
        with other_client(base) as c:
            r = c.post("/api/move", json={"size": 3, "level": "1"})
        # refused after its queueing time, not after the playout (10 s of clock) ends
        assert r.status_code == 503 and r.json()["kind"] == "ServerBusyError"
        assert t.is_alive()
        t.join(timeout=30)


def test_player_pools_are_bounded(tmp_path: Path) -> None:
    service = Service(TableStore(tmp_path), max_pools=2)
    for level in ("1", "2", "3", "random"):
        for size in (3, 4):
            service.computer_move(MoveRequest(size=size, level=level))
            assert service.players.count() <= 2


def _search_table_sizes(service: Service) -> list[int]:
    sizes = []
    for pool in service.players._players.values():
        for player in list(pool._free.queue):
            owner = getattr(player, "fallback", player)
            sizes += [len(s.tt) for s in getattr(owner, "_searchers", {}).values()]
    return sizes


def test_search_tables_are_trimmed_between_requests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    req = MoveRequest(size=6, level="4", forced=False)
    untrimmed = Service(TableStore(tmp_path))
    monkeypatch.setattr(players_module, "SEARCH_TABLE_ENTRIES", 10**9)
    untrimmed.computer_move(req)
    assert max(_search_table_sizes(untrimmed)) > 1000  # a level-4 search fills its table
    monkeypatch.setattr(players_module, "SEARCH_TABLE_ENTRIES", 1000)
    service = Service(TableStore(tmp_path))
    service.computer_move(req)
    sizes = _search_table_sizes(service)
    assert sizes and max(sizes) <= 1000


def _worker_pids() -> list[int]:
    """This process's children that are multiprocessing spawn workers."""
    me, pids = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == me and b"spawn_main" in cmd:
            pids.append(int(entry))
    return pids


@pytest.mark.slow
def test_heavy_work_in_worker_processes_survives_a_killed_worker(tmp_path: Path) -> None:
    limits = WorkLimits(processes=True, playout_seconds=60)
    app = create_app(tables=tmp_path, limits=limits)
    with serving(app) as base, httpx.Client(base_url=base, timeout=120) as c:
        r = c.post("/api/move", json={"size": 5, "level": "3"})
        assert r.status_code == 200 and r.json()["move"]
        short = c.post("/api/playout", json={**HEAVY, "max_plies": 2})
        assert short.status_code == 200 and len(short.json()["moves"]) == 2
        bad = c.post("/api/move", json={"size": 5, "level": "3", "moves": ["zz"]})
        assert bad.status_code == 400 and bad.json()["kind"] == "NotationError"
        results: list[Any] = []
        t = threading.Thread(target=lambda: results.append(c.post("/api/playout", json=HEAVY)))
        t.start()
        time.sleep(2.0)
        workers = _worker_pids()
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)  # as the out-of-memory killer would
        t.join(timeout=60)
        assert results and results[0].status_code == 503
        assert results[0].json()["kind"] == "ServerBusyError"
        again = c.post("/api/move", json={"size": 5, "level": "3"})  # a fresh pool answers
        assert again.status_code == 200


def test_a_busy_server_cuts_the_optional_forced_search_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While requests wait for a thread, a move's forced-win search gets
    `busy_forced_seconds` instead of the full search time; alone it gets the full time."""
    seen: list[float] = []
    release = threading.Event()
    real = service_module.forced_result

    def spy(*args: Any) -> Any:
        seen.append(args[4])
        if len(seen) == 1:
            release.wait(20)  # hold the only thread while others queue behind it
        return real(*args)

    monkeypatch.setattr(service_module, "forced_result", spy)
    limits = WorkLimits(threads=1, per_client=1, busy_forced_seconds=0.003)
    app = create_app(tables=tmp_path, limits=limits)
    with serving(app) as base:
        httpx.post(base + "/api/move", json={"size": 3, "level": "1"}, timeout=30)
        assert seen == [service_module.DEFAULT_BUDGET]  # alone: the full search
        seen.clear()
        codes: list[int] = []

        def move(n: int) -> None:
            transport = httpx.HTTPTransport(local_address=f"127.0.0.{n}")
            with httpx.Client(base_url=base, timeout=30, transport=transport) as c:
                codes.append(c.post("/api/move", json={"size": 3, "level": "1"}).status_code)

        threads = [threading.Thread(target=move, args=(n,)) for n in (2, 3, 4)]
        for t in threads:
            t.start()
            time.sleep(0.3)
        deadline = time.monotonic() + 20
        while app.state.gate.in_use() < 3:  # all three inside the gate: one runs, two wait
            assert time.monotonic() < deadline
            time.sleep(0.05)
        release.set()
        for t in threads:
            t.join(timeout=30)
        assert codes == [200, 200, 200]
        # the first was alone when it started; the second had the third waiting behind it
        full = service_module.DEFAULT_BUDGET
        assert seen == [full, 0.003, full]


def test_replaying_requests_count_against_the_clients_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """State, analysis and records replay up to MAX_MOVES plies sent by the client: they go
    through the gate too, so a client with its share busy gets 429 while others are served."""
    from boardlab.web import routes

    release = threading.Event()
    real = routes.replay

    def slow_replay(spec: Any) -> Any:
        if spec.size == 7:  # the long replay the first client sends
            release.wait(20)
        return real(spec)

    monkeypatch.setattr(routes, "replay", slow_replay)
    limits = WorkLimits(threads=2, per_client=1, waiting_per_client=0)
    with serving(create_app(tables=tmp_path, limits=limits)) as base:
        results: list[Any] = []
        first = threading.Thread(
            target=lambda: results.append(httpx.post(base + "/api/state", json={"size": 7}))
        )
        first.start()
        time.sleep(0.5)
        with httpx.Client(base_url=base, timeout=30) as c:  # the same client again
            for path in ("/api/state", "/api/analysis", "/api/record/export"):
                r = c.post(path, json={"size": 5})
                assert r.status_code == 429 and r.json()["kind"] == "TooManyRequestsError"
            r = c.post("/api/record/import", json={"text": '[Size "5"]\n\n*\n'})
            assert r.status_code == 429
        with other_client(base) as c:
            assert c.post("/api/state", json={"size": 5}).status_code == 200
        # served while the first client's replay still holds its slot
        assert first.is_alive() and not results
        release.set()
        first.join(timeout=30)
        assert results and results[0].status_code == 200


def test_puzzles_and_review_count_against_the_clients_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review, a puzzle and puzzles replay games or scan positions: they go through the
    gate's replay slots, so a client with its share busy gets 429 at once while another
    client is served, even when long computations fill the computation threads."""
    from boardlab.web import learn

    TableStore(tmp_path).build(make_rules("dodgem", None, 3))
    release = threading.Event()
    held = threading.Event()
    real = learn._table

    def slow_table(service: Any, rules: Any) -> Any:
        if not held.is_set():  # the first client's first request holds its replay slot
            held.set()
            release.wait(20)
        return real(service, rules)

    monkeypatch.setattr(learn, "_table", slow_table)
    limits = WorkLimits(threads=1, per_client=1, waiting_per_client=0, playout_seconds=30)
    with serving(create_app(tables=tmp_path, limits=limits)) as base:
        start = httpx.post(base + "/api/state", json={"size": 3}).json()["position"]
        results: list[Any] = []
        first = threading.Thread(
            target=lambda: results.append(
                httpx.post(base + "/api/review", json={"size": 3}, timeout=30)
            )
        )
        first.start()
        assert held.wait(10)
        with httpx.Client(base_url=base, timeout=30) as c:  # the same client again
            answers = [
                c.post("/api/review", json={"size": 3, "moves": []}),
                c.post("/api/puzzle", json={"size": 3, "position": start}),
                c.get("/api/puzzles?size=3&count=2"),
            ]
            for r in answers:
                assert r.status_code == 429, r.text
                assert r.json()["kind"] == "TooManyRequestsError"
        # a long computation from a third client fills the only computation thread
        busy: list[Any] = []
        long_one = threading.Thread(
            target=lambda: busy.append(
                httpx.Client(
                    base_url=base,
                    timeout=60,
                    transport=httpx.HTTPTransport(local_address="127.0.0.3"),
                ).post("/api/playout", json={**HEAVY, "max_plies": 60})
            )
        )
        long_one.start()
        time.sleep(0.5)
        with other_client(base) as c:
            r = c.post("/api/review", json={"size": 3, "moves": []})
            assert r.status_code == 200, r.text
            r = c.get("/api/puzzles?size=3&count=2&seed=1")
            assert r.status_code == 200 and r.json()["puzzles"], r.text
        # served while the first client's review still holds its replay slot
        assert first.is_alive() and not results
        release.set()
        first.join(timeout=30)
        assert results and results[0].status_code == 200
        long_one.join(timeout=60)
        assert busy and busy[0].status_code == 200
