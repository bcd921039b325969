"""Tier pack files: the solved codes of one or more tiers, compressed in checked blocks.

Layout (docs/tablebase-format.md): magic, header length (u32), JSON header, header CRC-32,
block table (u64 offsets of the blocks in the payload, then a u32 CRC-32 of each block),
then the compressed blocks. Each tier's codes start a new block. The JSON is written with
sorted keys and nothing that depends on time or machine, so the same solve gives the same
bytes. Files are written to a temporary name in the same folder, synced and renamed: a file
with the final name is always complete.
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import CorruptTableError

MAGIC = b"BLTIER1\n"
FORMAT_VERSION = 2
BLOCK_ENTRIES = 1 << 14
SUFFIX = ".bltier"
CODECS = ("zstd", "zlib")
DEFAULT_CODEC = "zstd"
ZSTD_LEVEL = 3
ZLIB_LEVEL = 6
CACHE_BLOCKS = 1024


def compress(raw: bytes, codec: str) -> bytes:
    """One block, compressed."""
    if codec == "zstd":
        import zstandard

        return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)
    return zlib.compress(raw, ZLIB_LEVEL)


def decompress(blob: bytes, codec: str, size: int) -> bytes:
    """One block, decompressed (`size` bytes expected)."""
    if codec == "zstd":
        import zstandard

        return zstandard.ZstdDecompressor().decompress(blob, max_output_size=size)
    return zlib.decompress(blob)


def narrow(codes: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Codes as bytes when they fit, else 16-bit little-endian."""
    if len(codes) == 0 or int(codes.max()) < 256:
        return codes.astype("<u1")
    return codes.astype("<u2")


def write_pack(
    path: Path,
    tiers: Sequence[tuple[int, npt.NDArray[Any]]],
    header: dict[str, Any],
    codec: str = DEFAULT_CODEC,
) -> int:
    """Write the codes of `tiers` [(tier id, codes)] to `path` atomically; returns its size."""
    blobs: list[bytes] = []
    entries = []
    sha = hashlib.sha256()
    for tier, codes in tiers:
        arr = narrow(codes)
        first = len(blobs)
        for lo in range(0, max(1, len(arr)), BLOCK_ENTRIES):
            blob = compress(arr[lo : lo + BLOCK_ENTRIES].tobytes(), codec)
            sha.update(blob)
            blobs.append(blob)
        entries.append([int(tier), len(arr), arr.dtype.itemsize, first, len(blobs) - first])
    offsets = np.zeros(len(blobs) + 1, dtype="<u8")
    np.cumsum([len(b) for b in blobs], out=offsets[1:])
    crcs = np.array([zlib.crc32(b) for b in blobs], dtype="<u4")
    table = offsets.tobytes() + crcs.tobytes()
    head = dict(header)
    head.update(
        format_version=FORMAT_VERSION,
        codec=codec,
        block_entries=BLOCK_ENTRIES,
        blocks=len(blobs),
        tiers=entries,
        block_table_crc32=zlib.crc32(table),
        payload_bytes=int(offsets[-1]),
        payload_sha256=sha.hexdigest(),
    )
    text = json.dumps(head, sort_keys=True, separators=(",", ":")).encode()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + struct.pack("<I", len(text)) + text)
            fh.write(struct.pack("<I", zlib.crc32(text)) + table)
            for blob in blobs:
                fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path.stat().st_size


class PackFile:
    """A pack file opened read-only (mmap); blocks are checked against their CRC when read."""

    def __init__(self, path: Path, rebuild_hint: str) -> None:
        self.path = path
        self._hint = rebuild_hint
        try:
            with open(path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size < len(MAGIC) + 8:
                    self._fail("truncated file")
                self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as exc:
            raise CorruptTableError(
                f"{path}: cannot be read ({exc.strerror}); rebuild it with: {rebuild_hint}"
            ) from None
        mm = self._mm
        if mm[: len(MAGIC)] != MAGIC:
            self._fail("not a BoardLab tier file (bad magic)")
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
        if h.get("format_version") != FORMAT_VERSION or h.get("codec") not in CODECS:
            self._fail(f"format {h.get('format_version')}/{h.get('codec')} is not supported")
        nblocks = int(h["blocks"])
        tstart = start + hlen + 4
        tsize = 12 * nblocks + 8
        self._payload = tstart + tsize
        if self._payload + int(h["payload_bytes"]) != len(mm):
            self._fail(
                f"size is {len(mm)} bytes, expected {self._payload + int(h['payload_bytes'])}"
                " (truncated or padded)"
            )
        if zlib.crc32(mm[tstart : tstart + tsize]) != h["block_table_crc32"]:
            self._fail("block table checksum mismatch")
        self._offsets = np.frombuffer(mm, "<u8", nblocks + 1, tstart).astype(np.int64)
        self._crcs = np.frombuffer(mm, "<u4", nblocks, tstart + 8 * (nblocks + 1)).copy()
        self.codec = str(h["codec"])
        self.block_entries = int(h["block_entries"])
        # tier -> (entries, entry bytes, first block)
        self.tiers: dict[int, tuple[int, int, int]] = {
            int(t): (int(n), int(eb), int(fb)) for t, n, eb, fb, _ in h["tiers"]
        }
        self._cache: OrderedDict[tuple[int, int], npt.NDArray[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def _fail(self, why: str) -> NoReturn:
        raise CorruptTableError(f"{self.path}: {why}; rebuild it with: {self._hint}")

    def _block(self, b: int, count: int, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        lo = int(self._offsets[b]) + self._payload
        hi = int(self._offsets[b + 1]) + self._payload
        blob = self._mm[lo:hi]
        if zlib.crc32(blob) != int(self._crcs[b]):
            self._fail(f"block {b} checksum mismatch")
        try:
            raw = decompress(blob, self.codec, count * dtype.itemsize)
        except Exception:  # zlib.error, zstandard.ZstdError
            self._fail(f"block {b} does not decompress")
        if len(raw) != count * dtype.itemsize:
            self._fail(f"block {b} has the wrong length")
        return np.frombuffer(raw, dtype=dtype)

    def _where(self, tier: int) -> tuple[int, np.dtype[Any], int]:
        try:
            n, eb, first = self.tiers[tier]
        except KeyError:
            self._fail(f"tier {tier} is not in this file")
        return n, np.dtype("<u1" if eb == 1 else "<u2"), first

    def tier_codes(self, tier: int) -> npt.NDArray[np.uint16]:
        """Every code of a tier, as a new uint16 array."""
        n, dtype, first = self._where(tier)
        out = np.empty(n, np.uint16)
        be = self.block_entries
        for k, lo in enumerate(range(0, n, be)):
            out[lo : lo + be] = self._block(first + k, min(be, n - lo), dtype)
        return out

    def code(self, tier: int, index: int) -> int:
        """One code (blocks kept in a small LRU cache); thread-safe."""
        n, dtype, first = self._where(tier)
        if not 0 <= index < n:
            self._fail(f"index {index} outside tier {tier}")
        k, off = divmod(index, self.block_entries)
        key = (tier, k)
        with self._lock:
            arr = self._cache.get(key)
            if arr is None:
                count = min(self.block_entries, n - k * self.block_entries)
                arr = self._block(first + k, count, dtype)
                self._cache[key] = arr
                if len(self._cache) > CACHE_BLOCKS:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(key)
        return int(arr[off])

    def check(self) -> None:
        """Verify the payload checksum (every byte); raises CorruptTableError."""
        sha = hashlib.sha256()
        sha.update(self._mm[self._payload :])
        if sha.hexdigest() != self.header["payload_sha256"]:
            self._fail("payload checksum mismatch")

    def close(self) -> None:
        """Release the mapping."""
        self._cache.clear()
        del self._offsets
        self._mm.close()


def read_header(path: Path, rebuild_hint: str) -> dict[str, Any]:
    """The checked header of a pack file (structure checked, payload not read)."""
    pf = PackFile(path, rebuild_hint)
    try:
        return pf.header
    finally:
        pf.close()
