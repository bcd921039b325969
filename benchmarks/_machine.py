"""What every benchmark prints first: the date, the machine and the commit."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess


def header(title: str) -> str:
    """One line naming the benchmark, the date, CPU count, Python and the commit."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        commit = "?"
    cpu = platform.processor() or platform.machine()
    return (
        f"# {title} — {dt.date.today().isoformat()}, {os.cpu_count()} cores {cpu}, "
        f"Python {platform.python_version()}, commit {commit or '?'}"
    )
