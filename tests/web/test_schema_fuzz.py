"""Schemathesis over the whole API (issue: `--checks all`, a short bounded run): every check
on every operation, with a handful of generated requests each, through the ASGI app."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from boardlab.web import create_app  # noqa: E402
from boardlab.web.limits import WorkLimits  # noqa: E402

TABLES = Path(os.environ.get("BOARDLAB_FUZZ_TABLES", "/nonexistent-boardlab-fuzz-tables"))
# quick answers: a playout of a fuzzed game stops after a second
APP = create_app(tables=TABLES, limits=WorkLimits(playout_seconds=1.0, move_seconds=10.0))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

EXAMPLES = int(os.environ.get("BOARDLAB_FUZZ_EXAMPLES", "8"))


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(headers={"host": "localhost"})
