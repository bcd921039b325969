"""Codec comparison for tier files: ratio and speed of zlib and zstd (several levels) on the
blocks of a real table (5×5 classic by default), as the pack writer cuts them.

    python benchmarks/codecs.py [--variant classic] [--size 5] [--tables DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import zstandard

from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import ensure_table
from boardlab.solver.tierfile import BLOCK_ENTRIES, narrow


def blocks_of(variant: str, size: int, tables: Path) -> list[bytes]:
    table = ensure_table(rules_for(variant, size), tables)
    out: list[bytes] = []
    for name in sorted(table.manifest["pack_tiers"]):
        pf = table.pack(name)
        for tier in sorted(pf.tiers):
            arr = narrow(pf.tier_codes(tier))
            for lo in range(0, max(1, len(arr)), BLOCK_ENTRIES):
                out.append(arr[lo : lo + BLOCK_ENTRIES].tobytes())
    return out


def measure(
    blocks: list[bytes], pack: Callable[[bytes], bytes], unpack: Callable[[bytes], bytes]
) -> tuple[float, float, float]:
    raw = sum(len(b) for b in blocks)
    t0 = time.perf_counter()
    packed = [pack(b) for b in blocks]
    t1 = time.perf_counter()
    for p in packed:
        unpack(p)
    t2 = time.perf_counter()
    return raw / sum(len(p) for p in packed), raw / (t1 - t0) / 1e6, raw / (t2 - t1) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--tables", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        blocks = blocks_of(args.variant, args.size, args.tables or Path(tmp))
    raw = sum(len(b) for b in blocks)
    print(f"{args.size}x{args.size} {args.variant}: {len(blocks):,} blocks, {raw:,} bytes raw")
    print(f"{'codec':>10} {'ratio':>7} {'pack MB/s':>10} {'unpack MB/s':>12}")
    codecs: list[tuple[str, Callable[[bytes], bytes], Callable[[bytes], bytes]]] = []
    for level in (1, 6, 9):
        codecs.append((f"zlib-{level}", lambda b, lv=level: zlib.compress(b, lv), zlib.decompress))
    dctx = zstandard.ZstdDecompressor()
    for level in (1, 3, 9, 19):
        cctx = zstandard.ZstdCompressor(level=level)
        codecs.append((f"zstd-{level}", cctx.compress, dctx.decompress))
    for name, pack, unpack in codecs:
        ratio, speed_in, speed_out = measure(blocks, pack, unpack)
        print(f"{name:>10} {ratio:7.2f} {speed_in:10.1f} {speed_out:12.1f}", flush=True)


if __name__ == "__main__":
    main()
