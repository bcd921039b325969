"""One SHA-256 per table: what two builds of the same rules share however they were made.

The digest covers the table's values, not its file bytes: for each pack in the plan's order
(level by level, by first tier), each tier's id, entry count and codes (one byte each when
every code of the tier is below 256, else two, little-endian), with the digest scheme, the
ruleset id and the adapter's layout in front. Pack files are themselves the same whatever the
number of workers or interruptions, but they also depend on the codec and its settings; the
values do not, so a table written with `--codec zlib`, or by a later solver that compresses
differently, has the digest of the table it stands for. The scheme's name changes if what is
hashed ever changes.

Each pack is hashed on its own (in parallel threads: decompression and hashing release the
GIL), and the digest hashes the list of pack hashes. Every block read is checked against its
CRC-32 on the way, so a damaged pack fails the digest with the file's name.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.core.errors import CorruptTableError, MissingTableError
from boardlab.core.tiers import TierGame
from boardlab.solver.folder import MANIFEST, pack_path, read_manifest
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import PackFile

SCHEME = "boardlab-table-digest-1"
RECORD = "digest.json"  # the last digest computed of a table, beside its manifest


@dataclass(frozen=True)
class TableDigest:
    """The digest of a table and what it covers."""

    ruleset: str
    sha256: str
    packs: int
    entries: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "scheme": SCHEME,
            "ruleset": self.ruleset,
            "sha256": self.sha256,
            "packs": self.packs,
            "entries": self.entries,
        }


def layout(spec: Any) -> Any:
    """A spec without the adapter's module path (which may move between versions)."""
    return {k: v for k, v in spec.items() if k != "adapter"} if isinstance(spec, dict) else spec


def plan_packs(game: TierGame) -> list[tuple[str, tuple[int, ...]]]:
    """(pack name, its tiers) in the plan's order: the canonical order of the digest."""
    return [(p.name, p.tiers) for p in make_plan(game).packs]


def check_manifest(
    game: TierGame, folder: Path, manifest: dict[str, Any] | None, order: Sequence[Any]
) -> dict[str, Any]:
    """The manifest of a complete table of `game` whose packs are those of the plan;
    MissingTableError when there is none, CorruptTableError when it is another table."""
    if manifest is None or not manifest.get("complete"):
        raise MissingTableError(
            f"no complete table in {folder}; build it with: {game.rebuild_command}"
        )
    if manifest.get("ruleset") != game.ruleset_id or layout(manifest.get("spec")) != layout(
        game.spec()
    ):
        raise CorruptTableError(
            f"{folder}: holds {manifest.get('ruleset')!s:.80}, not {game.ruleset_id}"
        )
    want = {name: list(tiers) for name, tiers in order}
    if manifest.get("pack_tiers") != want:
        raise CorruptTableError(
            f"{folder}: its packs are not those this version of BoardLab plans for "
            f"{game.ruleset_id}; rebuild it with: {game.rebuild_command} --force"
        )
    return manifest


def pack_sha256(path: Path, ruleset: str, name: str, tiers: Sequence[int], hint: str) -> str:
    """The hash of one pack's values (see the module docstring); CorruptTableError when the
    file is damaged, is another pack or holds other tiers."""
    pf = PackFile(path, hint)
    try:
        head = pf.header
        if head.get("ruleset") != ruleset or head.get("pack") != name:
            raise CorruptTableError(f"{path}: holds another pack; rebuild it with: {hint}")
        if sorted(pf.tiers) != sorted(tiers):
            raise CorruptTableError(f"{path}: holds other tiers; rebuild it with: {hint}")
        sha = hashlib.sha256()
        for t in tiers:
            n, width, _ = pf.tiers[t]
            if width == 1:
                sha.update(struct.pack("<qqB", t, n, 1))
                for block in pf.tier_blocks(t):
                    sha.update(block.data)
                continue
            codes = pf.tier_codes(t)
            wide = n > 0 and int(codes.max()) >= 256
            sha.update(struct.pack("<qqB", t, n, 2 if wide else 1))
            sha.update(codes.astype("<u2" if wide else "<u1").tobytes())
        return sha.hexdigest()
    finally:
        pf.close()


def table_digest(
    game: TierGame,
    folder: Path,
    jobs: int | None = None,
    on_pack: Callable[[int, int], None] | None = None,
    order: Sequence[tuple[str, tuple[int, ...]]] | None = None,
) -> TableDigest:
    """The digest of the complete table of `game` in `folder` (packs hashed on `jobs`
    threads, default the core count; `on_pack(done, all)` after each); `order`: the plan's
    packs when the caller has them already."""
    order = plan_packs(game) if order is None else order
    manifest = check_manifest(game, folder, read_manifest(folder), order)
    hint = f"{game.rebuild_command} --force"
    ruleset = game.ruleset_id
    total = len(order)
    done = 0

    def one(item: tuple[str, tuple[int, ...]]) -> str:
        name, tiers = item
        return pack_sha256(pack_path(folder, name), ruleset, name, tiers, hint)

    top = hashlib.sha256()
    top.update(f"{SCHEME}\n{ruleset}\n".encode())
    top.update(json.dumps(layout(manifest["spec"]), sort_keys=True).encode() + b"\n")
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    pool = ThreadPoolExecutor(workers)
    try:
        for (name, _), h in zip(order, pool.map(one, order), strict=True):
            top.update(f"{name} {h}\n".encode())
            done += 1
            if on_pack is not None:
                on_pack(done, total)
    finally:  # on an error or Ctrl-C the packs not yet started are dropped, not hashed
        pool.shutdown(wait=True, cancel_futures=True)
    entries = sum(game.tier_size(t) for _, tiers in order for t in tiers)
    return TableDigest(ruleset, top.hexdigest(), total, entries)


def _manifest_sha256(folder: Path) -> str | None:
    try:
        return hashlib.sha256((folder / MANIFEST).read_bytes()).hexdigest()
    except OSError:
        return None


def write_record(folder: Path, digest: TableDigest) -> None:
    """Keep the digest beside the manifest (a temporary file renamed), tied to the manifest's
    bytes so that a rebuilt or replaced table does not show an old digest."""
    data = {**digest.as_dict(), "manifest_sha256": _manifest_sha256(folder)}
    tmp = folder / f".{RECORD}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
    os.replace(tmp, folder / RECORD)


def read_record(folder: Path) -> TableDigest | None:
    """The recorded digest of the table in `folder`, or None when there is none or it was
    made for another manifest or scheme."""
    try:
        data = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("scheme") != SCHEME:
        return None
    manifest = _manifest_sha256(folder)
    if manifest is None or data.get("manifest_sha256") != manifest:
        return None
    try:
        return TableDigest(
            str(data["ruleset"]), str(data["sha256"]), int(data["packs"]), int(data["entries"])
        )
    except (KeyError, TypeError, ValueError):
        return None


def is_sha256(text: str) -> bool:
    """True for 64 lowercase hexadecimal digits."""
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


__all__ = [
    "RECORD",
    "SCHEME",
    "TableDigest",
    "is_sha256",
    "read_record",
    "table_digest",
    "write_record",
]
