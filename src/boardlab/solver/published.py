"""The digests BoardLab publishes (docs/solver.md), by ruleset id: `boardlab tables install`
checks a table against its published digest, and `boardlab tables list` says whether an
installed table has it. Each game ships its own list (`GameInfo.table_digests`, a text file
of lines as `boardlab tables digest` prints them).

Made with `boardlab tables digest` (scheme `boardlab-table-digest-1`, see
`boardlab.solver.digest`) over tables solved with `boardlab solve`.
"""

from __future__ import annotations

from importlib import resources

from boardlab.core.registry import games


def _published() -> dict[str, str]:
    found: dict[str, str] = {}
    for info in games().values():
        if info.table_digests is None:
            continue
        package, _, name = info.table_digests.partition("/")
        text = resources.files(package).joinpath(name).read_text()
        for line in text.splitlines():
            if line.strip() and not line.startswith("#"):
                digest, ruleset = line.split()
                found[ruleset] = digest
    return found


PUBLISHED: dict[str, str] = _published()
