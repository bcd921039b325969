"""The shared-games API: HTTP under /api/friends and one WebSocket per game.

    POST /api/friends                    create (answers the two seat tokens once)
    GET  /api/friends/{id}               the game (with `Authorization: Bearer TOKEN`: as that seat)
    POST /api/friends/{id}/join          take one's seat (the invitation)
    POST /api/friends/{id}/setup         {action: place, setup} | {action: choose, colour}
    POST /api/friends/{id}/move          {move, ply}
    POST /api/friends/{id}/resign
    POST /api/friends/{id}/draw          {action: offer | accept | decline}
    POST /api/friends/{id}/rematch       the next game of the match, colours swapped
    GET  /api/friends/{id}/record        the game as record text
    WS   /api/friends/{id}/ws            {"type": "hello", "token": ...} first (no token: watch)

A seat's token travels in a header or a WebSocket message, never in a URL the server sees
(links carry it after '#'). A missing, forged or other seat's token is 403 and changes
nothing. Every change is committed before it is answered and then pushed to every socket
of the game.

The app's shared-games state is `service.Friends`; the socket's conversation is in
`sockets`.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import (
    APIRouter,
    Depends,
    FastAPI,
    Header,
    Path,
    Request,
)
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection

from boardlab.web.connections import address_key
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.service import Friends, retry_after, status_of
from boardlab.web.friends.sockets import socket
from boardlab.web.friends.store import (
    FriendError,
    FriendLimits,
    TooManyGamesError,
)
from boardlab.web.friends.trouble import serving_trouble
from boardlab.web.schemas import ErrorOut

STATIC = FilePath(__file__).resolve().parents[1] / "static"
GameId = Annotated[str, Path(min_length=10, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


def _friends(request: Request) -> Friends:
    friends: Friends = request.app.state.friends
    return friends


async def _admit(conn: HTTPConnection) -> None:
    """Every HTTP call of the router counts against its client's rate (a socket has its own
    limits)."""
    friends: Friends = conn.app.state.friends
    friends.housekeeper.ensure_started(friends)  # expiry and pruning, every few minutes
    if conn.scope["type"] == "http":
        friends.admit(address_key(conn.client.host if conn.client else "unknown"))


def _token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


Auth = Annotated[str | None, Header(max_length=200)]


def _documented(description: str) -> dict[str, object]:
    return {"model": ErrorOut, "description": description}


ERRORS: dict[int | str, dict[str, object]] = {
    400: _documented("an illegal move, a bad request or a game that does not allow it now"),
    403: _documented("a missing, forged or other seat's token"),
    404: _documented("no shared game has this id"),
    409: _documented("another move for this position was accepted first"),
    413: _documented("request body too large"),
    422: _documented("the request does not fit the schema"),
    429: _documented("too many requests or open games from this client, or in all"),
}
router = APIRouter(
    prefix="/api/friends", tags=["friends"], dependencies=[Depends(_admit)], responses=ERRORS
)
router.add_api_websocket_route("/{game_id}/ws", socket)  # sockets.py


@router.post("")
async def create(req: fs.CreateRequest, request: Request) -> fs.CreatedOut:
    """A new shared game; the creator's seat token and the invitation's token, once."""
    friends = _friends(request)
    client = address_key(request.client.host if request.client else "unknown")  # IPv6: /64
    return await friends.create(req, client)


@router.get("/{game_id}")
async def get_state(
    game_id: GameId, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """The game; with a seat's token, also which colour that seat plays."""
    return await _friends(request).run(lambda st: st.state(game_id, _token(authorization)))


@router.post("/{game_id}/join")
async def join(game_id: GameId, request: Request, authorization: Auth = None) -> fs.FriendStateOut:
    """Take one's seat: the game starts once both players have."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.join(game_id, _token(authorization)))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/setup")
async def setup(
    game_id: GameId, body: fs.SetupRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """The setup stage (Dot Dash's pie): the placer places the setup text, then the other
    player chooses a colour, which seats both."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.setup(game_id, _token(authorization), body))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/move")
async def move(
    game_id: GameId, body: fs.MoveRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Play a move for one's seat in the position after `ply` plies."""
    friends = _friends(request)
    played = await friends.move(game_id, _token(authorization), body.move, body.ply)
    await friends.publish(game_id, played.shared, played.write)
    return played.state


@router.post("/{game_id}/resign")
async def resign(
    game_id: GameId, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Resign one's seat."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.resign(game_id, _token(authorization)))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/draw")
async def draw(
    game_id: GameId, body: fs.DrawRequest, request: Request, authorization: Auth = None
) -> fs.FriendStateOut:
    """Offer a draw, accept the other side's offer, or decline it."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.draw(game_id, _token(authorization), body.action))
    await friends.publish(game_id, out)
    return out


@router.post("/{game_id}/rematch")
async def rematch(game_id: GameId, request: Request, authorization: Auth = None) -> fs.RematchOut:
    """The match's next game, colours swapped (the same tokens play it)."""
    friends = _friends(request)
    out = await friends.run(lambda st: st.rematch(game_id, _token(authorization)))
    await friends.publish(game_id)
    return out


@router.get("/{game_id}/record")
async def record(game_id: GameId, request: Request) -> PlainTextResponse:
    """The game as record text."""
    text = await _friends(request).run(lambda st: st.record(game_id))
    return PlainTextResponse(text)


def _duration(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def install(app: FastAPI, database: str | None = None, limits: FriendLimits | None = None) -> None:
    """Add the shared games to an app: routes, error statuses and `app.state.friends`
    (`app.state.friends.configure(database, limits)` changes the settings before first use;
    the database is opened on first use, and `boardlab serve` opens it at start)."""
    app.state.friends = Friends(database, limits)
    app.include_router(router)

    async def friend_error(request: Request, exc: Exception) -> JSONResponse:
        message = " ".join(str(exc).split()) or exc.__class__.__name__
        status = status_of(exc)
        headers = None
        if status == 429:
            wait = 2
            if isinstance(exc, TooManyGamesError):  # when the first place frees up
                if exc.retry_after_s is not None:  # a creation refused: known already
                    wait = exc.retry_after_s
                else:
                    friends: Friends = request.app.state.friends
                    client = address_key(request.client.host if request.client else "unknown")
                    wait = await friends.run(lambda st: retry_after(st, client))
                message = f"{message} (try again in {_duration(wait)})"
            headers = {"Retry-After": str(wait)}
        return JSONResponse(
            {"error": message, "kind": exc.__class__.__name__}, status_code=status, headers=headers
        )

    app.add_exception_handler(FriendError, friend_error)

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            {"error": serving_trouble(exc), "kind": "DatabaseUnavailable"},
            status_code=503,
            headers={"Retry-After": "30"},
        )

    app.add_exception_handler(SQLAlchemyError, database_error)

    @app.get("/friend", include_in_schema=False)
    def friend_page() -> FileResponse:
        """The Play a friend page (its links carry the game and seat after '#')."""
        return FileResponse(STATIC / "friend.html", headers={"Cache-Control": "no-cache"})
