"""Load the game server: random-bot clients over real WebSockets, on loopback, for a bounded time.

    python scripts/load_server.py --clients 120 --tables 20 --seconds 60 [--db sqlite|postgresql]
    python scripts/load_server.py --processes 2 --db postgresql   # two processes behind nginx

Starts ``holdem serve`` as a child process (on SQLite in a temporary folder, or on a throwaway
PostgreSQL started with initdb/pg_ctl), or with ``--processes K`` (or ``--nginx``) K processes with
``--cluster`` behind nginx configured by ``docs/deploy/nginx.conf``, the tables made at each process in
turn and the clients connecting through nginx. It seats the clients evenly at the tables, lets them play
(busted bots buy in again), then prints actions per second, the round trip from sending an
action to receiving the state that shows it applied (p50/p95/p99), errors, and lost hands: hands
that ended but are not stored. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from holdem.server.client import SeatRun, play_seat
from tests.server_support import ProcessServer, Server, Through, nginx, throwaway_postgres


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "postgresql":
        with throwaway_postgres() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'load.db'}"


async def drive(
    server: Server, tokens: list[str], seconds: float, think: float
) -> tuple[list[SeatRun], float]:
    return await play_seats(server.ws, tokens, seconds, think)


async def play_seats(
    base: str, tokens: list[str], seconds: float, think: float = 0.0
) -> tuple[list[SeatRun], float]:
    """Each seat of `tokens` played at `base` (a bot a seat, seeded by its place), measured over
    `seconds` after a second to connect: every seat's run, and actions a second over all of them."""
    stop = asyncio.Event()
    runs = [SeatRun() for _ in tokens]
    tasks = [
        asyncio.create_task(
            play_seat(base, token, stop=stop, run=run, rng=random.Random(k), rebuy=200, think=think)
        )
        for k, (token, run) in enumerate(zip(tokens, runs, strict=True))
    ]
    await asyncio.sleep(1.0)  # everyone connected and playing
    start_actions, start = sum(run.actions for run in runs), time.perf_counter()
    for run in runs:
        run.latencies.clear()
    await asyncio.sleep(seconds)
    rate = (sum(run.actions for run in runs) - start_actions) / (time.perf_counter() - start)
    stop.set()
    await asyncio.gather(*tasks)
    return runs, rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=120)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each bot waits before acting")
    parser.add_argument(
        "--processes", type=int, default=1, help="holdem serve --cluster processes behind nginx"
    )
    parser.add_argument("--nginx", action="store_true", help="through nginx even with one process")
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or args.clients < 2 * args.tables:
        parser.error("--seconds must be 0..600 and every table needs two clients")
    if not 1 <= args.processes <= 8:
        parser.error("--processes must be 1..8")
    cluster = args.processes > 1 or args.nginx
    with database(args.db) as url, contextlib.ExitStack() as stack:
        extra = ("--cluster",) if cluster else ()
        servers = [ProcessServer(url, rate=50.0, args=extra) for _ in range(args.processes)]
        stack.callback(lambda: [server.stop() for server in servers])
        for server in servers:
            server.start()
        front: Server = (
            Through(stack.enter_context(nginx([s.port for s in servers]))) if cluster else servers[0]
        )
        tables = [servers[k % len(servers)].table(seats=10, action_seconds=20) for k in range(args.tables)]
        tokens = [front.join(tables[k % args.tables], f"bot{k}", 200)[1] for k in range(args.clients)]
        runs, rate = asyncio.run(drive(front, tokens, args.seconds, args.think))
        listed = {t["id"]: t["hand"] for t in front.http("GET", "/api/tables")[1]["tables"]}
        stored = {table: [h["number"] for h in front.hands(table)] for table in tables}
        spread = [len(server.http("GET", "/api/health")[1].get("serving", ())) for server in servers]
    lost = sum(len(set(range(1, listed[t])) - set(numbers)) for t, numbers in stored.items())
    latencies = sorted(ms for run in runs for ms in run.latencies)
    quantiles = statistics.quantiles(latencies, n=100)
    errors = [error for run in runs for error in run.errors]
    where = f"{args.tables} tables, {args.seconds:g} s, {args.db}"
    if cluster:
        where += f", {args.processes} process{'es' if args.processes > 1 else ''} behind nginx"
    print(f"{args.clients} clients at {where}, think {args.think:g} s")
    print(f"actions/s: {rate:,.0f}" + (f"; tables served by each process: {spread}" if cluster else ""))
    print(f"action to broadcast, ms: p50 {quantiles[49] * 1e3:.1f}  p95 {quantiles[94] * 1e3:.1f}"
          f"  p99 {quantiles[98] * 1e3:.1f}  (of {len(latencies):,})")  # fmt: skip
    print(f"hands stored: {sum(map(len, stored.values())):,}; lost hands: {lost}; errors: {len(errors)}")
    for error in sorted(set(errors))[:5]:
        print(f"  error: {error}")


if __name__ == "__main__":
    main()
