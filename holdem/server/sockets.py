"""What a WebSocket may ask of its table: act, sit out or in, rebuy, chat, show a finished hand's
cards, the state again, a ping. Each message is checked and rate-limited, then carried out through
the hub (stored, then broadcast) or refused with an ``error`` message that changed nothing."""

from __future__ import annotations

from typing import Any

from holdem.errors import RefusedError, RequestError
from holdem.server.connection import Connection
from holdem.server.hub import Hub
from holdem.server.messages import PONG_TEXT, error_message, parse_request

__all__ = ["receive"]


async def receive(hub: Hub, connection: Connection, text: str | bytes) -> None:
    """One message from a connection: checked, rate-limited, and carried out or refused with an
    ``error``. The seat to act's action in the current hand is not counted against the rate: the
    table's own pace bounds it, and a refused one would leave that seat's turn unanswered."""
    refusal: RequestError | None = None
    try:
        kind, data = parse_request(text)
    except RequestError as error:
        kind, data, refusal = "", {}, error
    if not (kind == "act" and _awaited(hub, connection, data)) and not connection.allow():
        connection.send(error_message(f"rate limit: at most {hub.rate:g} messages a second"))
        return
    try:
        if refusal is not None:
            raise refusal
        await _request(hub, connection, kind, data)
    except (RequestError, RefusedError) as error:
        connection.send(error_message(str(error)))


def _awaited(hub: Hub, connection: Connection, data: dict[str, Any]) -> bool:
    """Whether an action is the one the table waits for: this seat's turn in the current hand."""
    room = hub.registry.rooms.get(connection.room)
    return (
        room is not None
        and connection.seat is not None
        and data.get("hand") == room.number
        and room.actor_seat() == connection.seat
        and data.get("steps", room.steps()) == room.steps()
    )


async def _request(hub: Hub, connection: Connection, kind: str, data: dict[str, Any]) -> None:
    """A seat's request over its WebSocket."""
    seat = connection.seat
    if kind == "ping":
        connection.send(PONG_TEXT)
        return
    if kind == "state":
        await hub.readers.resend(connection)
        return
    if seat is None:
        raise RequestError("spectators cannot act or chat: connect with a seat's token")
    tournament = hub.registry.rooms[connection.room].tournament is not None
    if kind in ("sit_out", "sit_in", "rebuy", "chat", "show") and tournament:
        raise RequestError(f"{kind} is not allowed at a tournament table")
    if hub.registry.digests.get(connection.digest or "") != (connection.room, seat):
        raise RequestError("this token no longer holds a seat")
    room = connection.room
    if kind == "act":
        hand, steps, action = data.get("hand"), data.get("steps"), data["action"]
        await hub.change(room, lambda r, now: r.act(seat, hand, action, now, steps))
    elif kind == "sit_out":
        await hub.change(room, lambda r, now: r.sit_out(seat))
    elif kind == "sit_in":
        await hub.change(room, lambda r, now: r.sit_in(seat, data.get("post", False), now))
    elif kind == "chat":
        await hub.change(room, lambda r, now: r.say(seat, data.get("text"), now))
    elif kind == "show":
        await hub.change(room, lambda r, now: r.show(seat, data.get("hand")))
    else:  # rebuy
        await hub.change(room, lambda r, now: r.rebuy(seat, data.get("amount"), now))
