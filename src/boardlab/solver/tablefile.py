"""Tablebase files: writing (atomic) and reading (mmap, lazily checked blocks).

Layout (docs/tablebase-format.md): magic, header length, JSON header, header CRC32, block
table, then the zlib-compressed blocks of the code array in index order.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import CorruptTableError

MAGIC = b"BLTABLE\n"
FORMAT_VERSION = 1
INDEX_SCHEME = "dodgem-slices-v1"
BLOCK_ENTRIES = 1 << 12
COMPRESSION_LEVEL = 6
CACHE_BLOCKS = 4096


def _block_bytes(codes: npt.NDArray[Any], dtype: np.dtype[Any]) -> bytes:
    return codes.astype(dtype, copy=False).tobytes()


def write_table(
    path: Path,
    codes: npt.NDArray[Any],
    header: dict[str, Any],
    on_block: Callable[[int, int], None] | None = None,
    threads: int = 2,
) -> None:
    """Write `codes` with `header` fields to `path` through a temporary file and a rename."""
    total = len(codes)
    maxcode = int(codes.max()) if total else 0
    dtype = np.dtype("<u1") if maxcode < 256 else np.dtype("<u2")
    nblocks = (total + BLOCK_ENTRIES - 1) // BLOCK_ENTRIES
    sha = hashlib.sha256()
    blobs: list[bytes] = []

    def pack(b: int) -> bytes:
        raw = _block_bytes(codes[b * BLOCK_ENTRIES : (b + 1) * BLOCK_ENTRIES], dtype)
        return zlib.compress(raw, COMPRESSION_LEVEL)

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for b, blob in enumerate(pool.map(pack, range(nblocks))):
            sha.update(blob)
            blobs.append(blob)
            if on_block and ((b + 1) % 256 == 0 or b + 1 == nblocks):
                on_block(b + 1, nblocks)
    offsets = np.zeros(nblocks + 1, dtype="<u8")
    np.cumsum([len(x) for x in blobs], out=offsets[1:])
    crcs = np.array([zlib.crc32(x) for x in blobs], dtype="<u4")
    table = offsets.tobytes() + crcs.tobytes()
    head = dict(header)
    head.update(
        format_version=FORMAT_VERSION,
        index_scheme=INDEX_SCHEME,
        entries=total,
        entry_bytes=dtype.itemsize,
        block_entries=BLOCK_ENTRIES,
        blocks=nblocks,
        compression="zlib",
        block_table_crc32=zlib.crc32(table),
        payload_bytes=int(offsets[-1]),
        payload_sha256=sha.hexdigest(),
    )
    text = json.dumps(head, sort_keys=True, separators=(",", ":")).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(
                MAGIC + struct.pack("<I", len(text)) + text + struct.pack("<I", zlib.crc32(text))
            )
            fh.write(table)
            for blob in blobs:
                fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


class TableFile:
    """A tablebase file opened read-only through mmap; blocks are checked when first read."""

    def __init__(self, path: Path, rebuild_hint: str) -> None:
        self.path = path
        self._hint = rebuild_hint
        with open(path, "rb") as fh:
            try:
                self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:
                self._fail("the file is empty")
        mm = self._mm
        if len(mm) < len(MAGIC) + 4 or mm[: len(MAGIC)] != MAGIC:
            self._fail("not a BoardLab tablebase (bad magic)")
        (hlen,) = struct.unpack_from("<I", mm, len(MAGIC))
        start = len(MAGIC) + 4
        if start + hlen + 4 > len(mm):
            self._fail("truncated header")
        text = bytes(mm[start : start + hlen])
        (crc,) = struct.unpack_from("<I", mm, start + hlen)
        if zlib.crc32(text) != crc:
            self._fail("header checksum mismatch")
        try:
            self.header: dict[str, Any] = json.loads(text)
        except ValueError:
            self._fail("unreadable header")
        h = self.header
        if h.get("format_version") != FORMAT_VERSION or h.get("index_scheme") != INDEX_SCHEME:
            self._fail(f"format {h.get('format_version')}/{h.get('index_scheme')} is not supported")
        nblocks = int(h["blocks"])
        tstart = start + hlen + 4
        tsize = 8 * (nblocks + 1) + 4 * nblocks
        self._payload = tstart + tsize
        if self._payload + int(h["payload_bytes"]) != len(mm):
            self._fail(
                f"size is {len(mm)} bytes, expected {self._payload + int(h['payload_bytes'])}"
                " (truncated or padded)"
            )
        if zlib.crc32(mm[tstart : tstart + tsize]) != h["block_table_crc32"]:
            self._fail("block table checksum mismatch")
        self._offsets = np.frombuffer(mm, dtype="<u8", count=nblocks + 1, offset=tstart).astype(
            np.int64
        )
        self._crcs = np.frombuffer(
            mm, dtype="<u4", count=nblocks, offset=tstart + 8 * (nblocks + 1)
        )
        self.entries = int(h["entries"])
        self.block_entries = int(h["block_entries"])
        self._dtype = np.dtype("<u1") if h["entry_bytes"] == 1 else np.dtype("<u2")
        self._cache: OrderedDict[int, npt.NDArray[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def _fail(self, why: str) -> NoReturn:
        raise CorruptTableError(f"{self.path}: {why}; rebuild it with: {self._hint}")

    def block(self, b: int) -> npt.NDArray[Any]:
        """Decompressed block `b` (checked against its CRC32 on first use); thread-safe."""
        with self._lock:
            arr = self._cache.get(b)
            if arr is not None:
                self._cache.move_to_end(b)
                return arr
            return self._load(b)

    def _load(self, b: int) -> npt.NDArray[Any]:
        lo, hi = int(self._offsets[b]) + self._payload, int(self._offsets[b + 1]) + self._payload
        blob = self._mm[lo:hi]
        if zlib.crc32(blob) != int(self._crcs[b]):
            self._fail(f"block {b} checksum mismatch")
        try:
            raw = zlib.decompress(blob)
        except zlib.error:
            self._fail(f"block {b} does not decompress")
        want = min(self.block_entries, self.entries - b * self.block_entries)
        if len(raw) != want * self._dtype.itemsize:
            self._fail(f"block {b} has the wrong length")
        arr = np.frombuffer(raw, dtype=self._dtype)
        self._cache[b] = arr
        if len(self._cache) > CACHE_BLOCKS:
            self._cache.popitem(last=False)
        return arr

    def code(self, index: int) -> int:
        """The stored code at a position index."""
        b, off = divmod(index, self.block_entries)
        arr = self._cache.get(b)
        if arr is None:
            arr = self.block(b)
        return int(arr[off])

    def codes(self, lo: int, hi: int, native: bool = False) -> npt.NDArray[Any]:
        """Codes of the index range [lo, hi) as a new array (uint16, or the file's type)."""
        out = np.empty(hi - lo, dtype=self._dtype if native else np.uint16)
        be = self.block_entries
        i = lo
        while i < hi:
            b, off = divmod(i, be)
            blk = self.block(b)
            take = min(hi - i, len(blk) - off)
            out[i - lo : i - lo + take] = blk[off : off + take]
            i += take
        return out

    def check(self) -> None:
        """Verify the whole payload checksum; raises CorruptTableError."""
        sha = hashlib.sha256()
        for b in range(len(self._crcs)):
            lo, hi = (
                int(self._offsets[b]) + self._payload,
                int(self._offsets[b + 1]) + self._payload,
            )
            sha.update(self._mm[lo:hi])
        if sha.hexdigest() != self.header["payload_sha256"]:
            self._fail("payload checksum mismatch")

    def close(self) -> None:
        """Release the mapping."""
        self._cache.clear()
        del self._offsets, self._crcs
        self._mm.close()
