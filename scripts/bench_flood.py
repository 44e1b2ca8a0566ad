"""A flood of new home games from one address against `holdem serve` in a process of its own: how many
are accepted, the server's memory, the lobby's size and the idle server's CPU after it.

    python scripts/bench_flood.py [--attempts 10000] [--idle-seconds 10]

A benchmark, not a test: it prints what it measured. Loopback only; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server_support import free_port  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(pid: int, seconds: float) -> float:
    """The share of one core the process used over `seconds` of doing nothing asked of it."""
    before, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - before) / (time.monotonic() - start)


def _post_games(port: int, count: int) -> Counter[int]:
    """`count` requests for a new game on one keep-alive connection; their statuses."""
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    body, statuses = json.dumps({"seats": 6}), Counter[int]()
    for _ in range(count):
        connection.request("POST", "/api/games", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        statuses[response.status] += 1
    connection.close()
    return statuses


def flood(port: int, attempts: int, connections: int = 16) -> Counter[int]:
    """`attempts` requests for a new game from this one address, over several connections at once
    (each request waits about 40 ms for the server's delayed acknowledgement on loopback)."""
    share = [attempts // connections + (k < attempts % connections) for k in range(connections)]
    with ThreadPoolExecutor(connections) as pool:
        return sum(pool.map(lambda n: _post_games(port, n), share), Counter[int]())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="holdem-flood-"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "holdem", "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'f.db'}",
         "--admin-token", "flood-admin"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        connection = HTTPConnection("127.0.0.1", port, timeout=10)
        deadline = time.monotonic() + 30
        while True:
            try:
                connection.request("GET", "/api/health")
                connection.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
                connection = HTTPConnection("127.0.0.1", port, timeout=10)
        before = idle_cpu(server.pid, args.idle_seconds)
        print(f"idle before: {before:.1f}% of a core, {rss_mb(server.pid):.0f} MB")
        start = time.monotonic()
        statuses = flood(port, args.attempts)
        took = time.monotonic() - start
        connection = HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/tables")
        lobby = len(connection.getresponse().read())
        print(
            f"{args.attempts} attempts in {took:.1f} s: "
            + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items()))
        )
        print(f"after: {rss_mb(server.pid):.0f} MB, lobby {lobby} bytes")
        print(f"idle after: {idle_cpu(server.pid, args.idle_seconds):.1f}% of a core")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
