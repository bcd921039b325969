"""The hub encodes a state once and gives each listener its own `you` and `person`, sends a
game's states in order, and keeps state only for games someone watches."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.friends.helpers import run_coroutine, started

from boardlab.web.friends import schemas as fs
from boardlab.web.friends.hub import Hub, Listener
from boardlab.web.friends.store import FriendStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FriendStore]:
    opened = FriendStore(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
    try:
        yield opened
    finally:
        opened.close()


def test_each_listener_gets_the_state_with_its_own_seat(store: FriendStore) -> None:
    created = started(store)
    state = store.state(created.id)
    # the pie may swap seats: the colour comes from the state's seats, by person
    colour_of = {seat.person: seat.colour for seat in state.seats}

    async def publish() -> list[dict[str, object]]:
        hub = Hub()
        listeners = [Listener(person=0), Listener(person=1), Listener(person=None)]
        for listener in listeners:
            hub.add(created.id, listener)
        hub.publish(created.id, state)
        return [json.loads(listener.queue.get_nowait()) for listener in listeners]

    messages = run_coroutine(publish())
    expected = state.model_dump(mode="json")
    for message, person in zip(messages, (0, 1, None), strict=True):
        assert message["type"] == "state"
        got = message["state"]
        assert isinstance(got, dict)
        you = None if person is None else colour_of[person]
        assert got == {**expected, "you": you, "person": person}


def test_an_older_state_is_not_sent_after_a_newer_one(store: FriendStore) -> None:
    created = started(store)
    old = store.state(created.id)
    token = created.token if old.to_move == created.colour else created.invite_token
    new = store.move(created.id, token, old.legal_moves[0], old.ply)

    async def publish() -> list[int]:
        hub = Hub()
        listener = Listener(person=0)
        hub.add(created.id, listener)
        hub.publish(created.id, new)
        hub.publish(created.id, old)  # a slower thread's answer, after the newer one
        plies = []
        while not listener.queue.empty():
            plies.append(json.loads(await listener.queue.get())["state"]["ply"])
        return plies

    assert run_coroutine(publish()) == [new.ply]


def test_games_nobody_watches_leave_nothing_behind(store: FriendStore) -> None:
    created = started(store)
    one = store.state(created.id)
    two = one.model_copy(update={"ply": one.ply + 1})

    async def publish() -> Hub:
        hub = Hub()
        for n in range(10_000):  # games created, moved and resigned with no socket open
            hub.publish(f"game{n}", one)
            hub.publish(f"game{n}", two)
        return hub

    hub = run_coroutine(publish())
    assert hub.ordered() == 0 and hub.game_ids() == []


def test_a_watched_game_gets_states_in_order_and_is_forgotten_when_left(store: FriendStore) -> None:
    created = started(store)
    base = store.state(created.id)

    async def publish() -> tuple[Hub, list[int], int]:
        hub = Hub()
        listener = Listener(person=None)
        hub.add("g", listener)
        for ply in (1, 3, 2, 4):  # 2 comes after 3 (a racing thread's answer): dropped
            hub.publish("g", base.model_copy(update={"ply": ply, "updated_at": float(ply)}))
        during = hub.ordered()
        hub.remove("g", listener)
        plies = []
        while not listener.queue.empty():
            plies.append(json.loads(listener.queue.get_nowait())["state"]["ply"])
        return hub, plies, during

    hub, plies, during = run_coroutine(publish())
    assert plies == [1, 3, 4]
    assert during == 1 and hub.ordered() == 0


def test_a_socket_with_nothing_ahead_is_written_at_once_and_in_order(
    store: FriendStore,
) -> None:
    """A message with nothing queued goes out within `publish`; one whose socket cannot
    take it at once is finished by a task, and the messages after it wait for it, then
    leave in order; a socket that fails its write does not stop the publisher."""
    created = started(store)
    base = store.state(created.id)

    def at(ply: int) -> fs.FriendStateOut:
        return base.model_copy(update={"ply": ply, "updated_at": float(ply)})

    async def main() -> tuple[list[int], list[int], list[int]]:
        hub, sent = Hub(), []
        full = asyncio.Event()  # set: the socket's buffer is full, the write waits
        room = asyncio.Event()

        async def send(text: str) -> None:
            if full.is_set():
                await room.wait()
            sent.append(json.loads(text)["state"]["ply"])

        listener = Listener(person=0)
        listener.send = send
        hub.add("g", listener)
        hub.publish("g", at(1))
        at_once = list(sent)  # written within publish
        full.set()
        for ply in (2, 3, 4):  # 2 begins and waits; 3 and 4 queue behind it
            hub.publish("g", at(ply))
        waiting = list(sent)
        drain = asyncio.create_task(listener.drain())
        await asyncio.sleep(0)
        full.clear()
        room.set()
        for _ in range(100):
            if len(sent) == 4:
                break
            await asyncio.sleep(0)
        hub.publish("g", at(5))
        gone = Listener(person=1)

        async def broken(text: str) -> None:
            raise RuntimeError("the socket is closed")

        gone.send = broken
        hub.add("g", gone)
        hub.publish("g", at(6))
        drain.cancel()
        return at_once, waiting, sent

    at_once, waiting, sent = run_coroutine(main())
    assert at_once == [1]
    assert waiting == [1]
    assert sent == [1, 2, 3, 4, 5, 6]
