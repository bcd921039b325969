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
import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import CorruptTableError
from boardlab.core.files import open_regular

MAGIC = b"BLTIER1\n"
FORMAT_VERSION = 2
BLOCK_ENTRIES = 1 << 14
SUFFIX = ".bltier"
CODECS = ("zstd", "zlib")
DEFAULT_CODEC = "zstd"
ZSTD_LEVEL = 3
ZLIB_LEVEL = 6
CACHE_BLOCKS = 1024


_local = threading.local()  # a zstd compressor and decompressor per thread (not shareable)


def compress(raw: bytes, codec: str) -> bytes:
    """One block, compressed (a kept compressor writes the same bytes as a fresh one, without
    setting one up for every block)."""
    if codec == "zstd":
        cctx = getattr(_local, "zstd_c", None)
        if cctx is None:
            import zstandard

            cctx = _local.zstd_c = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
        out: bytes = cctx.compress(raw)
        return out
    return zlib.compress(raw, ZLIB_LEVEL)


def decompress(blob: bytes, codec: str, size: int) -> bytes:
    """One block, decompressed (`size` bytes expected)."""
    if codec == "zstd":
        dctx = getattr(_local, "zstd", None)
        if dctx is None:
            import zstandard

            dctx = _local.zstd = zstandard.ZstdDecompressor()
        out: bytes = dctx.decompress(blob, max_output_size=size)
        return out
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
    return commit_pack(stage_pack(path, tiers, header, codec), path)


def staged_name(path: Path) -> Path:
    """Where `stage_pack` writes the file that `commit_pack` names `path`."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def commit_pack(tmp: Path, path: Path) -> int:
    """Sync a file that `stage_pack` wrote and rename it to `path` (only then is it there,
    whole); returns its size. The staged file is removed if this fails."""
    try:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path.stat().st_size


def stage_pack(
    path: Path,
    tiers: Sequence[tuple[int, npt.NDArray[Any]]],
    header: dict[str, Any],
    codec: str = DEFAULT_CODEC,
) -> Path:
    """The first half of `write_pack`: the file written under a temporary name beside
    `path` (`staged_name`), not yet synced; `commit_pack` syncs and names it, maybe on
    another thread, so that the thread that compressed it need not wait for the disk."""
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
    tmp = staged_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + struct.pack("<I", len(text)) + text)
            fh.write(struct.pack("<I", zlib.crc32(text)) + table)
            for blob in blobs:
                fh.write(blob)
    except BaseException:
        if tmp.exists():
            tmp.unlink()
        raise
    return tmp


class PackFile:
    """A pack file opened read-only. Read with positional reads (no memory map: a file
    truncated or replaced under a running reader gives a clear error, never a crash); every
    block is checked against its CRC when read, and the header's fields are checked for sense
    before use (a crafted header with a valid checksum is refused in one line)."""

    def __init__(self, path: Path, rebuild_hint: str) -> None:
        self.path = path
        self._hint = rebuild_hint
        try:  # a FIFO or device in its place is refused by type before anything reads it
            self._fd = open_regular(path)
        except OSError as exc:
            raise CorruptTableError(
                f"{path}: cannot be read ({exc.strerror or exc}); rebuild it with: {rebuild_hint}"
            ) from None
        try:
            self._open()
        except BaseException:
            os.close(self._fd)
            raise
        self._cache: OrderedDict[tuple[int, int], npt.NDArray[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def _read(self, offset: int, size: int) -> bytes:
        try:
            data = os.pread(self._fd, size, offset)
        except OSError as exc:
            self._fail(f"cannot be read ({exc.strerror})")
        if len(data) != size:
            self._fail("truncated file")
        return data

    def _open(self) -> None:
        size = os.fstat(self._fd).st_size
        if size < len(MAGIC) + 8:
            self._fail("truncated file")
        head = self._read(0, len(MAGIC) + 4)
        if head[: len(MAGIC)] != MAGIC:
            self._fail("not a BoardLab tier file (bad magic)")
        (hlen,) = struct.unpack_from("<I", head, len(MAGIC))
        start = len(MAGIC) + 4
        if start + hlen + 4 > size:
            # a length past the end: the file was cut short, or the length field is damaged
            self._fail(f"damaged header (its length field says {hlen} bytes; the file has {size})")
        raw = self._read(start, hlen + 4)
        text = raw[:hlen]
        (crc,) = struct.unpack_from("<I", raw, hlen)
        if zlib.crc32(text) != crc:
            self._fail("header checksum mismatch")
        try:
            header = json.loads(text)
        except ValueError:
            self._fail("unreadable header")
        if not isinstance(header, dict):
            self._fail("unreadable header")
        self.header: dict[str, Any] = header
        h = header
        if h.get("format_version") != FORMAT_VERSION or h.get("codec") not in CODECS:
            self._fail(f"format {h.get('format_version')}/{h.get('codec')} is not supported")
        nblocks = _count(h.get("blocks"))
        payload = _count(h.get("payload_bytes"))
        entries = _count(h.get("block_entries"))
        tiers = h.get("tiers")
        if None in (nblocks, payload, entries) or not entries or not isinstance(tiers, list):
            self._fail("malformed header")
        assert nblocks is not None and payload is not None and entries is not None
        tstart = start + hlen + 4
        tsize = 12 * nblocks + 8
        self._payload = tstart + tsize
        if self._payload + payload != size:
            self._fail(
                f"size is {size} bytes, expected {self._payload + payload} (truncated or padded)"
            )
        table = self._read(tstart, tsize)
        if zlib.crc32(table) != h.get("block_table_crc32"):
            self._fail("block table checksum mismatch")
        self._offsets = np.frombuffer(table, "<u8", nblocks + 1, 0).astype(np.int64)
        self._crcs = np.frombuffer(table, "<u4", nblocks, 8 * (nblocks + 1)).copy()
        if (
            self._offsets[0] != 0
            or self._offsets[-1] != payload
            or bool(np.any(np.diff(self._offsets) < 0))
        ):
            self._fail("malformed block table")
        self.codec = str(h["codec"])
        self.block_entries = entries
        # tier -> (entries, entry bytes, first block)
        self.tiers: dict[int, tuple[int, int, int]] = {}
        for item in tiers:
            vals = [_count(v) for v in item] if isinstance(item, list) and len(item) == 5 else []
            if len(vals) != 5 or None in vals:
                self._fail("malformed tier list in the header")
            t, n, eb, fb, nb_ = (int(v or 0) for v in vals)
            if eb not in (1, 2) or fb + nb_ > nblocks or nb_ != max(1, -(-n // entries)):
                self._fail(f"malformed entry of tier {t} in the header")
            self.tiers[t] = (n, eb, fb)

    def _fail(self, why: str) -> NoReturn:
        raise CorruptTableError(f"{self.path}: {why}; rebuild it with: {self._hint}")

    def _block(self, b: int, count: int, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        lo = int(self._offsets[b]) + self._payload
        hi = int(self._offsets[b + 1]) + self._payload
        blob = self._read(lo, hi - lo)
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

    def tier_blocks(self, tier: int) -> Iterator[npt.NDArray[Any]]:
        """The codes of a tier block by block, each as stored (u1 or u2), checked."""
        n, dtype, first = self._where(tier)
        be = self.block_entries
        for k, lo in enumerate(range(0, n, be)):
            yield self._block(first + k, min(be, n - lo), dtype)

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
        """Verify the payload checksum (every byte, read in chunks); raises CorruptTableError."""
        sha = hashlib.sha256()
        at = self._payload
        end = self._payload + int(self._offsets[-1])
        while at < end:
            chunk = self._read(at, min(1 << 24, end - at))
            sha.update(chunk)
            at += len(chunk)
        if sha.hexdigest() != self.header["payload_sha256"]:
            self._fail("payload checksum mismatch")

    def close(self) -> None:
        """Close the file."""
        self._cache.clear()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _count(value: Any) -> int | None:
    """A header number: a non-negative int (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def read_header(path: Path, rebuild_hint: str) -> dict[str, Any]:
    """The checked header of a pack file (structure checked, payload not read)."""
    pf = PackFile(path, rebuild_hint)
    try:
        return pf.header
    finally:
        pf.close()
