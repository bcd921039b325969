"""Who watches which shared game: each WebSocket connection's queue, per game id, in this
process. A change is published after it is committed; a client that misses one (a dropped
socket) reads the game again when it reconnects or polls."""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pydantic_core

from boardlab.web.friends.views import SEAT_FIELDS, Public

if TYPE_CHECKING:
    from boardlab.web.friends.schemas import FriendStateOut


@dataclass(eq=False)
class Listener:
    """One connection: the person of its seat (None: spectator) and its outgoing queue of
    JSON texts. The seat's colour is read from each state's seats (the pie's chooser may
    change seats)."""

    person: int | None
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(64))


class Hub:
    """Listeners by game id."""

    def __init__(self) -> None:
        self._games: dict[str, set[Listener]] = defaultdict(set)
        # newest (ply, updated_at) sent, kept only for games with listeners (a game nobody
        # watches needs no order; a busy server changes thousands of such games an hour)
        self._last: dict[str, tuple[int, float]] = {}

    def add(self, game_id: str, listener: Listener) -> None:
        """Start sending `game_id`'s changes to `listener`."""
        self._games[game_id].add(listener)

    def remove(self, game_id: str, listener: Listener) -> None:
        """Stop sending to `listener`."""
        group = self._games.get(game_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del self._games[game_id]
                self._last.pop(game_id, None)

    def count(self, game_id: str) -> int:
        """Connections on one game."""
        return len(self._games.get(game_id, ()))

    def ordered(self) -> int:
        """Games whose newest sent version is remembered (at most those with listeners)."""
        return len(self._last)

    def game_ids(self) -> list[str]:
        """Games with at least one connection."""
        return list(self._games)

    def publish(self, game_id: str, state: FriendStateOut | Public) -> None:
        """Queue the public state for every listener (each learns its own seat from it); a
        listener too far behind loses its oldest message (the newest state is all it needs).
        A state older than one already sent (answers of racing threads) is dropped. The
        state (the model, or its public part as JSON values) is encoded once; each
        listener's message adds only its `you` and `person`."""
        listeners = list(self._games.get(game_id, ()))
        if not listeners:
            return
        if isinstance(state, dict):
            version = (state["ply"], state["updated_at"])
            seats = state["seats"]
        else:
            version = (state.ply, state.updated_at)
            seats = [{"person": t.person, "colour": t.colour} for t in state.seats]
        if version < self._last.get(game_id, (-1, -1.0)):
            return
        self._last[game_id] = version
        colours = {seat["person"]: seat["colour"] for seat in seats}
        if isinstance(state, dict):
            shared = _encode(state)
        else:
            shared = state.model_dump_json(exclude=set(SEAT_FIELDS))
        head = '{"type":"state","state":' + shared[:-1]
        for listener in listeners:
            you = None if listener.person is None else colours.get(listener.person)
            message = f'{head},"you":{_json(you)},"person":{_json(listener.person)}}}}}'
            q = listener.queue
            if q.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    q.get_nowait()
            q.put_nowait(message)


def _encode(values: Public) -> str:
    """JSON values as text the way the models write it (compact, UTF-8 as it is), by
    pydantic's own encoder: several times faster than the standard library's."""
    return pydantic_core.to_json(values).decode()


def _json(value: int | None) -> str:
    return "null" if value is None else str(int(value))
