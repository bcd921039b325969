"""Rebuild the tables BoardLab ships in its package (src/boardlab/data/tables): the classic
3×3 and 4×4 Dodgem boards, so that level 4, analysis and puzzles are ready on a fresh machine.

Each table is solved from scratch into a temporary folder, its digest computed and checked
against the published one (`boardlab.solver.published`), and its manifest, packs and
digest.json copied in place of the shipped copy. Run it after a change to the table format
or to the solver's plan, from the repository root:

    python benchmarks/ship_tables.py

The same by hand, for one board:

    boardlab solve --game dodgem --variant classic --size 4 --tables /tmp/t
    boardlab tables digest --game dodgem --variant classic --size 4 --tables /tmp/t
    cp -r /tmp/t/dodgem-4-classic-wins-normal src/boardlab/data/tables/
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from boardlab.core.registry import make_rules
from boardlab.solver import api
from boardlab.solver.digest import table_digest, write_record
from boardlab.solver.folder import MANIFEST
from boardlab.solver.published import PUBLISHED
from boardlab.solver.store import BUNDLED_TABLES, solver_view

SHIPPED = (("dodgem", "classic", 3), ("dodgem", "classic", 4))
"""The boards whose tables ship: a few hundred kB in all."""


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for game, variant, size in SHIPPED:
            view = solver_view(make_rules(game, variant, size))
            tier_game = api.require_game(view)
            ruleset = str(tier_game.ruleset_id)
            folder = api.build_table(view, Path(tmp))
            digest = table_digest(tier_game, folder)
            if digest.sha256 != PUBLISHED.get(ruleset):
                print(
                    f"{ruleset}: digest {digest.sha256} is not the published one", file=sys.stderr
                )
                return 1
            write_record(folder, digest)
            dest = BUNDLED_TABLES / ruleset
            shutil.rmtree(dest, ignore_errors=True)
            (dest / "packs").mkdir(parents=True)
            shutil.copy2(folder / MANIFEST, dest / MANIFEST)
            shutil.copy2(folder / "digest.json", dest / "digest.json")
            for pack in sorted((folder / "packs").iterdir()):
                shutil.copy2(pack, dest / "packs" / pack.name)
            size_kb = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file()) / 1e3
            print(f"{ruleset}: {size_kb:.0f} kB, digest {digest.sha256}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
