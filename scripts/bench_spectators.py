"""A seated player's pace with and without a crowd of spectators at another table (issue 59, item 4).

    python scripts/bench_spectators.py [--spectators 2000] [--addresses 20] [--askers 100] [--seconds 10]

Starts ``holdem serve`` (SQLite, in a temporary folder, its default --rate of 50 messages a second)
with two tables of two random bots each, driven from here over real WebSockets on loopback. Phase 1
measures the player pair at table A alone: actions a second and the round trip from an action to
the state that shows it (p50, p95). Phase 2 opens `--spectators` spectator sockets on table B from
`--addresses` loopback addresses (127.0.0.10 and on), each reading what it is sent, `--askers` of them
asking for the state ten times a second, and measures table A again. Phase 3 closes them and waits.
Prints how many spectators were let in (the server caps each address and each table), the ratios,
and the server's memory (resident set) before, during and after. A benchmark, not a test: nothing
here asserts a rate.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import socket
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import websockets
from load_server import play_seats  # (scripts/, beside this one)

from holdem.server.client import play_seat
from tests.server_support import ProcessServer


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def spectate(
    url: str, port: int, address: str, asks: bool, stop: asyncio.Event, tally: dict[str, int]
) -> None:
    """One spectator from `address`: reads until `stop`, asking for the state ten times a second if
    `asks`; counts whether it was let in."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(address, 0))
        sock.setblocking(False)
        async with websockets.connect(url, sock=sock, open_timeout=10, max_size=2**22) as ws:
            first = json.loads(await ws.recv())
            if first["type"] != "state":
                tally["refused"] += 1
                return
            tally["watching"] += 1

            async def ask() -> None:
                while asks and not stop.is_set():
                    await ws.send(json.dumps({"type": "state"}))
                    await asyncio.sleep(0.1)

            asker = asyncio.create_task(ask())
            try:
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), 0.5)
                        tally["messages"] += 1
            finally:
                asker.cancel()
    except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake, TimeoutError):
        tally["failed"] += 1


async def measure(base: str, tokens: list[str], seconds: float) -> tuple[float, float, float]:
    """(actions a second, p50 ms, p95 ms) of the seats with `tokens` over `seconds`."""
    runs, rate = await play_seats(base, tokens, seconds)
    latencies = sorted(ms for r in runs for ms in r.latencies)
    q = statistics.quantiles(latencies, n=100)
    return rate, q[49] * 1e3, q[94] * 1e3


async def run(args: argparse.Namespace, server: ProcessServer) -> None:
    assert server.process is not None
    pid = server.process.pid
    a = server.table(seats=2, action_seconds=30)
    b = server.table(seats=2, action_seconds=30)
    players = [server.join(a, f"a{k}", 200)[1] for k in range(2)]
    watched = [server.join(b, f"b{k}", 200)[1] for k in range(2)]
    stop_b = asyncio.Event()
    table_b = [asyncio.create_task(play_seat(server.ws, t, stop=stop_b, rng=random.Random(9 + k), rebuy=200))
               for k, t in enumerate(watched)]  # fmt: skip
    quiet = await measure(server.ws, players, args.seconds)
    memory = [resident_mb(pid)]
    hold = 3.0 + args.seconds + 2.0  # connected (or refused), then measured
    crowd = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--crowd", f"{server.ws}/ws?table={b}", str(server.port), str(hold),
        "--spectators", str(args.spectators), "--addresses", str(args.addresses),
        "--askers", str(args.askers), stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    await asyncio.sleep(3.0)
    crowded = await measure(server.ws, players, args.seconds)
    memory.append(resident_mb(pid))
    out, _ = await crowd.communicate()
    tally = json.loads(out.decode().strip().splitlines()[-1])
    await asyncio.sleep(5.0)
    memory.append(resident_mb(pid))
    await asyncio.sleep(10.0)
    memory.append(resident_mb(pid))
    stop_b.set()
    await asyncio.gather(*table_b)
    print(
        f"spectators: {args.spectators:,} tried from {args.addresses} addresses, {tally['watching']:,}"
        f" let in, {tally['refused']:,} refused (4429), {tally['failed']:,} failed;"
        f" {tally['messages']:,} messages read"
    )
    for label, (rate, p50, p95) in (("table A alone", quiet), ("with the crowd", crowded)):
        print(f"{label:15} {rate:6.1f} actions/s, round trip p50 {p50:5.1f} ms, p95 {p95:5.1f} ms")
    print(f"ratio (crowd/alone): actions {crowded[0] / quiet[0]:.2f}x, p95 {crowded[2] / quiet[2]:.2f}x")
    print(
        f"server memory, MB: before {memory[0]:.0f}, with the crowd {memory[1]:.0f},"
        f" 5 s after {memory[2]:.0f}, 15 s after {memory[3]:.0f} ({memory[3] / memory[0]:.2f}x of before)"
    )


async def crowd(url: str, port: int, hold: float, args: argparse.Namespace) -> dict[str, int]:
    """The spectators, in a process of their own (so that reading their messages does not slow the
    measured players' loop); they leave after `hold` seconds."""
    stop, tally = asyncio.Event(), dict.fromkeys(("watching", "refused", "failed", "messages"), 0)
    tasks = [
        asyncio.create_task(
            spectate(url, port, f"127.0.0.{10 + k % args.addresses}", k < args.askers, stop, tally)
        )
        for k in range(args.spectators)
    ]
    await asyncio.sleep(hold)
    stop.set()
    await asyncio.gather(*tasks)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--crowd", nargs=3, metavar=("URL", "PORT", "SECONDS"), help=argparse.SUPPRESS)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--askers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if not (1 <= args.addresses <= 200 and 0 <= args.spectators <= 20_000 and 0 < args.seconds <= 120):
        parser.error("--addresses 1..200, --spectators 0..20000, --seconds up to 120")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.spectators + 500)), hard))
    if args.crowd:
        url, port, hold = args.crowd
        print(json.dumps(asyncio.run(crowd(url, int(port), float(hold), args))))
        return
    with tempfile.TemporaryDirectory() as folder:
        server = ProcessServer(f"sqlite:///{Path(folder) / 'bench.db'}", rate=50.0)
        try:
            server.start()
            asyncio.run(run(args, server))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
