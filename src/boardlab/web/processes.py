"""The processes the server starts besides its own: worker processes that end with the
server, and table builds in a process group of their own, killed with the server or on
Cancel, that report progress through shared counters and a failure as one line."""

from __future__ import annotations

import importlib
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from boardlab.core.errors import CorruptTableError
from boardlab.core.registry import make_rules
from boardlab.web.security import hide_paths


def set_parent_death_signal(parent: int | None = None) -> None:
    """Make this (worker) process end when the process that started it dies, so that no
    worker outlives a killed server. A watcher thread checks the parent id (Linux's
    PR_SET_PDEATHSIG would fire when the starting *thread* ends, which in a server is any
    time). Builds use `_reap_group_with_parent` instead."""
    import os

    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:  # the parent died while this process was starting
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _reap_group_with_parent(parent: int) -> None:
    """Fork a small watcher that kills this process group once the process that started
    this one is gone. A watcher thread alone is not enough for a build: compiled kernels
    hold the interpreter lock for seconds at a time, so the thread could not run."""
    import os
    import signal

    leader = os.getpid()
    if os.getppid() != parent:  # the server died while this process was starting
        os._exit(1)
    if os.fork() != 0:
        return
    try:  # the watcher: nothing but a loop reading the leader's parent id
        while True:
            time.sleep(0.5)
            try:
                with open(f"/proc/{leader}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                break  # the build has ended and was reaped
            if fields[0] == b"Z":
                break  # the build has ended
            if int(fields[1]) != parent:
                os.killpg(leader, signal.SIGKILL)  # the server is gone: end the build (and us)
    finally:
        os._exit(0)


def build_process(
    game: str,
    variant: str | None,
    size: int | None,
    tables: str | None,
    counters: Any,
    message: Any,
    server: int,
) -> None:
    """Entry point of a build process: its own process group, killed with its parent; a
    failure is written to `message` as one line (no traceback on the server's stderr)."""
    import os
    import sys

    os.setpgrp()
    _reap_group_with_parent(server)
    with suppress(OSError):
        os.nice(10)  # a build never slows the server's answers

    def progress(done: int, total: int) -> None:
        counters[0], counters[1] = int(done), int(total)

    def blocks(done: int, total: int) -> None:
        # the written blocks are their own phase; after the last, the table is opened
        counters[0], counters[1] = int(done), int(total)
        counters[2] = 1 if done < total else 2

    try:
        solver = importlib.import_module("boardlab.solver.api")
        rules = make_rules(game, variant, size)
        folder = Path(tables) if tables else None
        try:
            solver.ensure_table(rules, folder, on_progress=progress, jobs=1, on_blocks=blocks)
        except CorruptTableError:  # a damaged file: build it again over it
            counters[2] = 0
            solver.run_build(rules, folder, 1, on_progress=progress, on_blocks=blocks)
    except Exception as exc:
        text = hide_paths(" ".join(str(exc).split()) or exc.__class__.__name__)
        message.value = text.encode("utf-8", "replace")[: BUILD_MESSAGE_BYTES - 1]
        sys.exit(1)


BUILD_MESSAGE_BYTES = 400


def kill_group(proc: Any) -> None:
    """SIGTERM, then SIGKILL, to a build process and every process it started."""
    import os
    import signal

    pid = proc.pid
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
        if not proc.is_alive():
            break
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
        with suppress(ProcessLookupError):
            os.kill(pid, sig)
        proc.join(timeout=wait)
