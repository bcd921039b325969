"""An existing Dask cluster for the solver (`boardlab solve --scheduler`): its worker
processes solve packs, each with its own game and cache of child tiers, and must see the
tables folder. A solve on this machine alone (`--workers N`) needs no Dask: threads of the
solving process do the work (see `boardlab.solver.engine`)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from boardlab.core.errors import BoardLabError


class ClusterError(BoardLabError):
    """A scheduler that cannot be reached."""


def connect(scheduler: str) -> tuple[Any, int]:
    """(client, the scheduler's workers). Raises ClusterError."""
    from distributed import Client

    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "tornado"):
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        client = Client(scheduler, timeout="5s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    n = len(client.scheduler_info().get("workers", {}))
    if n == 0:
        with contextlib.suppress(Exception):
            client.wait_for_workers(1, timeout=30)
        n = len(client.scheduler_info().get("workers", {}))
    return client, n


def check_scheduler(address: str) -> None:
    """Raise ClusterError unless a Dask scheduler answers at `address`."""
    client, _ = connect(address)
    disconnect(client)


def disconnect(client: Any) -> None:
    """Close the client."""
    with contextlib.suppress(Exception):
        client.close(timeout=10)
