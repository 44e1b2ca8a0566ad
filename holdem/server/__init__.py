"""`holdem serve`: cash tables over HTTP and WebSocket, each change stored before it is acknowledged.

The layers, along the data flow: `config` (a table's settings from JSON), `room` (one table's
state machine: seats, tokens, the hand, the clock; plain Python, no I/O), `messages` (what each
seat and spectator is sent, and what clients may send), `storage` (SQLite or PostgreSQL, one
schema), `app` (the Starlette application: routes, the WebSocket loop, the writer that commits
before anything is broadcast), `client` (a policy that plays raw state messages over the network),
`join` (any bot of the bot interface at a served table), `commands` (the CLI).
The network parts need the ``server`` extra: ``pip install 'holdem-engine[server]'``.
"""

from __future__ import annotations

from holdem.console.arguments import install_hint

SERVER_HINT = f"holdem serve needs the server extra: {install_hint('server')}"

SILENCE = 2.0
"""Seconds without a message from the server after which a client (`holdem join`, `client.play_seat`,
the browser) gives its connection up and connects again: a healthy server sends something at least
every half second (`connection.ALIVE`), so silence means a stopped or unreachable process."""

OPEN_TIMEOUT = 10.0
"""Seconds a client waits for a WebSocket handshake: longer than a balancer takes to give up on a
stopped process and try the next one (the shipped nginx file: 3 s)."""

__all__ = ["OPEN_TIMEOUT", "SERVER_HINT", "SILENCE"]
