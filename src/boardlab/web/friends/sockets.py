"""One WebSocket per game and viewer: the hello (a seat's token, or none to watch), checked
frames at a bounded rate, moves and actions answered on the socket, and every change of the
game pushed to it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from fastapi import (
    WebSocket,
    WebSocketDisconnect,
)
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from boardlab.core.errors import BoardLabError
from boardlab.web.connections import RefusalLog, address_key
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.groupcommit import MoveWrite
from boardlab.web.friends.hub import Listener
from boardlab.web.friends.service import Bucket, Friends, status_of
from boardlab.web.friends.store import (
    FriendError,
)
from boardlab.web.friends.trouble import serving_trouble
from boardlab.web.friends.views import Public
from boardlab.web.security import BadFrame, frame_text


def _same_origin(ws: WebSocket) -> bool:
    """A browser's socket must come from a page of this server (no other site's page may
    drive it); clients without an Origin header (the terminal) are not browsers."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


async def _error(ws: WebSocket, exc: BaseException) -> None:
    message = " ".join(str(exc).split()) or exc.__class__.__name__
    await ws.send_json(
        {
            "type": "error",
            "error": message,
            "kind": exc.__class__.__name__,
            "status": status_of(exc),
        }
    )


async def socket(ws: WebSocket, game_id: str) -> None:
    """Live updates of one game; a seat's holder may also act through it:
    {"type": "move", "move", "ply"}, {"type": "setup", "action", "setup" | "colour"},
    {"type": "resign"}, {"type": "draw", "action"},
    {"type": "rematch"}, {"type": "ping"}."""
    friends: Friends = ws.app.state.friends
    lim = friends.limits
    if not _same_origin(ws):
        await ws.close(code=1008, reason="other origin")
        return
    if friends.hub.count(game_id) >= lim.connections_per_game:
        await ws.close(code=1013, reason="too many connections to this game")
        return
    await ws.accept()
    try:
        first = _receive(ws, lim.message_bytes)
        hello = json.loads(await asyncio.wait_for(first, timeout=lim.hello_s))
        token = hello.get("token") if isinstance(hello, dict) else None
        token = token if isinstance(token, str) and 0 < len(token) <= 200 else None
        reading = time.monotonic()
        # a seat's hello takes the seat (opening the invitation is joining)
        state = await friends.run(
            lambda st: st.join(game_id, token) if token else st.state(game_id)
        )
    except BadFrame as exc:
        await _refuse(ws, exc)
        return
    except (TimeoutError, ValueError, WebSocketDisconnect) as exc:
        with contextlib.suppress(Exception):
            await ws.close(code=1008, reason=f"expected a hello: {exc.__class__.__name__}")
        return
    except FriendError as exc:
        await _error(ws, exc)
        await ws.close(code=1008, reason="refused")
        return
    listener = Listener(person=state.person)
    friends.hub.add(game_id, listener)
    friends.ensure_ticker()
    friends.ensure_listener()
    sender: asyncio.Task[None] | None = None
    bucket = Bucket(lim.messages_per_s, lim.message_burst)
    try:  # from here on, the client may leave at any await
        await ws.send_json({"type": "state", "state": state.model_dump(mode="json")})
        if token:  # the other side learns that this seat is here
            await friends.publish(game_id, state)
        if friends.heard_since(game_id, reading):  # another process's change came meanwhile
            await friends._push(game_id)
        listener.send = ws.send_text  # from here on a message may be written at once
        sender = asyncio.create_task(_send_loop(listener))
        # the messages are read and handled by a task of their own: each of its waits
        # resumes its own few frames, not the middleware's whole chain above this one
        reader = asyncio.create_task(_read_loop(ws, friends, game_id, token, bucket))
        try:
            refused = await reader
        finally:
            reader.cancel()
        if refused is not None:
            await _refuse(ws, refused)
    except BadFrame as exc:
        await _refuse(ws, exc)
    except (WebSocketDisconnect, OSError, RuntimeError):
        pass  # the client went away (a send on a closed socket raises one of these)
    finally:
        friends.hub.remove(game_id, listener)
        if sender is not None:
            sender.cancel()


async def _read_loop(
    ws: WebSocket, friends: Friends, game_id: str, token: str | None, bucket: Bucket
) -> BadFrame | None:
    """Each message of the socket handled in turn, at most the bucket's rate, until the
    client leaves (None) or sends a bad frame (returned). Nothing is raised: an exception
    kept by the task and raised again in its awaiter would hold both in a reference cycle,
    every socket's frames with it, until a full collection."""
    limit = friends.limits.message_bytes
    try:
        while True:
            text = await _receive(ws, limit)
            if not bucket.take():
                await ws.close(code=1008, reason="too many messages: slow down")
                return None
            await _handle(ws, friends, game_id, token, text)
    except BadFrame as exc:
        return BadFrame(exc.code, exc.reason)  # without this frame's traceback
    except (WebSocketDisconnect, OSError, RuntimeError):
        return None  # the client went away


_frames_log = RefusalLog("WebSocket message")


async def _receive(ws: WebSocket, limit: int) -> str:
    """The next message's text, checked by type, size and depth (`BadFrame`)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return frame_text(message, limit)


async def _refuse(ws: WebSocket, exc: BadFrame) -> None:
    """Close the socket for a bad message: one close code, one log line per address a
    minute."""
    _frames_log.refused(address_key(ws.client.host if ws.client else "unknown"), exc.reason)
    with contextlib.suppress(Exception):
        await ws.close(code=exc.code, reason=exc.reason)


async def _send_loop(listener: Listener) -> None:
    with contextlib.suppress(Exception):
        await listener.drain()


async def _handle(
    ws: WebSocket, friends: Friends, game_id: str, token: str | None, text: str
) -> None:
    try:
        msg = json.loads(text)
        if not isinstance(msg, dict):
            raise ValueError("a message is a JSON object")
        kind = msg.get("type")
        if kind == "ping":
            await ws.send_json({"type": "pong", "t": msg.get("t")})
            return
        state: fs.FriendStateOut | Public | None = None
        write: MoveWrite | None = None
        if kind == "move":
            body = fs.MoveRequest.model_validate({"move": msg.get("move"), "ply": msg.get("ply")})
            played = await friends.move(game_id, token, body.move, body.ply)
            state, write = played.shared, played.write
        elif kind == "setup":
            req = fs.SetupRequest.model_validate({k: v for k, v in msg.items() if k != "type"})
            state = await friends.run(lambda st: st.setup(game_id, token, req))
        elif kind == "resign":
            state = await friends.run(lambda st: st.resign(game_id, token))
        elif kind == "draw":
            action = fs.DrawRequest.model_validate({"action": msg.get("action")}).action
            state = await friends.run(lambda st: st.draw(game_id, token, action))
        elif kind == "rematch":
            out = await friends.run(lambda st: st.rematch(game_id, token))
            await ws.send_json({"type": "rematch", "id": out.id})
        else:
            raise ValueError(f"unknown message type {str(kind)[:20]!r}")
    except SQLAlchemyError as exc:
        await ws.send_json(
            {
                "type": "error",
                "error": serving_trouble(exc),
                "kind": "DatabaseUnavailable",
                "status": 503,
            }
        )
        return
    except (BoardLabError, ValueError, ValidationError) as exc:
        if isinstance(exc, ValidationError):
            exc = ValueError("bad message: " + "; ".join(e["msg"] for e in exc.errors()[:2]))
        await _error(ws, exc)
        return
    await friends.publish(game_id, state, write)
