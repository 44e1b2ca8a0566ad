"""A reconnect storm in server tournaments: every entrant drops its connection and connects again as
soon as its table finishes a hand, while the director breaks and balances tables. No entrant may be
left on a broken table: each hears where it is (a table, waiting, or finished) and is told its place
and prize at the end, as stored."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
import websockets

from tests.server_support import ADMIN, ProcessServer

STORM = {
    "starting_stack": 200,
    "levels": [
        {"small_blind": 5, "big_blind": 10, "duration": 0.03},
        {"small_blind": 10, "big_blind": 20, "duration": 0.03},
        {"small_blind": 25, "big_blind": 50, "duration": 0.03},
        {"small_blind": 50, "big_blind": 100, "duration": 0.03},
    ],
}
TOURNAMENTS = 30
AT_ONCE = 6
HEARD_WITHIN = 15.0
"""Seconds an entrant may go without a state, a move, a wait or its finish (only `alive`) before it
counts as stuck, on a machine running one process per core: a table deals a hand in well under a
second here. Scaled by `busy()` when the wait is judged: with the machine's two cores running three
times the work they can (the suite beside a mutation run), two of 633 entrants went over 15 s."""


def busy() -> float:
    """How much busier than one process per core the machine is now (1 when it is not): the load
    average as it stands, and at least the suite's own workers per core. Read when a wait is judged,
    not when the file is collected (then the suite has barely started, and the load average, a
    minute's, says little: with both cores kept busy beside three workers, one entrant of 633 went
    over a limit set at collection)."""
    cores = os.cpu_count() or 1
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1.0, os.getloadavg()[0] / cores, workers / cores)


async def _entrant(base: str, token: str, rng: random.Random, tally: dict[str, int]) -> dict[str, Any]:
    """Play an entrant (calls, checks and the odd fold), connecting again after each finished hand
    at its table; its `finished` message."""
    seen: set[tuple[str, int]] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        tally["connections"] += 1
        async with websockets.connect(
            f"{base}/ws?token={token}&alive=1", open_timeout=20, close_timeout=1
        ) as ws:
            heard = time.monotonic()
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), HEARD_WITHIN * busy() + 5))
                except websockets.ConnectionClosed as closed:
                    if closed.rcvd is None or closed.rcvd.code not in (1008, 1012):
                        raise
                    break  # the table moved (1012), or this reader fell too far behind (1008): again
                if message["type"] == "alive":
                    if time.monotonic() - heard > HEARD_WITHIN * busy():
                        tally["stuck"] += 1
                        break  # connect again: the test fails on the count
                    continue
                heard = time.monotonic()
                if message["type"] == "finished":
                    return dict(message)
                if message["type"] != "state":
                    continue  # moved (the new table's state follows), waiting, an error
                last = message["last_hand"]
                if last is not None and (message["table"], last["number"]) not in seen:
                    first = not seen
                    seen.add((message["table"], last["number"]))
                    if not first:
                        break  # the storm: connect again as soon as a hand ends
                legal = message["legal"]
                if message["actor"] == message["seat"] and legal:
                    action = "fold" if rng.random() < 0.1 and not legal["check"] else "call"
                    action = "check" if legal["check"] else action
                    await ws.send(json.dumps({"type": "act", "hand": message["hand"], "action": action,
                                              "steps": message["steps"]}))  # fmt: skip
    raise AssertionError(f"entrant {token[:12]}… was never told its place")


async def _tournament(server: ProcessServer, rng: random.Random, tally: dict[str, int]) -> None:
    entrants = rng.randrange(18, 25)
    status, made = await asyncio.to_thread(
        server.http, "POST", "/api/tournaments",
        {"structure": STORM, "seats": 6, "entrants": entrants, "buy_in": 10, "action_seconds": 5}, ADMIN,
    )  # fmt: skip
    assert 200 == status, made
    ident, tokens = made["id"], {}
    for k in range(entrants):
        status, entry = await asyncio.to_thread(
            server.http, "POST", f"/api/tournaments/{ident}/entries", {"name": f"e{k}"}
        )
        assert 200 == status, entry
        tokens[entry["name"]] = entry["token"]
    told = await asyncio.gather(
        *(_entrant(server.ws, token, random.Random(rng.random()), tally) for token in tokens.values())
    )
    status, stored = await asyncio.to_thread(server.http, "GET", f"/api/tournaments/{ident}")
    assert 200 == status and "finished" == stored["status"], stored
    places = {r["name"]: (r["place"], r["prize"]) for r in stored["results"]}
    assert places == {m["name"]: (m["place"], m["prize"]) for m in told}
    assert entrants == len(places) and [1] == [p for p, _ in places.values() if p == 1]
    tally["tournaments"] += 1
    tally["entrants"] += entrants


def test_a_reconnect_storm_over_thirty_tournaments_leaves_no_entrant_on_a_broken_table(
    tmp_path: Path,
) -> None:
    """Thirty tournaments of 18 to 24 entrants at six-max tables, six at a time, every entrant
    reconnecting after each hand its table finishes: none goes 15 s without hearing where it is,
    and each is told the place and prize that the server stored."""
    # Every entrant here connects from 127.0.0.1; in the open each is an address of its own, so the
    # cap on one address's connections (64) is lifted for this crowd.
    server = ProcessServer(f"sqlite:///{tmp_path / 'storm.db'}", args=("--per-address", "100000")).start()
    tally = dict.fromkeys(("tournaments", "entrants", "connections", "stuck"), 0)
    try:
        rng = random.Random(2026)

        async def main() -> None:
            gate = asyncio.Semaphore(AT_ONCE)

            async def one(seed: float) -> None:
                async with gate:
                    await _tournament(server, random.Random(seed), tally)

            await asyncio.wait_for(asyncio.gather(*(one(rng.random()) for _ in range(TOURNAMENTS))), 600)

        asyncio.run(main())
    finally:
        server.stop()
    print(f"storm: {tally}")
    assert TOURNAMENTS == tally["tournaments"] and 0 == tally["stuck"], tally
