"""Fixtures of the shared-games tests: a store on a fresh database (SQLite, then PostgreSQL:
`db_url` in tests/conftest.py), with a clock the test moves by hand, and the web app's API on
one (small limits, to reach them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.web.friends.helpers import ManualClock

from boardlab.web import create_app
from boardlab.web.friends.store import FriendLimits, FriendStore


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store(db_url: str, clock: ManualClock) -> Iterator[FriendStore]:
    st = FriendStore(db_url, FriendLimits(), now=clock)
    yield st
    st.close()


@pytest.fixture
def two(db_url: str, clock: ManualClock) -> Iterator[tuple[FriendStore, FriendStore]]:
    """Two stores on one database, as two server processes have."""
    a = FriendStore(db_url, FriendLimits(), now=clock)
    b = FriendStore(db_url, FriendLimits(), now=clock, migrate=False)
    yield a, b
    a.close()
    b.close()


@pytest.fixture
def api(tmp_path: Path, db_url: str) -> Iterator[TestClient]:
    app = create_app(tables=tmp_path / "tables")
    app.state.friends.configure(
        db_url,
        FriendLimits(open_per_client=3, message_bytes=512, messages_per_s=5, message_burst=8),
    )
    with TestClient(app, base_url="http://localhost") as c:
        yield c
