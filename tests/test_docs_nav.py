"""The documentation site lists every page in its navigation (mkdocs.yml), so none is only
reachable by a link or not at all."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def nav_pages(text: str) -> set[str]:
    """The pages the `nav:` section names ('- Title: page.md')."""
    nav = text.split("\nnav:\n", 1)[1]
    nav = re.split(r"\n\S", nav, maxsplit=1)[0]  # up to the next top-level key
    return set(re.findall(r":\s*(\S+\.md)\s*$", nav, re.M))


def test_every_page_is_in_the_nav() -> None:
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    listed = nav_pages((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert pages - listed == set(), "add these pages to mkdocs.yml's nav"
    assert listed - pages == set(), "the nav names pages that do not exist"


def test_the_nav_reader_reads_nested_entries() -> None:
    text = (
        "site_name: x\nnav:\n  - Home: index.md\n  - A:\n      - B: b/c.md\nplugins:\n  - d: e.md\n"
    )
    assert nav_pages(text) == {"index.md", "b/c.md"}
