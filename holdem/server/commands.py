"""``holdem serve``: run the game server (needs the ``server`` extra)."""

from __future__ import annotations

import argparse
import os
import secrets

from holdem.arguments import Parser, subcommand
from holdem.errors import HoldemError
from holdem.server import SERVER_HINT

__all__ = ["add_command"]

WS_MAX_SIZE = 1024 * 1024
"""Frames above this are refused by uvicorn itself (the connection closes); the server answers
messages between 64 KiB and this with an error message."""


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem serve`` to the command line."""
    serve = subcommand(
        sub,
        "serve",
        "host cash tables over HTTP and WebSocket, with a browser table",
        "Host cash tables: create them with POST /api/tables (admin token), join with POST "
        "/api/tables/ID/players, play over the WebSocket /ws, or open / in a browser. Every accepted "
        "action is stored before it is acknowledged; restart on the same --db and every table carries "
        "on. The protocol: 'holdem docs protocol'.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument(
        "--db",
        default="sqlite:///holdem.db",
        metavar="URL",
        help="sqlite:///PATH or postgresql://user@host:port/db (default: sqlite:///holdem.db)",
    )
    serve.add_argument(
        "--admin-token",
        metavar="TOKEN",
        default=os.environ.get("HOLDEM_ADMIN_TOKEN"),
        help="the token for creating tables and reading hands (default: $HOLDEM_ADMIN_TOKEN, else a new"
        " 256-bit one, printed at start: it changes at every restart unless given)",
    )
    serve.add_argument(
        "--rate",
        type=float,
        default=50.0,
        metavar="N",
        help="messages a second each connection may send, bursts of twice as many (default: 50)",
    )
    serve.set_defaults(run=_cmd_serve)


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from holdem.server.app import build_app
    except ImportError:
        raise HoldemError(SERVER_HINT) from None
    if not 0 < args.port < 65536:
        raise HoldemError(f"--port must be 1..65535, got {args.port}")
    from holdem.server.storage import open_storage

    open_storage(args.db).close()  # a database that cannot be opened is one line, not a traceback
    token = args.admin_token or secrets.token_urlsafe(32)  # 256 bits, as seat tokens
    if not args.admin_token:
        print(f"admin token: {token}", flush=True)
    print(f"holdem serve: http://{args.host}:{args.port}/  (tables stored in {args.db})", flush=True)
    if not args.rate > 0:
        raise HoldemError(f"--rate must be above 0, got {args.rate}")
    app = build_app(args.db, token, rate=args.rate)
    config = uvicorn.Config(app, host=args.host, port=args.port, ws_max_size=WS_MAX_SIZE, log_level="warning")
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 2
