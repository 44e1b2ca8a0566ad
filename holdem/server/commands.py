"""``holdem serve``: run the game server; ``holdem join``: seat a bot at a served table (both need
the ``server`` extra)."""

from __future__ import annotations

import argparse
import errno
import os
import secrets
import signal
import socket
import sys
from typing import Any

from holdem.console.arguments import SEED_HELP, Parser, fresh_seed, integer, positive_int, subcommand
from holdem.errors import HoldemError
from holdem.server import SERVER_HINT

PER_ADDRESS = 64  # holdem.server.guard.PER_ADDRESS, without importing the server extra for --help

__all__ = ["add_command"]

WS_MAX_SIZE = 1024 * 1024
KEEPALIVE = 2.0
"""Seconds between the server's pings on each WebSocket: a quiet connection stays alive through a
load balancer whose read timeout is longer (the shipped nginx file waits 3 s), and a stalled
process's connections are cut there."""
"""Frames above this are refused by uvicorn itself (the connection closes); the server answers
messages between 64 KiB and this with an error message."""


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem serve`` and ``holdem join`` to the command line."""
    _add_serve(sub)
    _add_join(sub)


def _add_serve(sub: argparse._SubParsersAction[Parser]) -> None:
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
    _add_limits(serve)
    serve.add_argument(
        "--cluster",
        action="store_true",
        help="one of several processes on this --db (PostgreSQL): each table is served by the process"
        " holding its lease; the others pass its requests on (see 'holdem docs protocol')",
    )
    serve.add_argument(
        "--lease", type=float, default=5.0, metavar="SECONDS",
        help="--cluster: how long a table stays with a process that stops renewing its lease (default: 5)",
    )  # fmt: skip
    serve.add_argument(
        "--advertise", metavar="URL",
        help="--cluster: the address other processes reach this one at (default: http://HOST:PORT)",
    )  # fmt: skip
    serve.set_defaults(run=_cmd_serve)


def _add_limits(serve: argparse.ArgumentParser) -> None:
    """What anyone may make, and what one client may hold (`holdem docs protocol`, "In the open")."""
    serve.add_argument(
        "--games", choices=("anyone", "admin", "nobody"), default="anyone",
        help="who may make a home game from the lobby: anyone (at most 5 an address in 10 minutes),"
        " only with the admin token, or nobody (default: anyone)",
    )  # fmt: skip
    serve.add_argument(
        "--max-games", type=int, default=200, metavar="N",
        help="home games open at once, at most (default: 200; the admin's are not counted against it)",
    )  # fmt: skip
    serve.add_argument(
        "--per-address", type=int, default=PER_ADDRESS, metavar="N",
        help=f"connections (HTTP and WebSocket) one client address may hold open at once; more are"
        f" answered 429 (default: {PER_ADDRESS}; the trusted proxy's own address is not capped)",
    )  # fmt: skip
    serve.add_argument(
        "--forwarded-allow-ips", default="", metavar="ADDRESSES",
        help="comma-separated addresses of the proxies whose X-Forwarded-For header names the client"
        " (e.g. 127.0.0.1 behind the shipped nginx file); default: none, the header is ignored",
    )  # fmt: skip


def _add_join(sub: argparse._SubParsersAction[Parser]) -> None:
    join = subcommand(
        sub,
        "join",
        "seat a bot at a table of a holdem server",
        "Seat any bot that 'holdem match' takes (a built-in name, module:Class, with arguments) at "
        "table ID of the server at URL (http://host:port). The bot gets the same SeatView it would get "
        "locally; an exception or illegal answer is played as check-or-fold and counted as a fault. "
        "It reconnects with its token after a dropped connection or a server restart, leaves the "
        "table after --hands hands (or when broke without --rebuy, or on Ctrl-C), and prints a "
        "one-line summary. With --tournament ID it enters that tournament instead, follows its moves "
        "between tables, and prints its place and prize.",
    )
    join.add_argument("url", type=_server_url, help="the server, e.g. http://127.0.0.1:8000")
    where = join.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="ID", help="the table to join")
    where.add_argument(
        "--tournament", metavar="ID",
        help="the tournament to enter: the bot plays wherever it is seated until it is out or wins,"
        " then its place and prize are printed",
    )  # fmt: skip
    join.add_argument("--bot", required=True, metavar="SPEC", help="e.g. equity, random, mybot:MyBot")
    join.add_argument("--name", help="the name at the table (default: the bot's, with a random suffix)")
    join.add_argument("--buy-in", type=positive_int, help="chips to sit with (default: the table's maximum)")
    join.add_argument("--rebuy", type=positive_int, help="chips to buy again when broke (default: leave)")
    join.add_argument("--hands", type=positive_int, help="hands to play, then leave (default: until stopped)")
    join.add_argument("--seed", type=integer, default=None, help=SEED_HELP)
    join.set_defaults(run=_cmd_join)


def _server_url(text: str) -> str:
    """A server's address: http:// or https://, a host and a port or path."""
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(
            f"the server's URL starts with http:// or https://, e.g. http://{text.split('://')[-1]}"
            f" (got {text!r})"
        )
    return text


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from holdem.server.app import build_app
        from holdem.server.guard import guarded_protocol
    except ImportError:
        raise HoldemError(SERVER_HINT) from None
    if not 0 <= args.port < 65536:
        raise HoldemError(f"--port must be 0..65535 (0: any free port, printed), got {args.port}")
    from holdem.server.storage import open_storage

    open_storage(args.db).close()  # a database that cannot be opened is one line, not a traceback
    _check_numbers(args)
    trusted = _addresses(args.forwarded_allow_ips)
    listening = _listen(args.host, args.port)  # a port that is taken is one line, before anything else
    port = int(listening.getsockname()[1])  # --port 0: the one the system chose
    cluster = None
    if args.cluster:
        from holdem.server.config import Cluster

        cluster = Cluster(args.advertise or f"http://{args.host}:{port}", args.lease)
    token = args.admin_token or admin_token()
    if not args.admin_token:
        print(f"admin token: {token}", flush=True)
    print(f"holdem serve: http://{args.host}:{port}/  (tables stored in {args.db})", flush=True)
    guard = _guard(args.per_address, trusted)
    from holdem.server.limits import Limits

    limits = Limits(makers=args.games, open_games=args.max_games)
    app = build_app(args.db, token, rate=args.rate, cluster=cluster, limits=limits)
    config = uvicorn.Config(
        app, host=args.host, port=port, ws_max_size=WS_MAX_SIZE, log_level="warning",
        ws_ping_interval=KEEPALIVE, ws_ping_timeout=20.0, http=guarded_protocol(guard),
        proxy_headers=bool(trusted), forwarded_allow_ips=list(trusted) or None,
    )  # fmt: skip
    server = uvicorn.Server(config)
    server.run(sockets=[listening])
    return 0 if server.started else 2


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric options of ``holdem serve``, each refused in one line when out of range."""
    if not args.rate > 0:
        raise HoldemError(f"--rate must be above 0, got {args.rate}")
    if args.max_games < 0:
        raise HoldemError(f"--max-games must be 0 or more, got {args.max_games}")
    if args.cluster and not args.lease > 0:
        raise HoldemError(f"--lease must be above 0 seconds, got {args.lease}")
    if args.per_address < 1:
        raise HoldemError(f"--per-address must be 1 or more, got {args.per_address}")


def _guard(per_address: int, trusted: tuple[str, ...]) -> Any:
    """The connection guard (`holdem.server.guard`), with the open-file limit raised (said when low)
    and repeated log lines quieted."""
    from holdem.server.guard import LOW_DESCRIPTORS, Guard, quiet_repeats, raise_descriptor_limit

    descriptors, _ = raise_descriptor_limit()
    if descriptors < LOW_DESCRIPTORS:
        print(
            f"holdem serve: only {descriptors} open files allowed (ulimit -n): about"
            f" {descriptors - 64} connections at once; raise the hard limit for more",
            file=sys.stderr,
            flush=True,
        )
    quiet_repeats()
    return Guard(per_address, trusted=trusted)


def _addresses(text: str) -> tuple[str, ...]:
    """``--forwarded-allow-ips``: IP addresses or networks, comma-separated (checked here, in one line)."""
    import ipaddress

    found = tuple(part.strip() for part in text.split(",") if part.strip())
    for part in found:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise HoldemError(
                f"--forwarded-allow-ips takes IP addresses or networks, comma-separated, got {part!r}"
            ) from None
    return found


def admin_token() -> str:
    """A new admin token: 256 random bits, URL-safe, never beginning with "-" (which a command line
    would read as an option)."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def _listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound now, so that a port in use is said plainly."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise HoldemError(f"port {port} is taken: another program listens on {host}:{port}") from None
        raise HoldemError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _say_seated(summary: Any) -> None:
    """What `holdem join` says once seated, on standard error, so that a long session is not silent
    (the summary at the end stays the one line on standard output)."""
    where = (
        f"entered tournament {summary.tournament}" if summary.tournament is not None
        else f"seated at table {summary.table}, seat {summary.seat}"
    )  # fmt: skip
    print(
        f"holdem join: {summary.name} {where} (seed {summary.seed}); Ctrl-C leaves",
        file=sys.stderr,
        flush=True,
    )


def _cmd_join(args: argparse.Namespace) -> int:
    try:
        from holdem.server.join import JoinSummary, run_bot
    except ImportError:
        raise HoldemError(SERVER_HINT.replace("holdem serve", "holdem join")) from None
    import asyncio

    from holdem.bots import load_bot

    load_bot(args.bot)  # a bad spec is one line before anything is sent
    if args.tournament is not None:
        for flag, value in (("--buy-in", args.buy_in), ("--rebuy", args.rebuy), ("--hands", args.hands)):
            if value is not None:
                raise HoldemError(f"{flag} does not apply to a tournament: it is played to the end")
    seed = fresh_seed(args.seed)
    summaries: list[JoinSummary] = []

    terminated: list[int] = []

    async def main() -> None:
        stop = asyncio.Event()

        def terminate() -> None:  # SIGTERM as Ctrl-C: leave the table, then report
            terminated.append(1)
            stop.set()

        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, terminate)
        task = asyncio.create_task(
            run_bot(args.url, args.table, args.bot, tournament=args.tournament, name=args.name,
                    buy_in=args.buy_in, rebuy=args.rebuy, hands=args.hands, seed=seed, stop=stop,
                    on_seated=_say_seated)
        )  # fmt: skip
        try:
            summaries.append(await asyncio.shield(task))
        except asyncio.CancelledError:  # Ctrl-C: leave the table, then report
            stop.set()
            summaries.append(await task)
            raise

    # asyncio.run makes the first Ctrl-C cancel `main` (which leaves the table, then reports) only
    # while Python's own Ctrl-C handler is in place: the command line's (holdem.cli) steps aside.
    handler = signal.getsignal(signal.SIGINT)
    aside = handler not in (signal.SIG_IGN, signal.default_int_handler, None)
    if aside:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        if summaries:
            print(summaries[0].line() + " (interrupted)")
        raise
    finally:
        if aside:
            signal.signal(signal.SIGINT, handler)
    if terminated:
        print(summaries[0].line() + " (interrupted)")
        return 130
    print(summaries[0].line())
    return 0
