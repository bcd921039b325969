"""The digests BoardLab publishes (docs/solver.md), by ruleset id: `boardlab tables install`
checks a table against its published digest, and `boardlab tables list` says whether an
installed table has it.

Made with `boardlab tables digest` (scheme `boardlab-table-digest-1`, see
`boardlab.solver.digest`) over tables solved with `boardlab solve`.
"""

from __future__ import annotations

PUBLISHED: dict[str, str] = {}
