"""Server additions for the page: board facts with every state (so the page does not work out
geometry or fives again), table builds reported to the very end with an estimate beforehand,
and the computer players warmed at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from boardlab.core.registry import games, make_rules
from boardlab.core.session import GameSession
from boardlab.solver.store import TableStore
from boardlab.web import create_app
from boardlab.web.service import Service
from boardlab.web.warmup import warm_boards, warm_players, warm_table_boards, warm_tables


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    res = client.post(path, json=body)
    assert res.status_code == 200, res.text
    return res.json()


def test_dodgem_state_carries_steps_and_exit_edges(client: TestClient) -> None:
    facts = post(client, "/api/state", {"size": 4})["facts"]
    assert facts["exits"] == ["east", "north"]
    assert facts["steps"] == [[[1, 0], [0, 1], [0, -1]], [[0, 1], [-1, 0], [1, 0]]]
    pp = post(client, "/api/state", {"variant": "piecepack"})["facts"]
    assert pp["exits"] == ["north", "south"]


def test_dot_dash_state_carries_fives_lines_and_reserves(client: TestClient) -> None:
    start = "6R/7/7/7/7/7/BBBBB2 r"
    state = post(client, "/api/state", {"game": "dotdash", "size": 7, "start": start})
    facts = state["facts"]
    assert facts["fives"] == [0, 1]
    assert facts["lines"] == [{"player": 1, "points": ["A1", "B1", "C1", "D1", "E1"]}]
    rules = make_rules("dotdash", None, 7)
    position = rules.parse_position(start)
    assert facts["reserves"] == list(rules.reserves(position))
    # a run of nine scores two fives, drawn as two lines
    nine = post(
        client, "/api/state", {"game": "dotdash", "size": 9, "start": "9/9/9/9/9/9/9/9/RRRRRRRRR b"}
    )
    assert nine["facts"]["fives"] == [2, 0]
    assert [line["points"][0] for line in nine["facts"]["lines"]] == ["A1", "E1"]


def test_missing_table_says_how_long_a_build_takes(client: TestClient) -> None:
    status = client.get("/api/tables?size=5").json()
    assert status["state"] == "missing"
    assert status["estimate_s"] == 100.0


def test_build_reports_solving_then_writing_then_ready(tmp_path: Path) -> None:
    service = Service(TableStore(tmp_path))
    rules = make_rules("dodgem", None, 3)
    seen: list[tuple[str, int, int]] = []
    real_build = service.tables.build

    def look() -> None:
        status = service.builds.table_status(rules)
        assert status.state == "building"
        seen.append((str(status.phase), status.done, status.total))

    def build(rules: Any, on_progress: Any = None, jobs: Any = None, on_blocks: Any = None) -> Any:
        # what a poll of the page sees after each step the solver reports
        def slices(done: int, total: int) -> None:
            look()

        def blocks(done: int, total: int) -> None:
            on_blocks(done, total)
            look()

        return real_build(rules, on_progress=slices, jobs=jobs, on_blocks=blocks)

    service.tables.build = build  # type: ignore[method-assign]
    service.builds.start_build(rules, allowed=True, run=lambda work: work())
    assert service.builds.table_status(rules).state == "ready"
    phases = [p for p, _, _ in seen]
    # solving (every slice), then writing, then opening once the last block is written
    order = ["solving", "writing", "opening"]
    assert phases == sorted(phases, key=order.index)
    assert phases[0] == "solving" and phases[-1] == "opening"
    solving = [(d, t) for p, d, t in seen if p == "solving"]
    assert solving[-1][0] == solving[-1][1] > 0
    assert seen[-1][1] == seen[-1][2] > 0


def test_warm_up_plays_one_move_per_level_and_game() -> None:
    calls: list[tuple[str, int, str, int]] = []

    class Recorder:
        def choose(self, rules: Any, session: GameSession[Any, Any], level: str, rng: Any) -> Any:
            calls.append((rules.game, rules.size, level, len(session.moves)))
            return session.legal_moves()[0]

    warm_players(Recorder())
    assert calls == [(g, n, lv, 0) for g, n, levels in warm_boards() for lv in levels]
    # every game that declares a warm-up is warmed, as it declares it
    declared = {i.name: i.warm_up for i in games().values() if i.warm_up is not None}
    assert {g for g, *_ in calls} == {g for g, w in declared.items() if w.levels}
    for game, size, level, _ in calls:
        warm = declared[game]
        assert warm is not None and size == warm.size and level in warm.levels


def test_warm_up_opens_or_builds_the_default_boards_tables(tmp_path: Path) -> None:
    """A fresh server's warm-up leaves the puzzles' and review's default tables built and
    open, so their first request reads them at once."""
    store = TableStore(tmp_path)
    boards = [make_rules(game, None, size) for game, size in warm_table_boards()]
    assert boards
    assert not any(store.is_open(rules) for rules in boards)

    class Holder:
        tables = store

    warm_tables(Holder())
    assert all(store.is_open(rules) for rules in boards)
    again = TableStore(tmp_path)  # built on disk, not only in memory
    assert all(again.open(rules) is not None for rules in boards)


def test_warm_up_runs_in_the_background_only_when_asked(tmp_path: Path, monkeypatch: Any) -> None:
    started: list[Any] = []
    monkeypatch.setattr("boardlab.web.app.start_warm_up", lambda service: started.append(service))
    create_app(tables=tmp_path)
    assert started == []
    app = create_app(tables=tmp_path, warm=True)
    assert started == [app.state.service]
