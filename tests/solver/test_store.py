"""The `TableStore`: which rules have tables (through the game's solver adapter), opening once,
building on the spot only for small boards, and the progress of builds."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.core.errors import MissingTableError
from boardlab.core.outcome import Value
from boardlab.core.registry import get_game, make_rules, register
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import (
    AUTO_BUILD_MAX_SIZE,
    TableStore,
    coverage,
    solver_view,
    tables_help,
)


def test_the_solver_sees_a_game_only_through_its_adapter(empty_tables: TableStore) -> None:
    classic = rules_for("classic", 3)
    assert solver_view(classic) is classic  # today's solver reads the rules object itself
    assert empty_tables.solvable(classic)
    dotdash = make_rules("dotdash", size=9)
    assert get_game("dotdash").solver_adapter is None
    assert solver_view(dotdash) is None
    assert not empty_tables.solvable(dotdash)
    assert empty_tables.get(dotdash, build=True) is None
    with pytest.raises(MissingTableError, match="no tables for dotdash"):
        empty_tables.open(dotdash)


def test_what_the_solver_covers_is_read_from_the_declared_variants(
    empty_tables: TableStore,
) -> None:
    info = get_game("dodgem")
    covered = coverage(info)
    assert "classic" in covered
    assert tables_help().startswith(f"Dodgem {covered}")
    assert "Dot Dash" not in tables_help() and coverage(get_game("dotdash")) == ""
    for v in info.variants:
        for n in v.sizes:
            rules = info.rules(v.name, n)
            reason = empty_tables.unsolvable_reason(rules)
            if empty_tables.solvable(rules):
                assert reason is None
                assert v.name in covered
            else:
                assert reason is not None and reason.endswith(f"it covers Dodgem {covered}")
                assert f"{v.name} on {n}×{n}" in reason
    reason = empty_tables.unsolvable_reason(make_rules("dotdash", size=9))
    assert reason == "the solver has no tables for Dot Dash"


@pytest.fixture
def dodgem_without_tables() -> Iterator[None]:
    """Dodgem declared again with an adapter that covers nothing (as a game might for the
    sizes its solver cannot reach); the built-in declaration comes back afterwards."""
    built_in = get_game("dodgem")
    register(dataclasses.replace(built_in, solver_adapter=lambda rules: None))
    try:
        yield
    finally:
        register(built_in)


def test_an_adapter_that_covers_nothing_leaves_no_table(
    dodgem_without_tables: None, small_tables: TableStore
) -> None:
    rules = rules_for("classic", 3)
    assert not small_tables.solvable(rules)
    assert small_tables.get(rules) is None  # although the file is in the folder
    assert small_tables.probe(rules, rules.start()) is None
    assert coverage(get_game("dodgem")) == ""
    assert small_tables.unsolvable_reason(rules) == "the solver has no tables for Dodgem"


def test_open_once_and_probe(small_tables: TableStore) -> None:
    rules = rules_for("classic", 3)
    assert not small_tables.is_open(rules)
    table = small_tables.open(rules)
    assert small_tables.is_open(rules)
    assert small_tables.open(rules) is table
    assert small_tables.get(rules) is table
    value, remoteness = table.probe(rules.start())
    assert small_tables.probe(rules, rules.start()) == (Value(value), remoteness)
    small_tables.forget()
    assert not small_tables.is_open(rules)
    assert small_tables.open(rules) is not table


def test_only_small_boards_build_on_the_spot(empty_tables: TableStore) -> None:
    small = rules_for("misere", 3)
    large = rules_for("classic", AUTO_BUILD_MAX_SIZE + 1)
    assert empty_tables.solvable(large) and not empty_tables.builds_automatically(large)
    assert empty_tables.builds_automatically(small)
    assert empty_tables.get(large, build=True) is None  # never built here
    assert not empty_tables.path(large).exists()
    assert empty_tables.get(small) is None  # not built without `build`
    assert empty_tables.progress(small) is None
    seen: list[tuple[int, int]] = []
    env_before = dict(os.environ)
    table = empty_tables.build(small, on_progress=lambda done, total: seen.append((done, total)))
    assert dict(os.environ) == env_before  # the folder travels in the store, not the environment
    assert empty_tables.path(small).is_file()
    assert empty_tables.path(small).parent == empty_tables.folder
    assert table is empty_tables.get(small)
    job = empty_tables.progress(small)
    assert job is not None and job.state == "ready"
    assert seen and seen[-1] == (job.done, job.total) and job.done == job.total > 0


def test_a_failed_build_is_recorded(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = TableStore(blocker / "tables")
    rules = rules_for("classic", 3)
    with pytest.raises(OSError):
        store.build(rules)
    job = store.progress(rules)
    assert job is not None and job.state == "failed" and job.message
    assert store.get(rules, build=True) is None  # players fall back to search
    assert store.start_progress(rules) is not None  # a failed build may be started again
    assert store.start_progress(rules) is None  # ... but not twice at once
