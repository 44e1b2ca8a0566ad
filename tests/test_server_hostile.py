"""The server under hostile conditions, on a real uvicorn server: a stranger who takes a former
player's name, a database that holds a table's row, many processes making the schema at once,
a flood of new games. Each test reproduces what broke before."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
from websockets.sync.client import connect

from tests.server_support import ThreadServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def _game_with_a_bot(server: ThreadServer) -> dict[str, Any]:
    status, game = server.http("POST", "/api/games", {"seats": 6})
    assert 200 == status, game
    status, answer = server.http(
        "POST",
        f"/api/tables/{game['id']}/host",
        {"command": "bot", "bot": "calling-station"},
        game["host_token"],
    )
    assert 200 == status, answer
    return dict(game)


def _sit(server: ThreadServer, game: dict[str, Any], name: str) -> str:
    status, asked = server.http("POST", f"/api/tables/{game['id']}/players", {"name": name, "buy_in": 100})
    assert 200 == status and asked["pending"], asked
    status, done = server.http(
        "POST",
        f"/api/tables/{game['id']}/host",
        {"command": "approve", "seat": asked["seat"]},
        game["host_token"],
    )
    assert 200 == status, done
    return str(asked["token"])


def _play_until(ws: Any, done: Any, seconds: float = 30.0) -> dict[str, Any]:
    """Check or fold every turn of this seat until a state satisfies `done`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=seconds))
        if message["type"] != "state":
            continue
        if done(message):
            return dict(message)
        if message["actor"] == message["seat"] and message["legal"]:
            action = "check" if message["legal"]["check"] else "fold"
            ws.send(
                json.dumps(
                    {"type": "act", "hand": message["hand"], "steps": message["steps"], "action": action}
                )
            )
    raise AssertionError("no such state in time")


def test_a_later_holder_of_a_name_sees_nothing_of_a_former_holders_hands(server: ThreadServer) -> None:
    """Ann plays three hands and leaves; a stranger sits down as "ANN". Their token lists none of
    Ann's hands and is refused each of them; Ann's own token still downloads hers, unchanged."""
    game = _game_with_a_bot(server)
    ident = game["id"]
    ann = _sit(server, game, "Ann")
    with connect(f"{server.ws}/ws?token={ann}") as ws:
        state = _play_until(ws, lambda m: m["hand"] >= 4)
        status, left = server.http("DELETE", f"/api/tables/{ident}/players/{state['seat']}", token=ann)
        assert 200 == status, left
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # her seat is freed when the hand in progress ends
            listed = next(t for t in server.http("GET", "/api/tables")[1]["tables"] if t["id"] == ident)
            if all(p["name"] != "Ann" for p in listed["players"]):
                break
            if state["actor"] == state["seat"] and state["legal"]:
                ws.send(
                    json.dumps(
                        {"type": "act", "hand": state["hand"], "steps": state["steps"], "action": "fold"}
                    )
                )
            try:
                state = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            except Exception:  # the seat is gone: the server closed her socket
                break
    status, hers = server.http("GET", f"/api/tables/{ident}/hands", token=ann)
    assert 200 == status and len(hers["hands"]) >= 3, hers
    status, ann_first = server.http("GET", f"/api/tables/{ident}/hands/1", token=ann)
    assert 200 == status and ann_first["you"] is not None
    stranger = _sit(server, game, "ANN")
    status, listed = server.http("GET", f"/api/tables/{ident}/hands", token=stranger)
    assert 200 == status and [] == [h for h in listed["hands"] if h["number"] <= hers["hands"][-1]["number"]]
    for hand in hers["hands"]:
        status, answer = server.http("GET", f"/api/tables/{ident}/hands/{hand['number']}", token=stranger)
        assert 403 == status and "not dealt into" in answer["error"], answer
    assert (200, ann_first) == server.http("GET", f"/api/tables/{ident}/hands/1", token=ann)


def test_a_stranger_in_a_former_players_seat_never_gets_their_last_view() -> None:
    """The seat's own view of the last hand (its hole cards) goes to the token that was dealt in,
    not to whoever holds the seat under the same name next."""
    from holdem.server.host import ask, command
    from holdem.server.messages import state_message
    from tests.test_server_home import game, play_out

    room, _ = game()
    seats = {}
    for name in ("ann", "bob"):
        seat, _, _, _ = ask(room, name, 100, None, False, 0.0)
        command(room, {"command": "approve", "seat": seat}, 0.0)
        seats[name] = seat
    number = room.number
    room.leave(seats["ann"], 1.0)
    play_out(room, [])
    assert (
        room.last_hand is not None and number == room.last_hand["number"] and seats["ann"] not in room.members
    )
    assert "hole" in room.last_views[str(seats["ann"])]["view"]
    seat, _, _, _ = ask(room, "ANN", 100, seats["ann"], False, 2.0)
    command(room, {"command": "approve", "seat": seat}, 2.0)
    assert seat == seats["ann"]
    assert "last_view" not in state_message(room, seat, 3.0, with_view=True, away=set())
    assert "last_view" in state_message(room, seats["bob"], 3.0, with_view=True, away=set())


SCHEMA_RACE = """
import sys
import psycopg
from holdem.server.storage import open_storage
connect = psycopg.connect

def connect_then_wait(*args, **kwargs):  # held at a barrier that the test lifts for all at once
    connection = connect(*args, **kwargs)
    connection.execute("SELECT pg_advisory_lock_shared(42)")
    connection.execute("SELECT pg_advisory_unlock_shared(42)")
    connection.commit()
    return connection

psycopg.connect = connect_then_wait
open_storage(sys.argv[1]).close()
"""


def test_processes_that_start_together_on_a_new_database_all_make_the_schema() -> None:
    """Three processes open the same new PostgreSQL database at the same moment, ten times over: each
    one starts (before, one could fail on the catalogue's unique index for the table 'rooms')."""
    import subprocess
    import sys

    import psycopg

    from tests.server_support import postgres_missing, throwaway_postgres

    if postgres_missing():
        pytest.skip(postgres_missing())
    with throwaway_postgres() as url:
        for round in range(10):
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute(f"CREATE DATABASE fresh{round}")
            fresh = url.rsplit("/", 1)[0] + f"/fresh{round}"
            with psycopg.connect(fresh, autocommit=True) as barrier:
                barrier.execute("SELECT pg_advisory_lock(42)")
                runs = [
                    subprocess.Popen([sys.executable, "-c", SCHEMA_RACE, fresh], stderr=subprocess.PIPE)
                    for _ in range(3)
                ]
                try:
                    _wait_for_waiters(barrier, 3)
                    barrier.execute("SELECT pg_advisory_unlock(42)")
                    errors = [run.communicate(timeout=60)[1].decode() for run in runs]
                finally:
                    for run in runs:
                        run.kill()
            assert [0, 0, 0] == [run.returncode for run in runs], errors


def _wait_for_waiters(barrier: Any, count: int) -> None:
    """Until `count` sessions wait for the barrier's advisory lock (bounded)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        waiting = barrier.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        ).fetchone()[0]
        if waiting >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"fewer than {count} processes reached the barrier")
