"""The verifier gives freed arrays back to the system: without that, glibc
keeps a dropped child tier in its heap, and the resident set outgrows the memory budget."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys, numpy as np
from boardlab.solver.engine import release_freed_arrays, resident_bytes
if sys.argv[1] == "release":
    release_freed_arrays()
lifted = np.ones(16 << 20, np.uint8)  # freed, it lifts glibc's threshold to 16 MiB
del lifted
before = resident_bytes()
tier = np.ones(8 << 20, np.uint8)  # a cached tier of 8 MiB
later = np.ones(64 << 10, np.uint8)  # something allocated after it, still held
held = resident_bytes()
del tier  # the cache drops it
print((held - before) >> 20, (resident_bytes() - before) >> 20)
"""


def kept_mib(mode: str) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_a_dropped_tier_leaves_the_resident_set() -> None:
    held, after = kept_mib("release")
    assert held >= 7  # the tier was resident
    assert after <= 1  # and went back to the system when dropped


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_without_it_the_heap_keeps_the_dropped_tier() -> None:
    # what the setting is for: glibc's default keeps it (if this ever fails, the default
    # changed and the setting may no longer be needed)
    held, after = kept_mib("default")
    assert held >= 7 and after >= 7
