"""The game server end to end: real uvicorn servers, real WebSocket clients, SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from websockets.sync.client import connect

from holdem.formats import phh
from tests.server_support import (
    ADMIN,
    ThreadServer,
    check_hands,
    play_bots,
    postgres_missing,
    throwaway_postgres,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The same tests on SQLite and on a real, throwaway PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'holdem.db'}"
        return
    missing = postgres_missing()
    if missing:
        pytest.skip(f"no PostgreSQL: {missing}")
    with throwaway_postgres() as url:
        yield url


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def test_health_and_the_admin_token(server: ThreadServer) -> None:
    assert 200 == server.http("GET", "/api/health")[0]
    assert 401 == server.http("POST", "/api/tables", {"seats": 2})[0]
    assert 401 == server.http("POST", "/api/tables", {"seats": 2}, "wrong")[0]
    status, answer = server.http("POST", "/api/tables", {"seats": 11}, ADMIN)
    assert (400, "seats must be 2 to 10, got 11") == (status, answer["error"])
    assert (400, "malformed JSON") == (server.http("POST", "/api/tables", "{", ADMIN)[0], "malformed JSON")
    table = server.table(seats=3)
    assert [0, 1, 2] == server.http("GET", "/api/tables")[1]["tables"][0]["free_seats"]
    assert 401 == server.http("GET", f"/api/tables/{table}/hands")[0]
    assert 404 == server.http("POST", "/api/tables/nope/players", {"name": "a", "buy_in": 100})[0]


def test_full_hands_over_websockets_store_every_hand(database: str) -> None:
    with ThreadServer(database) as server:
        table = server.table(seats=3, action_seconds=30)
        tokens = [server.join(table, name, 100)[1] for name in ("ann", "bob", "cid")]
        runs = play_bots(server, tokens, hands=25, rebuy=100)
        assert [] == [error for run in runs for error in run.errors]
        hands = server.hands(table)
        assert len(hands) >= 25
        check_hands(hands)
        net, on_table = server.chips_conserved(table)
        assert net == on_table and net >= 300


def test_a_seat_reconnects_with_its_token_and_sees_the_same_hand(server: ThreadServer) -> None:
    table = server.table(seats=2)
    _, ann = server.join(table, "ann", 100)
    server.join(table, "bob", 100)
    with connect(f"{server.ws}/ws?token={ann}") as ws:
        first = json.loads(ws.recv())
    with connect(f"{server.ws}/ws?token={ann}") as ws:
        again = json.loads(ws.recv())
    assert first["hole"] == again["hole"] and len(first["hole"]) == 2
    assert (first["hand"], first["actor"], first["pot"]) == (again["hand"], again["actor"], again["pot"])


def test_when_the_clock_runs_out_the_player_is_folded_and_sat_out(server: ThreadServer) -> None:
    table = server.table(seats=2, action_seconds=1, time_bank_seconds=1)
    _, ann = server.join(table, "ann", 100)
    server.join(table, "bob", 100)
    with connect(f"{server.ws}/ws?token={ann}") as ws:
        state = json.loads(ws.recv())
        if state["clock"] is not None:  # (on a busy machine the clock may have run out already)
            assert state["clock"]["seconds"] <= 1 and state["clock"]["bank"] <= 1
        actor = state["actor"]  # None if the server has acted already: then one seat sits out
        while not any(seat["sitting_out"] for seat in state["seats"] if seat is not None):
            state = json.loads(ws.recv(timeout=10))  # nobody acts: the server does
        out = [k for k, seat in enumerate(state["seats"]) if seat is not None and seat["sitting_out"]]
        assert out == [actor] if actor is not None else len(out) == 1
        assert state["last_hand"]["number"] == 1
        assert state["phase"] is None  # one player in: no hand until the other sits in
        hands = server.hands(table)
        assert phh.loads(hands[0]["phh"])[0]["actions"][-1].endswith(" f")  # the small blind owed a call


def test_sit_out_sit_in_rebuy_and_leave(server: ThreadServer) -> None:
    table = server.table(seats=3, min_buy_in=40, max_buy_in=200)
    (a, ann), (b, bob) = server.join(table, "ann", 100), server.join(table, "bob", 100)
    with connect(f"{server.ws}/ws?token={bob}") as ws:
        json.loads(ws.recv())
        ws.send(json.dumps({"type": "rebuy", "amount": 150}))
        assert (
            "amount must be a whole number of chips from 1 to 100 (you have 100), got 150"
            in json.loads(ws.recv())["message"]
        )
        ws.send(json.dumps({"type": "sit_out"}))
        assert json.loads(ws.recv())["seats"][b]["sitting_out"]
        ws.send(json.dumps({"type": "sit_in", "post": "yes"}))
        assert "post must be true or false" in json.loads(ws.recv())["message"]
    status, answer = server.http("DELETE", f"/api/tables/{table}/players/{a}", token=bob)
    assert 403 == status
    status, answer = server.http("DELETE", f"/api/tables/{table}/players/{a}", token=ann)
    assert 200 == status and answer["left"] is False  # in the hand: leaves when it ends
    runs = play_bots(server, [ann, bob], hands=1, seconds=3)
    listed = server.http("GET", "/api/tables")[1]["tables"][0]
    assert [p["name"] for p in listed["players"]] == ["bob"]
    with connect(f"{server.ws}/ws?token={ann}") as ws:
        assert "unknown token" in json.loads(ws.recv())["message"]
    assert runs[0].closed and [] == runs[0].errors + runs[1].errors
