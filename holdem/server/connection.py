"""What the server reads from its clients: one WebSocket's connection (its queue, its rate limit),
a request's body and token."""

from __future__ import annotations

import asyncio
import contextlib
import time

from holdem.server import SERVER_HINT, Close

try:
    from starlette.requests import Request
    from starlette.websockets import WebSocket
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

from holdem.errors import RequestError
from holdem.server.messages import ALIVE_TEXT, MESSAGE_LIMIT

__all__ = ["ALIVE", "QUEUE_LIMIT", "RATE", "Connection", "bearer", "read_body"]

RATE = 50.0
"""Messages a second a connection may send by default, on average (bursts of twice as many)."""
ALIVE = 0.5
"""Seconds of quiet after which a connection opened with ``alive=1`` is sent ``{"type": "alive"}``
(the shipped clients all ask for it; a raw client that does not is sent nothing it did not ask
for): every such client hears from a
healthy server at least this often, so one that hears nothing for a few seconds (`SILENCE`: 2 s in
`holdem join`, `holdem.server.client` and the browser) knows its server is stopped or unreachable
and reconnects through the balancer, even while its own messages keep the connection open there."""
QUEUE_LIMIT = 256
"""Messages waiting for a slow reader before its connection is closed."""


async def read_body(request: Request) -> bytes:
    """A request's body, refused (413) above `MESSAGE_LIMIT` by its Content-Length, or as soon as more
    than that has arrived: an oversized body is never read whole."""
    kept = getattr(request.state, "body", None)
    if kept is not None:  # read already (passed on, then answered here)
        return bytes(kept)
    length = request.headers.get("content-length", "0").strip()
    if not length.isdigit() or int(length) > MESSAGE_LIMIT:
        raise RequestError(f"request body over {MESSAGE_LIMIT // 1024} KiB", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MESSAGE_LIMIT:
            raise RequestError(f"request body over {MESSAGE_LIMIT // 1024} KiB", 413)
    request.state.body = bytes(body)
    return bytes(body)


def bearer(request: Request) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ("" without one)."""
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else ""


class Connection:
    """One WebSocket: whose it is, what waits to be sent, and its rate-limit allowance."""

    def __init__(
        self,
        ws: WebSocket,
        room: str,
        seat: int | None,
        digest: str | None,
        rate: float,
        views: bool = False,
        alive: bool = False,
    ) -> None:
        self.ws, self.room, self.seat, self.digest, self.views = ws, room, seat, digest, views
        self.alive = alive  # sent ALIVE_TEXT after ALIVE seconds of quiet
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.rate, self.allowance, self.checked = rate, 2 * rate, time.monotonic()
        self.close_code: int = Close.POLICY  # a seat left, or a reader too slow
        self.dropped = False  # too slow: closed with 1008, and nothing more is queued

    def allow(self) -> bool:
        now = time.monotonic()
        self.allowance = min(2 * self.rate, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def send(self, text: str | None) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:  # a reader this slow is dropped, with 1008: it reconnects
            text, self.dropped, self.close_code = None, True, Close.POLICY
        self.queue.put_nowait(text)

    def close(self, code: int) -> None:
        """Close the connection with `code` once what is queued before it has been sent (a reader
        dropped for being slow keeps its 1008: a later close must not tell it all went well)."""
        if not self.dropped:
            self.close_code = code
        self.send(None)

    async def pump(self) -> None:
        """Send what is queued, and (`alive`) `ALIVE_TEXT` after `ALIVE` seconds with nothing to send."""
        while True:
            try:
                text = await asyncio.wait_for(self.queue.get(), ALIVE if self.alive else None)
            except TimeoutError:
                text = ALIVE_TEXT
            if text is None:
                break
            await self.ws.send_text(text)
        with contextlib.suppress(Exception):
            await self.ws.close(self.close_code)
