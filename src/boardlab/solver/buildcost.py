"""What building a table would cost on this machine, told without building or sampling it.

The web app asks this on every table status, so it must answer in well under a second: it
never runs `estimate` (tens of seconds to minutes of sampling). The time comes from

- this machine's own estimate, when `boardlab solve --estimate` has been run here: it
  stores its prediction beside the tables (`.estimates/<ruleset>.json`), read back here;
- else the indexed positions of the plan over a stored rate: a whole 6×6 solve in one run on
  two cores of the 2-core reference machine (classic, 2026-11-28: 198,054 M positions in
  3,440 s, about 57.6 M positions a second, `docs/solver.md`; 5×5 classic's 240 M take
  4.2 s at it, and 3.0-3.6 s warm there).

Counting a 6×6 plan's positions walks its 106,953 tiers (seconds), so the counts of the
boards too big for the page are stored (the package's data/positions.txt); other boards are
counted once per process.

Disk is the positions times the bytes per position of the published 5×5 classic table.
Boards whose build takes more than PAGE_BUILD_LIMIT_S are not offered a build in the page:
it says what to run instead.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

PAGE_BUILD_LIMIT_S = 300.0
"""A build longer than this (on this machine) is not started from the web page."""

REFERENCE_POSITIONS_PER_S = 57.6e6
"""Positions a second of a whole solve on two cores of the reference machine (see above)."""

DISK_BYTES_PER_POSITION = 0.124
"""Bytes on disk per indexed position of a complete table (5×5 classic: 29.4 MB of packs)."""

ESTIMATES = ".estimates"


def _known_positions() -> dict[str, int]:
    found: dict[str, int] = {}
    text = resources.files("boardlab").joinpath("data/positions.txt").read_text()
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            count, ruleset = line.split()
            found[ruleset] = int(count)
    return found


KNOWN_POSITIONS: dict[str, int] = _known_positions()
"""Indexed positions of plans that take seconds to count (`plan_positions` of each), from
the package's data/positions.txt."""


@dataclass(frozen=True)
class BuildCost:
    """A build's predicted wall time on this machine's cores, its disk, and the source of
    the time: `measured` when this machine's `boardlab solve --estimate` gave it."""

    positions: int
    seconds: float
    disk_bytes: int
    measured: bool

    @property
    def page_buildable(self) -> bool:
        """True when the page may offer the build (a few minutes at most)."""
        return self.seconds <= PAGE_BUILD_LIMIT_S


def estimate_path(tables: Path, ruleset: str) -> Path:
    """Where this machine's estimate of a ruleset is kept."""
    return tables / ESTIMATES / f"{ruleset}.json"


def save_estimate(tables: Path, ruleset: str, est: Any, cores: int | None = None) -> Path | None:
    """Keep an `estimate.Estimate` for the web app: wall seconds on this machine's cores
    (within the memory budget) and disk. None when the folder cannot be written (the
    estimate was printed all the same)."""
    n = cores or os.cpu_count() or 1
    record = {
        "positions": int(est.positions),
        "cores": n,
        "seconds": float(est.seconds_on(est.workers_in_budget(n))),
        "disk_bytes": int(est.disk_bytes),
    }
    path = estimate_path(tables, ruleset)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        return None
    return path


def _measured(tables: Path, ruleset: str) -> dict[str, Any] | None:
    try:
        record = json.loads(estimate_path(tables, ruleset).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    seconds = record.get("seconds")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds <= 0:
        return None
    return record


def plan_positions(game: Any) -> int:
    """Indexed positions of a tier game's plan: every tier's size, summed."""
    return sum(int(game.tier_size(t)) for t in game.tiers())


_COUNTED: dict[str, int] = {}


def _positions(game: Any) -> int:
    ruleset = str(game.ruleset_id)
    known = KNOWN_POSITIONS.get(ruleset) or _COUNTED.get(ruleset)
    if known is None:
        known = _COUNTED[ruleset] = plan_positions(game)
    return known


def build_cost(game: Any, tables: Path) -> BuildCost:
    """The cost of building the table of a tier game into `tables` (see the module)."""
    ruleset = str(game.ruleset_id)
    positions = _positions(game)
    disk = int(positions * DISK_BYTES_PER_POSITION)
    record = _measured(tables, ruleset)
    if record is not None:
        return BuildCost(positions, float(record["seconds"]), disk, True)
    return BuildCost(positions, positions / REFERENCE_POSITIONS_PER_S, disk, False)
