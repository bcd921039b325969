"""Dask clusters for the solver: a LocalCluster it starts itself, or an existing scheduler.

The LocalCluster is one worker in this process with a thread per core: the kernels release
the GIL, so the threads solve packs side by side, and they share one cache of child tiers
and one copy of the game's tables (a 6×6 board's move tables and plan take 2-3 GB per
process). Worker processes would each load and cache their own, and cost seconds to start."""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

from boardlab.core.errors import BoardLabError, UsageError


class ClusterError(BoardLabError):
    """A scheduler that cannot be reached, or a local cluster that cannot start."""


_ADDRESS = re.compile(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})")


def scheduler_address(text: str) -> str:
    """A scheduler's address as `tcp://HOST:PORT` (tls:// kept); UsageError with one line
    for anything else."""
    match = _ADDRESS.fullmatch(text.strip())
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise UsageError(
            f"--scheduler {text!r} is not a scheduler address: give tcp://HOST:PORT "
            "(e.g. tcp://127.0.0.1:8786)"
        )
    return f"{match.group(1) or 'tcp'}://{match.group(2)}:{int(match.group(3))}"


def connect(workers: int, scheduler: str | None) -> tuple[Any, Any, int]:
    """(client, cluster or None, packs it runs at once: the threads of the local cluster, or
    the workers of the scheduler's). Raises ClusterError."""
    from distributed import Client, LocalCluster

    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "tornado"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="5s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        n = len(client.scheduler_info().get("workers", {}))
        if n == 0:
            with contextlib.suppress(Exception):
                client.wait_for_workers(1, timeout=30)
            n = len(client.scheduler_info().get("workers", {}))
        return client, None, n
    import dask

    dask.config.set({"distributed.dashboard.link": "{scheme}://127.0.0.1:{port}/status"})
    try:
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=1,
            threads_per_worker=workers,
            processes=False,
            memory_limit=0,  # the solver keeps to its own budget
            # the scheduler and its worker talk in-process; the dashboard (whose link the
            # progress shows) listens on loopback only, never on every interface
            dashboard_address="127.0.0.1:0",
            worker_dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        )
    except Exception as exc:  # the port or the processes could not be had
        raise ClusterError(f"cannot start a local Dask cluster: {exc}") from None
    client = Client(cluster)  # type: ignore[no-untyped-call]
    return client, cluster, workers


def check_scheduler(address: str) -> None:
    """Raise ClusterError unless a Dask scheduler answers at `address`."""
    client, _, _ = connect(1, address)
    disconnect(client, None)


def dashboard_link(client: Any, cluster: Any) -> str | None:
    """The dashboard's address: the local cluster's on loopback, or the scheduler's own."""
    if cluster is None:
        link = getattr(client, "dashboard_link", None)
        return str(link) if link else None
    server = getattr(cluster.scheduler, "http_server", None)
    port = getattr(server, "port", None)
    return f"http://127.0.0.1:{port}/status" if port else None


def disconnect(client: Any, cluster: Any) -> None:
    """Close the client and stop a cluster we started (its worker processes included)."""
    with contextlib.suppress(Exception):
        client.close(timeout=10)
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close(timeout=20)
