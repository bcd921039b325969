"""Who watches which shared game: each WebSocket connection's queue, per game id, in this
process. A change is published after it is committed; a client that misses one (a dropped
socket) reads the game again when it reconnects or polls."""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections import defaultdict
from collections.abc import Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pydantic_core

from boardlab.web.friends.views import SEAT_FIELDS, Public

if TYPE_CHECKING:
    from boardlab.web.friends.schemas import FriendStateOut


@dataclass(eq=False)
class Listener:
    """One connection: the person of its seat (None: spectator) and its outgoing queue of
    JSON texts. The seat's colour is read from each state's seats (the pie's chooser may
    change seats).

    Once its socket has a sender (`send`, set when the connection's sending task starts), a
    message with nothing ahead of it is written at once by `deliver`, in the publisher's
    own step: through the queue it would wait for the sending task's turn in the event
    loop's next pass, behind every other socket's. A socket that cannot take it at once
    (its buffer full) finishes the write in a task of its own, and the messages after it
    queue behind it."""

    person: int | None
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(64))
    send: Callable[[str], Coroutine[Any, Any, None]] | None = None
    sending: bool = False  # the connection's sending task is writing a queued message
    rest: asyncio.Future[None] | None = None  # a write `deliver` began and a task finishes

    def idle(self) -> bool:
        """Nothing is queued or being written: a message may be written at once."""
        return (
            self.send is not None
            and not self.sending
            and (self.rest is None or self.rest.done())
            and self.queue.empty()
        )

    def deliver(self, message: str) -> None:
        """Write `message` now if nothing is ahead of it, else queue it (a listener too far
        behind loses its oldest message: the newest state is all it needs)."""
        if self.send is not None and self.idle():
            self.rest = _start(self.send(message))
            return
        q = self.queue
        if q.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                q.get_nowait()
        q.put_nowait(message)

    async def drain(self) -> None:
        """The sending task's loop: each queued message, after any write `deliver` began."""
        while True:
            message = await self.queue.get()
            self.sending = True
            try:
                if self.rest is not None:
                    with contextlib.suppress(Exception):
                        await self.rest
                assert self.send is not None
                await self.send(message)
            finally:
                self.sending = False


def _start(coro: Coroutine[Any, Any, None]) -> asyncio.Future[None] | None:
    """Run `coro` as far as it goes without waiting (a socket's write usually finishes
    there); a task runs the rest, if any, and is returned. An error is dropped: the socket
    is gone, and its reading side finds that out."""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    except Exception:
        return None
    return asyncio.ensure_future(_finish(coro, waiting))


@types.coroutine
def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """The rest of a coroutine that `_start` began and that waits on `waiting` (what it
    yielded): its further yields pass through to the task that runs this."""
    while True:
        try:
            value = yield waiting
        except BaseException as exc:  # the task was cancelled: the coroutine hears of it
            try:
                waiting = coro.throw(exc)
            except (StopIteration, Exception):
                return
            continue
        try:
            waiting = coro.send(value)
        except (StopIteration, Exception):
            return


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
            listener.deliver(f'{head},"you":{_json(you)},"person":{_json(listener.person)}}}}}')


def _encode(values: Public) -> str:
    """JSON values as text the way the models write it (compact, UTF-8 as it is), by
    pydantic's own encoder: several times faster than the standard library's."""
    return pydantic_core.to_json(values).decode()


def _json(value: int | None) -> str:
    return "null" if value is None else str(int(value))
