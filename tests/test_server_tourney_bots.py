"""Bots in server tournaments: `holdem join --tournament` enters, follows its player from table to
table, and prints its place and prize; every entrant, the winner too, is sent its place and prize;
an entrant's token works for as long as they are in (waiting for a seat, at any table, across a
restart), and a busted entrant reconnecting is told their place again."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import connect

from holdem.server.client import play_seat
from holdem.server.join import JoinSummary, run_bot
from tests.server_support import ADMIN, ProcessServer, Server, ThreadServer, check_hands

FAST = {
    "starting_stack": 300,
    "levels": [
        {"small_blind": 5, "big_blind": 10, "duration": 0.05},
        {"small_blind": 10, "big_blind": 20, "duration": 0.05},
        {"small_blind": 25, "big_blind": 50, "ante": 5, "duration": 0.05},
        {"small_blind": 50, "big_blind": 100, "ante": 10, "duration": 0.05},
    ],
}
BOTS = ["random", "calling-station", "equity[samples=20]", "folder", "random", "calling-station"]
LINE = re.compile(
    r"^(?P<name>\S+) in tournament (?P<id>\S+): place (?P<place>\d+) of 18, prize (?P<prize>\d+);"
)


def create(server: Server, **settings: Any) -> str:
    status, answer = server.http("POST", "/api/tournaments", {"structure": FAST} | settings, ADMIN)
    assert 200 == status, answer
    return str(answer["id"])


def summary(server: Server, tournament: str) -> dict[str, Any]:
    status, answer = server.http("GET", f"/api/tournaments/{tournament}")
    assert 200 == status, answer
    return dict(answer)


def test_holdem_join_plays_an_18_entrant_tournament_to_its_end_from_the_command_line(tmp_path: Path) -> None:
    """Eighteen `holdem join --tournament` processes with built-in bots: each ends by itself when its
    player is out or has won, and prints the place and prize the server recorded."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    players: list[subprocess.Popen[str]] = []
    try:
        server.start()
        tournament = create(server, seats=6, entrants=18, buy_in=10, action_seconds=5)
        for k in range(18):
            command = [sys.executable, "-m", "holdem", "join", server.base, "--tournament", tournament,
                       "--bot", BOTS[k % len(BOTS)], "--name", f"e{k + 1:02d}", "--seed", str(k)]  # fmt: skip
            players.append(
                subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            )
        outputs = [player.communicate(timeout=150) for player in players]
        assert [0] * 18 == [player.returncode for player in players], [err for _, err in outputs if err]
        printed = {}
        for out, _ in outputs:
            found = LINE.match(out.strip())
            assert found is not None and found["id"] == tournament, out
            printed[found["name"]] = (int(found["place"]), int(found["prize"]))
        end = summary(server, tournament)
        assert "finished" == end["status"]
        assert {r["name"]: (r["place"], r["prize"]) for r in end["results"]} == printed
        assert 1 in {place for place, _ in printed.values()} and 180 == sum(p for _, p in printed.values())
        for table in [f"{tournament}-{k}" for k in (1, 2, 3)]:
            check_hands(server.hands(table))
        assert any(t["finished"] for t in server.http("GET", "/api/tables")[1]["tables"])  # the lobby says so
    finally:
        for player in players:
            if player.poll() is None:
                player.kill()
                player.communicate()
        server.stop()


def test_every_entrant_the_winner_too_is_sent_place_and_prize_and_is_told_again_on_reconnecting(
    tmp_path: Path,
) -> None:
    """A three-entrant sit-and-go: two `run_bot` bots and one raw client. Every run ends by itself
    (the winner's connection too) with its place and prize; the raw client's token, reconnecting
    after the end, is sent its place again (not refused as unknown) and closed normally."""
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        tournament = create(server, seats=3, entrants=3, buy_in=10, shares=[1])
        status, raw = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": "raw"})
        assert 200 == status, raw

        async def main() -> tuple[list[JoinSummary], Any]:
            stop = asyncio.Event()
            client = asyncio.create_task(play_seat(server.ws, raw["token"], stop=stop, record=True))
            runs = [run_bot(server.base, None, BOTS[k], tournament=tournament, name=f"p{k}", seed=k)
                    for k in range(2)]  # fmt: skip
            try:
                return list(await asyncio.wait_for(asyncio.gather(*runs), 60)), await asyncio.wait_for(
                    client, 60
                )
            finally:
                stop.set()

        summaries, seat_run = asyncio.run(main())
        end = summary(server, tournament)
        places = {r["name"]: (r["place"], r["prize"]) for r in end["results"]}
        assert {s.name: (s.place, s.prize) for s in summaries} == {n: places[n] for n in ("p0", "p1")}
        assert all(s.hands > 0 and s.entrants == 3 for s in summaries)
        told = [m for m in seat_run.messages if m["type"] == "finished"]
        assert [("raw",) + places["raw"]] == [(m["name"], m["place"], m["prize"]) for m in told]
        assert seat_run.closed  # the server ended the raw client's connection too
        with connect(f"{server.ws}/ws?token={raw['token']}", open_timeout=5) as ws:
            again = json.loads(ws.recv(timeout=5))
            assert ("finished", places["raw"][0]) == (again["type"], again.get("place")), again
            with pytest.raises(ConnectionClosedOK):
                ws.recv(timeout=5)
        tables = [t for t in server.http("GET", "/api/tables")[1]["tables"] if t["tournament"] == tournament]
        assert [True] == [t["finished"] for t in tables]


def test_a_token_works_while_its_entrant_waits_for_a_seat_and_across_a_restart(tmp_path: Path) -> None:
    """A scheduled tournament: before it starts, an entrant's connection is told to wait (not
    refused as unknown), also after kill -9 and a restart; when the server's clock starts it, the
    same connection is moved to the entrant's table and sent its state."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        server.start()
        tournament = create(server, seats=6, entrants=6, buy_in=10, start_at=time.time() + 4)
        tokens = []
        for k in range(3):
            status, answer = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": f"w{k}"})
            assert 200 == status, answer
            tokens.append(answer["token"])
        with connect(f"{server.ws}/ws?token={tokens[0]}", open_timeout=5) as ws:
            assert "waiting" == json.loads(ws.recv(timeout=5))["type"]
        server.kill()
        server.start()
        with connect(f"{server.ws}/ws?token={tokens[1]}&view=1", open_timeout=5) as ws:
            assert {"type": "waiting", "tournament": tournament, "status": "registering"} == json.loads(
                ws.recv(timeout=5)
            )
            moved = json.loads(ws.recv(timeout=15))  # the server's clock starts it
            assert ("moved", f"{tournament}-1") == (moved["type"], moved["table"])
            state = json.loads(ws.recv(timeout=5))
            assert ("state", moved["seat"]) == (state["type"], state["seat"])
            assert state["seats"][moved["seat"]]["name"] == "w1"
    finally:
        server.stop()
