"""The app of one `boardlab serve` process, built from settings that travel as JSON.

`boardlab serve --workers N` runs N processes behind one port (uvicorn's supervisor, which
starts a new process when one dies). Each process builds its app with `app_from_env`, from
the settings the command wrote to $BOARDLAB_SERVE; the command itself migrates the database
once before any process starts, so the processes only open it.
"""

from __future__ import annotations

import gc
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from boardlab.web.heap import HeapTrimmer

ENV = "BOARDLAB_SERVE"


@dataclass
class ServeSettings:
    """What `boardlab serve` was told, as every process needs it."""

    tables: str | None = None
    database: str | None = None
    allow_builds: bool = False
    allowed_hosts: list[str] = field(default_factory=list)
    max_body: int = 256 * 1024
    threads: int = 4
    per_client: int = 2
    processes: bool = True
    warm: bool = True
    workers: int = 1
    events: str | None = None  # None: PostgreSQL's LISTEN/NOTIFY when several processes share it
    log_json: bool = False
    trusted_proxies: list[str] = field(default_factory=list)
    friend_limits: dict[str, Any] = field(default_factory=dict)

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> ServeSettings:
        raw = os.environ.get(ENV)
        if not raw:
            raise RuntimeError(f"${ENV} is not set: start the server with `boardlab serve`")
        return cls(**json.loads(raw))


def build_app(settings: ServeSettings) -> FastAPI:
    """The app of one process: tables, limits, the shared games' database (opened, not
    migrated: the command did that), the event bus between processes, metrics and health."""
    from boardlab.solver.store import TableStore
    from boardlab.web import create_app
    from boardlab.web.friends.store import FriendLimits
    from boardlab.web.limits import WorkLimits
    from boardlab.web.ops import setup_json_logs

    app = create_app(
        tables=TableStore(None if settings.tables is None else Path(settings.tables)),
        allow_builds=settings.allow_builds,
        allowed_hosts=settings.allowed_hosts,
        max_body=settings.max_body,
        limits=WorkLimits(
            threads=settings.threads,
            per_client=settings.per_client,
            processes=settings.processes,
        ),
        warm=settings.warm,
    )
    limits = FriendLimits(**settings.friend_limits)
    app.state.friends.configure(settings.database, limits, migrate=False).open()
    app.state.friends.events = settings.events
    app.state.friends.shared = settings.workers > 1 or settings.events is not None
    if settings.log_json:
        setup_json_logs()
    return app


def protocol_options(message_bytes: int) -> dict[str, Any]:
    """uvicorn's protocol settings of `boardlab serve`: the guarded HTTP and WebSocket
    protocols (on httptools when installed), larger WebSocket messages refused unread, and
    no per-message compression (a state is a few hundred bytes: deflating every message
    for every socket costs more CPU than it saves, and its window holds memory per socket).
    uvicorn's loop is uvloop where it is installed (a dependency outside Windows)."""
    return {
        "http": "boardlab.web.connections:ProcessHTTP",
        "ws": "boardlab.web.connections:ProcessWebSocket",
        "ws_max_size": message_bytes,
        "ws_per_message_deflate": False,
    }


def app_from_env() -> FastAPI:
    """uvicorn's factory in each worker process."""
    app = build_app(ServeSettings.from_env())
    settle_collector()
    # the C heap's free pages go back to the system now and then: resident memory stays
    # level over hours of play (see `boardlab.web.heap`)
    app.state.heap_trimmer = HeapTrimmer().start()
    return app


# the collector's first threshold for a serving process (Python's default is 700): a busy
# server allocates a few hundred container objects a move, and each young collection also
# walks the survivors of the last ones
YOUNG_THRESHOLD = 20_000


def settle_collector() -> None:
    """Tune the cycle collector for a long-running server once its app is built: what exists
    now (modules, the app, its settings) lives as long as the process, so it is moved out
    of the collector's sight (`gc.freeze`) and the full collections, which walk every
    tracked object, walk only what serving made; young collections come less often. The
    objects a move makes are freed by reference counting, not by the collector."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
