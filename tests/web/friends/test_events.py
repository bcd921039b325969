"""Events between processes: a "game changed" event sent by one bus reaches the others and
not its sender; a malformed one is dropped with a log line. Over Redis (a throw-away
redis-server on a loopback port; skipped without the binary) and PostgreSQL's LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.friends.helpers import run_coroutine
from tests.web.friends.served import free_port

from boardlab.web.friends.events import CHANNEL, Bus, Event, PostgresBus, RedisBus, make_bus

GAME = "G" * 22


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") is None:
        if os.environ.get("BOARDLAB_REQUIRE_REDIS"):  # CI installs it: the test must run
            pytest.fail("no redis-server binary, and $BOARDLAB_REQUIRE_REDIS is set")
        pytest.skip("no redis-server binary: apt install redis-server")
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(port=port).ping()
                break
            except redis.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


async def exchange(sender: Bus, receiver: Bus, raw_send: Any) -> list[str]:
    """`sender` sends one good event, `raw_send` one malformed, then another good one; what
    `receiver` (and `sender` itself) heard."""
    heard: list[Event] = []
    own: list[Event] = []

    async def on(event: Event) -> None:
        heard.append(event)

    async def on_own(event: Event) -> None:
        own.append(event)

    tasks = [asyncio.create_task(receiver.run(on)), asyncio.create_task(sender.run(on_own))]
    await asyncio.sleep(0.5)  # both subscribed
    await sender.send(GAME)
    await raw_send("{not json")
    await sender.send("H" * 22, 7, {"ply": 5, "move": "a1-a2"})
    for _ in range(100):
        if len(heard) == 2:
            break
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    await sender.close()
    await receiver.close()
    assert own == []  # a process does not hear its own events
    return heard


# what `exchange` sends: a change without a version, then a move's (its note kept as sent)
SENT = [Event(GAME), Event("H" * 22, 7, {"ply": 5, "move": "a1-a2"})]


def test_redis_bus_carries_events_and_drops_malformed_ones(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> list[str]:
        a, b = RedisBus(redis_url), RedisBus(redis_url)

        async def raw(text: str) -> None:
            await a.client.publish(CHANNEL, text)

        return await exchange(a, b, raw)

    with caplog.at_level(logging.WARNING, logger="boardlab.web.friends"):
        assert run_coroutine(main()) == SENT
    assert any("malformed event" in r.getMessage() for r in caplog.records)


def test_postgres_bus_carries_events_and_drops_malformed_ones(
    postgres: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = postgres.database()

    async def main() -> list[str]:
        a, b = PostgresBus(url), PostgresBus(url)
        import psycopg

        async def raw(text: str) -> None:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))

        return await exchange(a, b, raw)

    with caplog.at_level(logging.WARNING, logger="boardlab.web.friends"):
        assert run_coroutine(main()) == SENT
    assert any("malformed event" in r.getMessage() for r in caplog.records)


def test_the_bus_follows_the_database_unless_events_name_redis() -> None:
    assert make_bus(None, "sqlite:///x.sqlite3") is None
    assert isinstance(make_bus(None, "postgresql+psycopg://u@h/db"), PostgresBus)
    assert isinstance(make_bus("redis://127.0.0.1:6379/0", "sqlite:///x"), RedisBus)
    with pytest.raises(ValueError, match="redis://"):
        make_bus("amqp://broker", "sqlite:///x")


def test_a_rematch_and_its_moves_reach_the_sockets_of_another_process(postgres: Any) -> None:
    """Two processes' shared games on one PostgreSQL database (two `Friends`, each with its
    store, hub and bus): each seat's socket on another process. A resignation through one
    reaches the other's socket; the rematch asked through the other reaches the first's;
    then the rematch's moves, made through either, reach both."""
    from boardlab.web.friends import schemas as fs
    from boardlab.web.friends.hub import Listener
    from boardlab.web.friends.service import Friends

    url = postgres.database()

    async def main() -> None:
        a, b = Friends(url), Friends(url)
        for friends in (a, b):
            friends.shared = True
            friends.open()
            friends.ensure_listener()
        try:
            await asyncio.sleep(0.5)  # both listening
            created = await a.run(
                lambda st: st.create(fs.CreateRequest.model_validate({"game": "dodgem", "size": 3}))
            )
            gid, first = created.id, created.colour
            token = {0: created.token, 1: created.invite_token}  # by person
            await b.run(lambda st: st.join(gid, created.invite_token))
            seat = {0: Listener(person=0), 1: Listener(person=1)}  # person 0 on a, 1 on b
            a.hub.add(gid, seat[0])
            b.hub.add(gid, seat[1])

            async def seen(person: int, pred: Any) -> dict[str, Any]:
                """The first state `person`'s socket is sent that satisfies `pred`."""
                while True:
                    raw = await asyncio.wait_for(seat[person].queue.get(), timeout=10)
                    state: dict[str, Any] = json.loads(raw)["state"]
                    if pred(state):
                        return state

            state = await a.run(lambda st: st.resign(gid, token[0]))
            await a.publish(gid, state)
            over = await seen(1, lambda s: s["status"] == "over")
            assert over["you"] == 1 - first and over["result"]["reason"] == "resignation"
            rematch = await b.run(lambda st: st.rematch(gid, token[1]))
            await b.publish(gid)
            assert (await seen(0, lambda s: s["next_game"] is not None))["next_game"] == rematch.id
            # both follow the rematch (the same tokens, colours swapped), each on its process
            nxt = rematch.id
            for person, friends in ((0, a), (1, b)):
                friends.hub.remove(gid, seat[person])
                seat[person] = Listener(person=person)
                friends.hub.add(nxt, seat[person])
            for n in range(4):  # moves through a, then b, then a...
                mover = a if n % 2 == 0 else b
                state = await mover.run(lambda st: st.state(nxt))
                person = next(s.person for s in state.seats if s.colour == state.to_move)
                played = await mover.move(nxt, token[person], state.legal_moves[0], state.ply)
                await mover.publish(nxt, played.shared, played.write)
                for p in (0, 1):
                    got = await seen(p, lambda s, n=n: s["ply"] == n + 1)
                    assert got["moves"][-1] == state.legal_moves[0]
                    assert got["you"] == next(s.colour for s in state.seats if s.person == p)
        finally:
            for friends in (a, b):
                if friends._listener is not None:
                    friends._listener.cancel()
                if friends.bus is not None:
                    await friends.bus.close()
                friends.close()

    run_coroutine(main())
