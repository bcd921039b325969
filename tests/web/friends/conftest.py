"""Fixtures of the shared-games tests: a store on a fresh SQLite file, with a clock the test
moves by hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.friends.helpers import ManualClock

from boardlab.web.friends.store import FriendLimits, FriendStore


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'friends.sqlite3'}"


@pytest.fixture
def store(db_url: str, clock: ManualClock) -> Iterator[FriendStore]:
    st = FriendStore(db_url, FriendLimits(), now=clock)
    yield st
    st.close()
