"""Many `holdem serve` processes on one database: each table served by one process at a time.

A process serves a table while it holds the table's lease, a row of the ``leases`` table that it
renews every third of the lease time. A process that stops renewing (it died, or it is stalled)
loses its tables once their leases expire: another process takes the lease, with the next epoch,
and resumes the table from its last stored change, as a restart does. Every write of a table is
fenced: it renews the lease of the epoch the writer holds in the same transaction, so a stalled
owner that wakes up after losing a table cannot write for it again.

Clients may reach any process. A process that does not serve a table passes the request on to
the process that does: HTTP requests are forwarded, WebSockets relayed both ways; when that process
dies the relayed connection closes and the client reconnects, to whichever process it reaches.
When that process accepts connections but does not answer (it is stalled), the request waits no
longer than its lease could still run; the process passing it on then takes the table over once
the lease expires and answers itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import urllib.error
import urllib.request
from typing import Any

from holdem.server import SERVER_HINT, Close

try:
    import websockets
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.websockets import WebSocket
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

from holdem.server.connection import read_body
from holdem.server.hub import Hub

__all__ = ["forward", "relay", "room_of_token"]


def room_of_token(token: str) -> str | None:
    """The table a seat token belongs to: tokens are ``TABLE.SECRET``."""
    room, dot, _ = token.partition(".")
    return room if dot and room else None


async def forward(hub: Hub, request: Request, ident: str) -> Response | None:
    """Pass an HTTP request for table `ident` to the process that serves it, and its answer back.
    None when that process did not answer within its lease's time left (it is stalled or gone) and
    this process has taken the table over: the caller then answers the request itself. The asker's
    address goes with it (``X-Forwarded-For``), which the serving process reads when this one's
    address is among its ``--forwarded-allow-ips``."""
    owner = await hub.owner_of(ident)
    if owner is None or (hub.cluster is not None and owner[0] == hub.cluster.address):  # never to itself
        return JSONResponse({"error": f"no table {ident!r}"}, 404)
    body = await read_body(request)
    url = owner[0] + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    headers = {k: v for k, v in request.headers.items() if k.lower() in ("authorization", "content-type")}
    if request.client is not None:  # the asker, as this process knows it: the serving one trusts us for it
        headers["X-Forwarded-For"] = request.client.host

    def send() -> tuple[int, bytes] | None:
        outgoing = urllib.request.Request(url, data=body or None, method=request.method, headers=headers)
        try:
            with urllib.request.urlopen(outgoing, timeout=_patience(owner[1])) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError:  # refused, or no answer in time
            return None

    answer = await asyncio.get_running_loop().run_in_executor(None, send)
    if answer is not None:
        return Response(answer[1], answer[0], media_type="application/json")
    if await hub.take_over(ident):
        return None
    return JSONResponse({"error": "the process serving this table did not answer; try again"}, 503)


def _patience(lease_left: float) -> float:
    """How long to wait for the serving process: until its lease would run out if it has stopped
    renewing it, and a second more (a process that renews it is then only slow)."""
    return max(1.0, lease_left + 1.0)


_PASSED_ON = frozenset(Close) - {Close.TOO_BIG}
"""How the serving process may close a relayed socket for a reason the client must hear (a spectator
turned away included: relayed as 1012, the page would knock again at once)."""


async def relay(hub: Hub, ws: WebSocket, ident: str) -> bool:
    """Relay an accepted WebSocket for table `ident` to the process that serves it, both ways, until
    either side closes; then close it as the serving process did (a normal end, an unknown token, a
    seat left, a slow reader), or with 1012 (reconnect) when that process went away. False when that
    process did not answer the handshake in time and this one has taken the table over: the caller
    then serves the connection itself."""
    owner = await hub.owner_of(ident)
    code: int = Close.RESTART
    if owner is not None and hub.cluster is not None and owner[0] != hub.cluster.address:
        target = "ws" + owner[0].removeprefix("http") + "/ws?" + ws.url.query
        lease = hub.cluster.lease_seconds
        asker = {"X-Forwarded-For": ws.client.host} if ws.client is not None else {}  # whose it is
        try:
            upstream = await websockets.connect(
                target, max_size=2**22, open_timeout=_patience(owner[1]), ping_interval=lease / 2,
                ping_timeout=lease, additional_headers=asker,
            )  # fmt: skip
        except (OSError, TimeoutError, websockets.InvalidHandshake):
            if await hub.take_over(ident):
                return False
        else:
            with contextlib.suppress(OSError, websockets.ConnectionClosed):
                async with upstream:
                    await _pump(ws, upstream)
            if upstream.close_code in _PASSED_ON:  # closed for a reason: pass it on
                code = upstream.close_code
    with contextlib.suppress(Exception):
        await ws.close(code)
    return True


async def _pump(ws: WebSocket, upstream: Any) -> None:
    async def down() -> None:
        async for text in upstream:
            await ws.send_text(text if isinstance(text, str) else text.decode())

    async def up() -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            await upstream.send(message.get("text") or message.get("bytes") or b"")

    tasks = [asyncio.create_task(down()), asyncio.create_task(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
