"""Load the game server: random-bot clients over real WebSockets, on loopback, for a bounded time.

    python scripts/load_server.py --clients 120 --tables 20 --seconds 60 [--db sqlite|postgresql]

Starts ``holdem serve`` as a child process (on SQLite in a temporary folder, or on a throwaway
PostgreSQL started with initdb/pg_ctl), seats the clients evenly at the tables, lets them play
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
from tests.server_support import ProcessServer, throwaway_postgres


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "postgresql":
        with throwaway_postgres() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'load.db'}"


async def drive(
    server: ProcessServer, tokens: list[str], seconds: float, think: float
) -> tuple[list[SeatRun], float]:
    stop = asyncio.Event()
    runs = [SeatRun() for _ in tokens]
    tasks = [
        asyncio.create_task(
            play_seat(server.ws, token, stop=stop, run=run, rng=random.Random(k), rebuy=200, think=think)
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
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or args.clients < 2 * args.tables:
        parser.error("--seconds must be 0..600 and every table needs two clients")
    with database(args.db) as url:
        server = ProcessServer(url, rate=50.0).start()
        try:
            tables = [server.table(seats=10, action_seconds=20) for _ in range(args.tables)]
            tokens = [server.join(tables[k % args.tables], f"bot{k}", 200)[1] for k in range(args.clients)]
            runs, rate = asyncio.run(drive(server, tokens, args.seconds, args.think))
            listed = {t["id"]: t["hand"] for t in server.http("GET", "/api/tables")[1]["tables"]}
            stored = {table: [h["number"] for h in server.hands(table)] for table in tables}
        finally:
            server.stop()
    lost = sum(len(set(range(1, listed[t])) - set(numbers)) for t, numbers in stored.items())
    latencies = sorted(ms for run in runs for ms in run.latencies)
    quantiles = statistics.quantiles(latencies, n=100)
    errors = [error for run in runs for error in run.errors]
    where = f"{args.tables} tables, {args.seconds:g} s, {args.db}"
    print(f"{args.clients} clients at {where}, think {args.think:g} s")
    print(f"actions/s: {rate:,.0f}")
    print(f"action to broadcast, ms: p50 {quantiles[49] * 1e3:.1f}  p95 {quantiles[94] * 1e3:.1f}"
          f"  p99 {quantiles[98] * 1e3:.1f}  (of {len(latencies):,})")  # fmt: skip
    print(f"hands stored: {sum(map(len, stored.values())):,}; lost hands: {lost}; errors: {len(errors)}")
    for error in sorted(set(errors))[:5]:
        print(f"  error: {error}")


if __name__ == "__main__":
    main()
