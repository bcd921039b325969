"""The hub of a process's sockets keeps state only for games someone watches."""

from __future__ import annotations

import asyncio

from boardlab.web.friends.hub import Hub, Listener


def state(ply: int) -> dict[str, object]:
    return {"ply": ply, "updated_at": float(ply), "seats": []}


def test_games_nobody_watches_leave_nothing_behind() -> None:
    async def run() -> Hub:
        hub = Hub()
        for n in range(10_000):  # games created, moved and resigned with no socket open
            hub.publish(f"game{n}", state(1))
            hub.publish(f"game{n}", state(2))
        return hub

    hub = asyncio.run(run())
    assert hub.ordered() == 0 and hub.game_ids() == []


def test_a_watched_game_gets_states_in_order_and_is_forgotten_when_left() -> None:
    async def run() -> tuple[Hub, list[int], int]:
        hub = Hub()
        listener = Listener(person=None)
        hub.add("g", listener)
        for ply in (1, 3, 2, 4):  # 2 comes after 3 (a racing thread's answer): dropped
            hub.publish("g", state(ply))
        during = hub.ordered()
        hub.remove("g", listener)
        plies = []
        while not listener.queue.empty():
            plies.append(listener.queue.get_nowait()["state"]["ply"])
        return hub, plies, during

    hub, plies, during = asyncio.run(run())
    assert plies == [1, 3, 4]
    assert during == 1 and hub.ordered() == 0
