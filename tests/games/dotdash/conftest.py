"""Shared helpers for the Dot Dash tests."""

from __future__ import annotations

import pytest

from boardlab.core import make_rules
from boardlab.games.dotdash.rules import DotDashRules


@pytest.fixture
def rules() -> DotDashRules:
    """Standard rules on the default 13×13 board."""
    r = make_rules("dotdash")
    assert isinstance(r, DotDashRules)
    return r
