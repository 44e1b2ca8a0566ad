"""The Starlette application: the page, the HTTP routes (`holdem.server.routes`) and the WebSocket loop,
on the hub (`holdem.server.hub`), which holds the state and stores every change before it is shown."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from holdem.server import SERVER_HINT, Close

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

from holdem.server.cluster import relay, room_of_token
from holdem.server.config import Cluster
from holdem.server.connection import RATE, Connection
from holdem.server.hub import IDLE_SECONDS, Hub
from holdem.server.limits import Limits
from holdem.server.messages import error_message
from holdem.server.room import token_digest
from holdem.server.routes import ROUTES
from holdem.server.sockets import receive
from holdem.server.tourney import Status

__all__ = ["STATIC", "build_app"]

STATIC = Path(__file__).parent / "static"
"""The close code of a spectator refused past a cap (`holdem.server.readers.SPECTATORS_PER_ADDRESS`)."""


async def _socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    token, ident = ws.query_params.get("token"), ws.query_params.get("table")
    await ws.accept()
    served = ident or (room_of_token(token) if token is not None else None)
    if served is not None:
        await hub.reopen(served)  # a quiet home game that left memory
    elsewhere = hub.cluster is not None and served is not None and not await hub.take(served)
    if elsewhere and served is not None and await relay(hub, ws, served):  # served by another process
        return  # (False: it did not answer, and this process has taken the table over)
    digest = token_digest(token) if token is not None else None
    where: tuple[str, int | None] | None = hub.registry.digests.get(digest) if digest is not None else None
    if where is not None and hub.registry.rooms[where[0]].seat_of_token(digest or "") != where[1]:
        where = None
    tourney = hub.registry.tourneys.get(served or "") if digest is not None else None
    unseated = tourney is not None and (where is None or tourney.status is Status.FINISHED)
    if unseated and tourney is not None and tourney.entrant(digest or "") is not None:
        where = (tourney.id, None)  # out, waiting for a seat, or the winner
    if where is None and (digest is not None or ident not in hub.registry.rooms):
        await ws.send_text(error_message("unknown token" if digest is not None else f"no table {ident!r}"))
        await ws.close(Close.NOT_FOUND)
        return
    room_id, seat = where if where is not None else (str(ident), None)
    views = digest is not None and ws.query_params.get("view") in ("1", "true")  # bots: their SeatView too
    alive = ws.query_params.get("alive") in ("1", "true")  # a sign of life each quiet half second
    address = ws.client.host if ws.client is not None else ""
    if digest is None:
        refused = hub.readers.admit_spectator(room_id, address)
        if refused is not None:
            await ws.send_text(error_message(refused))
            await ws.close(Close.TOO_MANY)
            return
    connection = Connection(ws, room_id, seat, digest, hub.rate, views, alive)
    pump = asyncio.create_task(connection.pump())
    try:
        if not await hub.readers.attach(connection):  # the table moved away meanwhile: connect again
            connection.close(Close.RESTART)
            return
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            await receive(hub, connection, text if text is not None else message.get("bytes") or b"")
    except WebSocketDisconnect:
        pass
    finally:
        hub.readers.detach(connection)
        if digest is None:
            hub.readers.spectator_left(address)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(pump, 1.0)


FRESH = {"Cache-Control": "no-cache"}
"""The pages and their scripts are asked again each time (a 304 when unchanged): a browser that kept
an old page and a new module after an upgrade (or the other way round) drew nothing."""


async def _lobby_page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers=FRESH)


async def _tournament_page(request: Request) -> Response:
    return FileResponse(STATIC / "tournament.html", headers=FRESH)


class _FreshStaticFiles(StaticFiles):
    """The page's files, each answered with `FRESH` (and Starlette's ETag and Last-Modified)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(FRESH)
        return response


def build_app(
    url: str,
    admin_token: str,
    *,
    tick: float = 0.05,
    rate: float = RATE,
    cluster: Cluster | None = None,
    limits: Limits | None = None,
    idle: float = IDLE_SECONDS,
) -> Starlette:
    """The application: tables stored at `url` (``sqlite:///PATH`` or ``postgresql://…``); `rate`:
    messages a second each connection may send (bursts of twice as many); `cluster`: one of many
    processes on that database (`holdem.server.cluster`); `limits`: who may make games and how many
    (`holdem.server.limits`); `idle`: seconds before a quiet home game leaves memory."""
    hub = Hub(url, admin_token, tick=tick, rate=rate, cluster=cluster, limits=limits, idle=idle)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()

    app = Starlette(
        routes=[
            Route("/", _lobby_page),
            Route("/tournament", _tournament_page),
            *ROUTES,
            WebSocketRoute("/ws", _socket),
            Mount("/static", _FreshStaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    return app
