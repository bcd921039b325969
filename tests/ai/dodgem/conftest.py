"""Fixtures for the player tests: complete 3×3 and 4×4 tables in a private folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from boardlab.ai import tables
from boardlab.games.dodgem import rules_for


@contextmanager
def tables_in(folder: Path) -> Iterator[None]:
    """Point the solver at `folder` and forget tables opened so far."""
    old = os.environ.get("BOARDLAB_TABLES")
    os.environ["BOARDLAB_TABLES"] = str(folder)
    tables._open.clear()
    try:
        yield
    finally:
        tables._open.clear()
        if old is None:
            os.environ.pop("BOARDLAB_TABLES", None)
        else:
            os.environ["BOARDLAB_TABLES"] = old


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the classic 3×3 and 4×4 tables (built once per session)."""
    pytest.importorskip("boardlab.solver")
    folder = tmp_path_factory.mktemp("tables")
    with tables_in(folder):
        for n in (3, 4):
            assert tables.open_table(rules_for("classic", n), build=True) is not None
    return folder


@pytest.fixture
def with_tables(table_dir: Path) -> Iterator[Path]:
    """Use the session's tables in this test."""
    with tables_in(table_dir):
        yield table_dir


@pytest.fixture
def no_tables(tmp_path: Path) -> Iterator[Path]:
    """An empty table folder: no table can be opened (small ones could be built)."""
    with tables_in(tmp_path):
        yield tmp_path
