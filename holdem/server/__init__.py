"""`holdem serve`: cash tables over HTTP and WebSocket, each change stored before it is acknowledged.

The layers, along the data flow: `names` and `config` (a table's settings and players' names,
checked), `change` and `chat` (what a request changes besides a room), `home`, `lasthand` and
`room` (one table's state machine: seats, tokens, the hand, the clock; plain Python, no I/O),
`tourney` (a tournament's tables as rooms), `messages` and `handlog` (what each seat and spectator
is sent), `storage` (SQLite or PostgreSQL, one schema), `registry` (the rooms this process serves),
`readers` (who watches each table), `hub` (the one way of changing the server's state, and its
clock), `housebots`, `limits`, `replays` and `tablestats`, then the network: `connection`,
`sockets` and `routes` (what a client may ask), `guard` (connections per address, request
deadlines), `app` (the Starlette application), `cluster` (many processes on one database),
`client` and `join` (bots over the network), `commands` (the CLI).
The network parts need the ``server`` extra: ``pip install 'holdem-engine[server]'``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from holdem.console.arguments import install_hint

SERVER_HINT = f"holdem serve needs the server extra: {install_hint('server')}"

SILENCE = 2.0
"""Seconds without a message from the server after which a bot's client (`holdem join`,
`client.play_seat`) gives its connection up and connects again: a healthy server sends something at
least every half second (`connection.ALIVE`), so silence means a stopped or unreachable process."""

BROWSER_SILENCE = 4.0
"""The same for the browser table (`static/protocol.js`): twice `SILENCE`, for a phone on a slow line."""

OPEN_TIMEOUT = 10.0
"""Seconds a client waits for a WebSocket handshake: longer than a balancer takes to give up on a
stopped process and try the next one (the shipped nginx file: 3 s)."""


class Message(StrEnum):
    """The ``type`` of each WebSocket message: sent by the server, and by a client (``state`` asks
    for the table's state again). The browser's `protocol.js` holds the same names."""

    STATE = "state"
    ERROR = "error"
    MOVED = "moved"
    FINISHED = "finished"
    WAITING = "waiting"
    ALIVE = "alive"
    PONG = "pong"
    PING = "ping"
    ACT = "act"
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    REBUY = "rebuy"
    CHAT = "chat"
    SHOW = "show"


class Close(IntEnum):
    """The codes the server closes a WebSocket with, and what a client does on each (the browser's
    `protocol.js` holds the same numbers)."""

    DONE = 1000
    """Nothing more to send (a finished tournament's table): do not reconnect."""
    POLICY = 1008
    """The seat was left, or the reader was too slow: reconnect to read again, seat or not."""
    TOO_BIG = 1009
    """A message over the size limit."""
    RESTART = 1012
    """The table is no longer served by this process: connect again (through the balancer)."""
    NOT_FOUND = 4404
    """No such table, or the token's seat is gone: watch the table instead."""
    TOO_MANY = 4429
    """Too many spectators, from this address or at this table: try later."""


__all__ = ["BROWSER_SILENCE", "OPEN_TIMEOUT", "SERVER_HINT", "SILENCE", "Close", "Message"]
