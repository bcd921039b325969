"""Test-wide setting: tables go to a temporary folder, never the user's data folder."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def private_tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point $BOARDLAB_TABLES at a fresh folder for the whole run (one per xdist worker)."""
    old = os.environ.get("BOARDLAB_TABLES")
    os.environ["BOARDLAB_TABLES"] = str(tmp_path_factory.mktemp("tables"))
    yield
    if old is None:
        os.environ.pop("BOARDLAB_TABLES", None)
    else:
        os.environ["BOARDLAB_TABLES"] = old
