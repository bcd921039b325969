"""Schemathesis over the whole API, every check it has (the CLI's `--checks all`) in a short,
bounded run through the ASGI app: a few generated requests per operation.

One check is left out, as documented in the README: `positive_data_acceptance` expects every
schema-valid body to succeed, but the schema cannot say which texts are legal moves or
positions or which names are real variants; those are answered 400 (or 422 for a cross-field
rule such as the pie's role and setup) in the one error shape, which the other checks verify.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import checks  # noqa: E402

from boardlab.web import create_app  # noqa: E402
from boardlab.web.limits import WorkLimits  # noqa: E402

TABLES = Path(os.environ.get("BOARDLAB_FUZZ_TABLES", "/nonexistent-boardlab-fuzz-tables"))
APP = create_app(
    tables=TABLES,
    allowed_hosts=["testserver"],  # the name schemathesis's ASGI client sends
    limits=WorkLimits(playout_seconds=1.0, move_seconds=10.0),  # fuzzed playouts stop soon
)
# A body over the server's size limit is refused with 413 before it is read. Schemathesis can
# draw an over-long text of astral characters, each written as two `\uXXXX` escapes, whose
# JSON passes that limit: 413 is then the right rejection of that negative data.
REJECTIONS = [
    *("400", "401", "403", "404", "405", "406", "409", "413"),
    *("415", "422", "428", "429", "5xx"),
]
CONFIG = schemathesis.config.SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}}
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)
EXAMPLES = int(os.environ.get("BOARDLAB_FUZZ_EXAMPLES", "10"))

checks.load_all_checks()
DOCUMENTED = {"positive_data_acceptance"}
ALL_CHECKS: list[Any] = [f for f in checks.CHECKS.get_all() if f.__name__ not in DOCUMENTED]


def test_every_check_but_the_documented_one_runs() -> None:
    names = {f.__name__ for f in ALL_CHECKS}
    assert {"not_a_server_error", "status_code_conformance", "response_schema_conformance",
            "negative_data_rejection", "unsupported_method", "allow_header_conformance",
            "content_type_conformance"} <= names  # fmt: skip


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: Any) -> None:
    case.call_and_validate(checks=ALL_CHECKS)
