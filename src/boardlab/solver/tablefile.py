"""Tablebase files: writing (atomic) and reading (pread, lazily checked blocks).

Layout (docs/tablebase-format.md): magic, header length, JSON header, header CRC32, block
table, then the zlib-compressed blocks of the code array in index order.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
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
    """A tablebase file opened read-only; blocks are read with `pread` and checked when first
    used.

    The file is never memory-mapped: a file truncated or rewritten in place while it is open
    would turn a mapped read into SIGBUS and kill the process. Reads here are plain system
    calls on the open descriptor, checked for length, and every block read first checks that
    the file still has the size and identity it had when opened, so a changed file gives
    CorruptTableError ("rebuild it with …") instead.
    """

    def __init__(self, path: Path, rebuild_hint: str) -> None:
        self.path = path
        self._hint = rebuild_hint
        self._fd = -1
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except IsADirectoryError:
            self._fail("is a folder, not a file")
        except OSError as exc:
            self._fail(f"cannot be read ({exc.strerror or exc.__class__.__name__})")
        self._fd = fd
        try:
            self._open(fd)
        except BaseException:
            os.close(fd)
            self._fd = -1
            raise

    def _open(self, fd: int) -> None:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            self._fail("is not a regular file")
        self._identity = (st.st_dev, st.st_ino, st.st_size)
        size = st.st_size
        if size == 0:
            self._fail("the file is empty")
        head = self._pread(0, min(size, len(MAGIC) + 4))
        if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
            self._fail("not a BoardLab tablebase (bad magic)")
        (hlen,) = struct.unpack_from("<I", head, len(MAGIC))
        start = len(MAGIC) + 4
        if start + hlen + 4 > size:
            self._fail("truncated header")
        raw = self._pread(start, hlen + 4)
        text = raw[:hlen]
        (crc,) = struct.unpack_from("<I", raw, hlen)
        if zlib.crc32(text) != crc:
            self._fail("header checksum mismatch")
        try:
            header = json.loads(text)
        except (ValueError, RecursionError):
            self._fail("unreadable header")
        self.header: dict[str, Any] = _checked_header(header, self._fail)
        h = self.header
        nblocks = int(h["blocks"])
        tstart = start + hlen + 4
        tsize = 8 * (nblocks + 1) + 4 * nblocks
        self._payload = tstart + tsize
        if self._payload + int(h["payload_bytes"]) != size:
            self._fail(
                f"size is {size} bytes, expected {self._payload + int(h['payload_bytes'])}"
                " (truncated or padded)"
            )
        table = self._pread(tstart, tsize)
        if zlib.crc32(table) != h["block_table_crc32"]:
            self._fail("block table checksum mismatch")
        self._offsets = np.frombuffer(table, dtype="<u8", count=nblocks + 1).astype(np.int64)
        self._crcs = np.frombuffer(table, dtype="<u4", count=nblocks, offset=8 * (nblocks + 1))
        if self._offsets[0] != 0 or np.any(np.diff(self._offsets) < 0):
            self._fail("block table out of order")
        if int(self._offsets[-1]) != int(h["payload_bytes"]):
            self._fail("block table does not match the payload size")
        self.entries = int(h["entries"])
        self.block_entries = int(h["block_entries"])
        self._dtype = np.dtype("<u1") if h["entry_bytes"] == 1 else np.dtype("<u2")
        self._cache: OrderedDict[int, npt.NDArray[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def _pread(self, offset: int, length: int) -> bytes:
        """`length` bytes at `offset`, or CorruptTableError if the file no longer has them."""
        try:
            data = os.pread(self._fd, length, offset)
        except OSError as exc:
            self._fail(f"read failed ({exc.strerror or exc.__class__.__name__})")
        if len(data) != length:
            self._fail("the file is shorter than when it was opened (changed while in use)")
        return data

    def _check_unchanged(self) -> None:
        """CorruptTableError if the open file was truncated or grown since it was opened."""
        try:
            st = os.fstat(self._fd)
        except OSError as exc:
            self._fail(f"cannot be read ({exc.strerror or exc.__class__.__name__})")
        if (st.st_dev, st.st_ino, st.st_size) != self._identity:
            self._fail(
                f"the file changed while in use (now {st.st_size} bytes, was {self._identity[2]})"
            )

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
        if not 0 <= b < len(self._crcs):
            self._fail(f"no block {b}")
        self._check_unchanged()
        lo, hi = int(self._offsets[b]) + self._payload, int(self._offsets[b + 1]) + self._payload
        blob = self._pread(lo, hi - lo)
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
        self._check_unchanged()
        pos, end = self._payload, self._payload + int(self.header["payload_bytes"])
        while pos < end:
            step = min(1 << 22, end - pos)
            sha.update(self._pread(pos, step))
            pos += step
        if sha.hexdigest() != self.header["payload_sha256"]:
            self._fail("payload checksum mismatch")

    def close(self) -> None:
        """Release the file."""
        self._cache.clear()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        fd = getattr(self, "_fd", -1)
        if fd >= 0:
            os.close(fd)


_HEADER_INTS = ("blocks", "payload_bytes", "entries", "block_entries", "entry_bytes")


def _checked_header(header: Any, fail: Callable[[str], NoReturn]) -> dict[str, Any]:
    """The header if every field the reader relies on is present and of the right type and
    range (a header with a valid checksum can still be crafted); else `fail(why)`."""
    if not isinstance(header, dict):
        fail("header is not an object")
    if header.get("format_version") != FORMAT_VERSION or header.get("index_scheme") != (
        INDEX_SCHEME
    ):
        fail(
            f"format {header.get('format_version')!r}/{header.get('index_scheme')!r} "
            "is not supported"
        )
    for key in _HEADER_INTS:
        value = header.get(key)
        if type(value) is not int or not 0 <= value < 1 << 48:
            fail(f"header field {key!r} is missing or not a count")
    if header["entry_bytes"] not in (1, 2):
        fail("header field 'entry_bytes' must be 1 or 2")
    if header["block_entries"] < 1:
        fail("header field 'block_entries' must be positive")
    need = (header["entries"] + header["block_entries"] - 1) // header["block_entries"]
    if header["blocks"] != need:
        fail(f"header says {header['blocks']} blocks for {header['entries']} entries")
    crc = header.get("block_table_crc32")
    if type(crc) is not int:
        fail("header field 'block_table_crc32' is missing or not a number")
    if not isinstance(header.get("payload_sha256"), str):
        fail("header field 'payload_sha256' is missing")
    for key in ("game", "ruleset"):
        if key in header and not isinstance(header[key], str):
            fail(f"header field {key!r} is not text")
    if "options" in header and not isinstance(header["options"], dict):
        fail("header field 'options' is not an object")
    return header
