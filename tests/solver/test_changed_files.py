"""Table files that change while open, or that are crafted (issue items 4 and 10): a clean
CorruptTableError ("rebuild it with …"), never SIGBUS, KeyError or AttributeError."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.core.errors import CorruptTableError
from boardlab.solver.tablefile import MAGIC, TableFile, write_table

HINT = "boardlab solve --size 4 --force"


def sample_table(path: Path, entries: int = 200_000) -> np.ndarray[Any, Any]:
    codes = (np.arange(entries, dtype=np.int64) * 7919 % 251).astype(np.uint16)
    write_table(path, codes, {"game": "test"})
    return codes


def test_reader_agrees_with_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "t.bltb"
    codes = sample_table(path)
    f = TableFile(path, HINT)
    assert np.array_equal(f.codes(0, len(codes)), codes)
    assert [f.code(i) for i in (0, 4095, 4096, len(codes) - 1)] == [
        int(codes[i]) for i in (0, 4095, 4096, len(codes) - 1)
    ]
    f.check()
    f.close()


def test_truncating_an_open_table_in_another_process_is_no_crash(tmp_path: Path) -> None:
    """The reader runs in a subprocess (a SIGBUS would kill it); the file is truncated after
    it opened the table and before it reads the blocks."""
    path = tmp_path / "t.bltb"
    sample_table(path, 400_000)
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from boardlab.core.errors import CorruptTableError
        from boardlab.solver.tablefile import TableFile
        f = TableFile(Path({str(path)!r}), {HINT!r})
        print("open", flush=True)
        sys.stdin.readline()
        try:
            f.codes(f.entries - 10, f.entries)  # wholly past the new end: SIGBUS if mapped
        except CorruptTableError as exc:
            print("damaged:", exc, flush=True)
            sys.exit(0)
        print("read everything", flush=True)
        sys.exit(3)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == "open"
    os.truncate(path, path.stat().st_size // 3)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (proc.returncode, out, err)  # -7 would be SIGBUS
    assert "damaged:" in out and "changed while in use" in out and HINT in out


def test_a_file_replaced_after_opening_is_read_as_it_was(tmp_path: Path) -> None:
    # a rebuild replaces the file by rename: the open table keeps reading its own data
    path = tmp_path / "t.bltb"
    codes = sample_table(path)
    f = TableFile(path, HINT)
    other = tmp_path / "new.bltb"
    sample_table(other, 1000)
    os.replace(other, path)
    assert np.array_equal(f.codes(0, len(codes)), codes)
    f.close()


def crafted(path: Path, header: Any, extra: bytes = b"") -> None:
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack("<I", len(text)) + text
                     + struct.pack("<I", zlib.crc32(text)) + extra)  # fmt: skip


GOOD = {"format_version": 1, "index_scheme": "dodgem-slices-v1"}


@pytest.mark.parametrize(
    "header",
    [
        [1, 2, 3],
        "text",
        GOOD,
        {**GOOD, "blocks": "1"},
        {
            **GOOD,
            "blocks": -1,
            "payload_bytes": 0,
            "entries": 0,
            "block_entries": 1,
            "entry_bytes": 1,
        },
        {
            **GOOD,
            "blocks": 1,
            "payload_bytes": 0,
            "entries": 10,
            "block_entries": 4096,
            "entry_bytes": 3,
            "block_table_crc32": 0,
            "payload_sha256": "",
        },
        {
            **GOOD,
            "blocks": 5,
            "payload_bytes": 0,
            "entries": 10,
            "block_entries": 4096,
            "entry_bytes": 1,
            "block_table_crc32": 0,
            "payload_sha256": "",
        },
        {
            **GOOD,
            "blocks": 1,
            "payload_bytes": 0,
            "entries": 10,
            "block_entries": 4096,
            "entry_bytes": 1,
            "block_table_crc32": None,
            "payload_sha256": "",
        },
        {
            **GOOD,
            "blocks": 1,
            "payload_bytes": 10**30,
            "entries": 10,
            "block_entries": 4096,
            "entry_bytes": 1,
            "block_table_crc32": 0,
            "payload_sha256": "",
        },
    ],
)
def test_crafted_headers_with_a_valid_checksum_are_refused(tmp_path: Path, header: Any) -> None:
    path = tmp_path / "t.bltb"
    crafted(path, header, b"\x00" * 64)
    with pytest.raises(CorruptTableError, match="rebuild it with"):
        TableFile(path, HINT)


def test_crafted_block_table_out_of_order_is_refused(tmp_path: Path) -> None:
    offsets = np.array([0, 50], dtype="<u8").tobytes()
    crcs = np.array([0], dtype="<u4").tobytes()
    table = np.array([0, 40], dtype="<u8").tobytes()[:0] + offsets + crcs
    header = {**GOOD, "blocks": 1, "payload_bytes": 10, "entries": 10, "block_entries": 4096,
              "entry_bytes": 1, "block_table_crc32": zlib.crc32(table),
              "payload_sha256": ""}  # fmt: skip
    path = tmp_path / "t.bltb"
    crafted(path, header, table + b"\x00" * 10)
    with pytest.raises(CorruptTableError, match="block table"):
        TableFile(path, HINT)


@pytest.mark.parametrize("command", ["probe", "analyze", "verify", "stats"])
def test_cli_refuses_a_crafted_table_in_one_line(tmp_path: Path, command: str) -> None:
    from boardlab.core.registry import make_rules
    from boardlab.solver.api import table_path

    path = table_path(make_rules("dodgem", None, 3), tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    crafted(path, {**GOOD, "blocks": 1, "game": ["x"]}, b"\x00" * 32)
    args = [sys.executable, "-m", "boardlab", command, "--size", "3", "--tables", str(tmp_path)]
    proc = subprocess.run(args, input="B2/B2/1RR b\n", capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "rebuild" in lines[0]
    assert "Traceback" not in proc.stderr
