"""Pack files: read with positional reads (a file cut under an open reader gives an error,
never a crash), headers checked for sense even when their checksum is right, and temporary
files of an interrupted write removed on resume."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.core.errors import CorruptTableError
from boardlab.games.dodgem.rules import rules_for
from boardlab.games.dodgem.tiers import DodgemTiers
from boardlab.solver.folder import done_packs
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import MAGIC, PackFile, write_pack

HINT = "boardlab solve --size 4 --force"


def _pack(tmp_path: Path) -> tuple[Path, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 300, 70000).astype(np.uint16)
    path = tmp_path / "p.bltier"
    write_pack(path, [(3, codes), (4, codes[:10])], {"ruleset": "x"}, "zlib")
    return path, codes


def _split(data: bytes) -> tuple[dict[str, Any], bytes]:
    (hlen,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    return json.loads(data[start : start + hlen]), data[start + hlen + 4 :]


def _join(header: dict[str, Any], rest: bytes) -> bytes:
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(text)) + text + struct.pack("<I", zlib.crc32(text)) + rest


def test_a_file_cut_under_an_open_reader_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path, codes = _pack(tmp_path)
    pf = PackFile(path, HINT)
    assert pf.code(3, 5) == codes[5]
    with open(path, "r+b") as fh:
        fh.truncate(path.stat().st_size // 2)
    with pytest.raises(CorruptTableError) as err:
        pf.tier_codes(3)  # the later blocks are gone
    assert "truncated file" in str(err.value) and HINT in str(err.value)
    assert "\n" not in str(err.value)
    pf.close()


@pytest.mark.parametrize(
    "change",
    [
        {"blocks": -1},
        {"blocks": "7"},
        {"blocks": True},
        {"block_entries": 0},
        {"payload_bytes": None},
        {"tiers": "all"},
        {"tiers": [[3, 70000, 2, 0]]},
        {"tiers": [[3, 70000, 3, 0, 5]]},
        {"tiers": [[3, 70000, 2, 0, 999]]},
        {"tiers": [[3, 10**9, 2, 0, 5]]},
        {"format_version": 99},
        {"codec": "lz4"},
    ],
)
def test_a_crafted_header_with_a_valid_checksum_is_refused_in_one_line(
    tmp_path: Path, change: dict[str, Any]
) -> None:
    path, _ = _pack(tmp_path)
    header, rest = _split(path.read_bytes())
    header.update(change)
    path.write_bytes(_join(header, rest))
    with pytest.raises(CorruptTableError) as err:
        pf = PackFile(path, HINT)
        for t in pf.tiers:
            pf.tier_codes(t)
    text = str(err.value)
    assert "\n" not in text and text.startswith(str(path)) and text.endswith(HINT)


def test_a_crafted_block_table_is_refused(tmp_path: Path) -> None:
    path, _ = _pack(tmp_path)
    header, rest = _split(path.read_bytes())
    nblocks = header["blocks"]
    offsets = np.frombuffer(rest[: 8 * (nblocks + 1)], "<u8").copy()
    offsets[1], offsets[2] = offsets[2], offsets[1]  # not increasing
    table = offsets.tobytes() + rest[8 * (nblocks + 1) : 12 * nblocks + 8]
    header["block_table_crc32"] = zlib.crc32(table)
    path.write_bytes(_join(header, table + rest[12 * nblocks + 8 :]))
    with pytest.raises(CorruptTableError, match="malformed block table"):
        PackFile(path, HINT)


def test_temporary_files_of_an_interrupted_write_are_removed(tmp_path: Path) -> None:
    game = DodgemTiers(rules_for("classic", 3))
    plan = make_plan(game)
    packs = tmp_path / "packs"
    packs.mkdir()
    stray = packs / f".{plan.packs[0].name}.bltier.12345.tmp"
    stray.write_bytes(b"half a pack")
    assert done_packs(game, tmp_path, plan) == {}
    assert not stray.exists()
