"""The Dot Dash rules fixture, shared with the rules tests."""

from tests.games.dotdash.conftest import rules

__all__ = ["rules"]
