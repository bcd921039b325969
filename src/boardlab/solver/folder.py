"""A table's folder: `manifest.json` (the ruleset, the plan, and once done the totals),
checked against its schema before anything reads it, and one pack file per pack
(`packs/L<level>-<first tier>.bltier`), of which the sound ones are the solve's resume
state."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from boardlab.core.errors import CorruptTableError
from boardlab.core.tiers import TierGame
from boardlab.solver.plan import Plan
from boardlab.solver.tierfile import SUFFIX, read_header

MANIFEST = "manifest.json"


def pack_path(folder: Path, name: str) -> Path:
    """Where a pack's file lives."""
    return folder / "packs" / f"{name}{SUFFIX}"


def summarise(counts: npt.NDArray[np.int64]) -> dict[str, Any]:
    """Win/loss/draw counts, the largest remoteness and the code histogram (nonzero codes)."""
    nz = np.flatnonzero(counts)
    top = int(nz[-1]) if len(nz) else 0
    return {
        "win": int(counts[2::2].sum()),
        "loss": int(counts[3::2].sum()),
        "draw": int(counts[1]),
        "invalid": int(counts[0]),
        "max_remoteness": max(0, (top - 2) // 2) if top >= 2 else 0,
        "histogram": [[int(c), int(counts[c])] for c in nz],
    }


NonNegativeInt = Annotated[StrictInt, Field(ge=0)]
_Pair = Annotated[list[NonNegativeInt], Field(min_length=2, max_length=2)]


class _Manifest(BaseModel):
    """The shape a manifest must have before anything reads it (extra keys are kept)."""

    model_config = ConfigDict(extra="allow")

    ruleset: StrictStr
    spec: dict[str, Any]
    codec: StrictStr
    levels: NonNegativeInt
    tiers: NonNegativeInt
    packs: NonNegativeInt
    positions_indexed: NonNegativeInt
    complete: StrictBool
    pack_tiers: dict[str, list[NonNegativeInt]]
    # the totals, present once complete
    positions: NonNegativeInt | None = None
    win: NonNegativeInt | None = None
    loss: NonNegativeInt | None = None
    draw: NonNegativeInt | None = None
    max_remoteness: NonNegativeInt | None = None
    histogram: list[_Pair] | None = None
    bytes: NonNegativeInt | None = None

    @model_validator(mode="after")
    def _totals_when_complete(self) -> _Manifest:
        totals = (self.positions, self.win, self.loss, self.draw, self.max_remoteness)
        if self.complete and (None in totals or self.histogram is None or self.bytes is None):
            raise ValueError("a complete manifest has its totals")
        return self


MANIFEST_BYTES = 64 << 20  # far above any real manifest (6×6: a few MB)


def read_manifest(folder: Path, rebuild_hint: str | None = None) -> dict[str, Any] | None:
    """The manifest, checked against its schema; None if the folder has none.

    A manifest that is present but cannot be read, is not JSON, or is JSON of the wrong
    shape raises CorruptTableError ("table damaged: ... rebuild it with: `rebuild_hint`")."""
    path = folder / MANIFEST
    hint = f"; rebuild it with: {rebuild_hint} --force" if rebuild_hint else ""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except OSError as exc:
        raise CorruptTableError(
            f"table damaged: {folder.name}: cannot read its manifest ({exc.strerror}){hint}"
        ) from None
    if not stat.S_ISREG(st.st_mode):
        raise CorruptTableError(
            f"table damaged: {folder.name}: {MANIFEST} is not a regular file{hint}"
        )
    if st.st_size > MANIFEST_BYTES:
        raise CorruptTableError(f"table damaged: {folder.name}: {MANIFEST} is too large{hint}")
    try:
        data = json.loads(path.read_bytes())
    except OSError as exc:
        raise CorruptTableError(
            f"table damaged: {folder.name}: cannot read its manifest ({exc.strerror}){hint}"
        ) from None
    except (ValueError, RecursionError):
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest is not valid JSON{hint}"
        ) from None
    if not isinstance(data, dict):
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest is not a JSON object{hint}"
        )
    try:
        _Manifest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "the whole"
        raise CorruptTableError(
            f"table damaged: {folder.name}: its manifest has the wrong shape "
            f"({where}: {err.get('msg', 'invalid')}){hint}"
        ) from None
    checked: dict[str, Any] = data
    return checked


def table_files_present(folder: Path) -> bool:
    """True when the folder holds any pack file (a table whose manifest went missing is
    damaged, not missing)."""
    try:
        with os.scandir(folder / "packs") as it:
            return any(e.name.endswith(SUFFIX) for e in it)
    except OSError:
        return False


def write_manifest(folder: Path, data: dict[str, Any]) -> None:
    """Write the manifest through a temporary file and a rename."""
    path = folder / MANIFEST
    tmp = path.with_name(f".{MANIFEST}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    os.replace(tmp, path)


def done_packs(game: TierGame, folder: Path, plan: Plan) -> dict[str, dict[str, Any]]:
    """Header of every pack whose file is present and sound (damaged ones are removed)."""
    out: dict[str, dict[str, Any]] = {}
    packs = folder / "packs"
    if not packs.is_dir():
        return out
    names = {p.name for p in plan.packs}
    for tmp in packs.glob(".*.tmp"):
        tmp.unlink(missing_ok=True)  # left by a run that was killed while writing
    for path in packs.glob(f"*{SUFFIX}"):
        name = path.name.removesuffix(SUFFIX)
        if name not in names:
            continue
        try:
            head = read_header(path, game.rebuild_command)
        except CorruptTableError:
            path.unlink(missing_ok=True)
            continue
        if head.get("ruleset") != game.ruleset_id or head.get("pack") != name:
            continue
        out[name] = head
    return out


def totals(headers: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts over packs: positions, win, loss, draw, max remoteness, histogram."""
    hist: dict[int, int] = {}
    for h in headers:
        for c, n in h["histogram"]:
            hist[c] = hist.get(c, 0) + n
    win = sum(h["win"] for h in headers)
    loss = sum(h["loss"] for h in headers)
    draw = sum(h["draw"] for h in headers)
    return {
        "positions": win + loss + draw,
        "win": win,
        "loss": loss,
        "draw": draw,
        "max_remoteness": max((h["max_remoteness"] for h in headers), default=0),
        "histogram": sorted([c, n] for c, n in hist.items() if c > 0),
    }
