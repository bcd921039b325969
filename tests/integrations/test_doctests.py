"""The examples in the documentation and in the integration modules' docstrings run as
written (doctest)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[2] / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
NEEDS = {"researchers.md": ("pyspiel", "pettingzoo")}  # pages that use the optional extras

PAGES = sorted(p for p in DOCS.rglob("*.md") if ">>> " in p.read_text(encoding="utf-8"))
MODULES = {
    "boardlab.integrations.openspiel": "pyspiel",
    "boardlab.integrations.pettingzoo": "pettingzoo",
    "boardlab.integrations.oracle": None,
}


def _require(*modules: str | None) -> None:
    for name in modules:
        if name is not None and importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed")


def test_the_docs_have_examples() -> None:
    assert {p.name for p in PAGES} >= {"core.md", "researchers.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_doc_page_examples(page: Path) -> None:
    _require(*NEEDS.get(page.name, ()))
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_docstring_examples(name: str) -> None:
    _require(MODULES[name])
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0
