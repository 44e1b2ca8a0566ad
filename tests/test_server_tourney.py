"""Tournaments hosted by `holdem serve`: registration, the director on live tables (rules 22-31), a
moved player's connection following them, prizes into the ledger, and a crash in the middle."""

from __future__ import annotations

import json
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

from websockets.sync.client import connect

from tests.server_support import ADMIN, ProcessServer, Server, ThreadServer, check_hands, play_bots

# Short levels on the wall clock, so that blinds rise within the test.
STRUCTURE = {
    "starting_stack": 500,
    "levels": [
        {"small_blind": 5, "big_blind": 10, "duration": 0.05},
        {"small_blind": 10, "big_blind": 20, "ante": 2, "duration": 0.05},
        {"small_blind": 25, "big_blind": 50, "ante": 5, "duration": 0.05},
    ],
}


def create(server: Server, **settings: Any) -> str:
    status, answer = server.http("POST", "/api/tournaments", {"structure": STRUCTURE} | settings, ADMIN)
    assert 200 == status, answer
    assert "registering" == answer["status"]
    return str(answer["id"])


def enter(server: Server, tournament: str, count: int) -> list[str]:
    tokens = []
    for k in range(count):
        status, answer = server.http(
            "POST", f"/api/tournaments/{tournament}/entries", {"name": f"e{k + 1:02d}"}
        )
        assert 200 == status, answer
        tokens.append(str(answer["token"]))
    return tokens


def summary(server: Server, tournament: str) -> dict[str, Any]:
    status, answer = server.http("GET", f"/api/tournaments/{tournament}")
    assert 200 == status, answer
    return dict(answer)


def finished(server: Server, tournament: str) -> bool:
    return summary(server, tournament)["status"] == "finished"


def chips_at_tables(server: Server, tables: list[str]) -> int:
    """Every chip on the tournament's tables: stacks and pots, read as a spectator sees them."""
    total = 0
    for table in tables:
        with connect(f"{server.ws}/ws?table={table}", open_timeout=5) as ws:
            state = json.loads(ws.recv(timeout=5))
        total += state["pot"] + sum(seat["stack"] for seat in state["seats"] if seat)
    return total


def test_an_18_entrant_six_max_sit_and_go_plays_to_its_end_through_a_crash(tmp_path: Path) -> None:
    """Bot clients play a whole tournament; the server is killed (SIGKILL) in the middle and
    restarted: no chip, entrant or place is lost, every hand replays, the tables break down to one,
    and the prizes, paid into the ledger, sum to the pool."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'tourney.db'}").start()
    try:
        tournament = create(server, seats=6, entrants=18, buy_in=10, action_seconds=5)
        tokens = enter(server, tournament, 18)
        first = summary(server, tournament)
        assert ("running", 3, 18) == (first["status"], len(first["tables"]), first["left"])
        assert 3 * 6 * 500 == chips_at_tables(server, first["tables"])  # rule 22: six at each table
        tables = list(first["tables"])
        runs = play_bots(server, tokens, hands=10**6, seconds=20, record=True,
                         until=lambda runs: summary(server, tournament)["left"] <= 12)  # fmt: skip
        before = summary(server, tournament)
        assert before["left"] <= 12
        server.kill()
        server.start()
        after = summary(server, tournament)
        assert before["results"] == after["results"]  # places unchanged
        assert after["minutes"] >= before["minutes"] - 0.01  # the clock resumes from what was stored
        assert after["minutes"] < before["minutes"] + 0.05  # … and did not run while the server was down
        assert 18 * 500 == chips_at_tables(server, after["tables"])  # chips conserved across tables
        runs += play_bots(server, tokens, hands=10**6, seconds=60, record=True,
                          until=lambda runs: finished(server, tournament))  # fmt: skip
        end = summary(server, tournament)
        assert "finished" == end["status"]
        assert [end["tables"][0]] == end["tables"] and tables[0] == end["tables"][0]  # rule 24: last first
        results = end["results"]
        assert sorted(r["name"] for r in results) == [f"e{k:02d}" for k in range(1, 19)]
        assert sorted(r["place"] for r in results)[0] == 1
        assert 18 * 10 == sum(r["prize"] for r in results) == sum(end["prizes"])
        assert 18 * 500 == chips_at_tables(server, end["tables"])  # the winner holds every chip
        for table in tables:
            check_hands(server.hands(table))  # every hand of every table replays
        status, answer = server.http("GET", f"/api/tournaments/{tournament}/ledger", token=ADMIN)
        assert 200 == status
        paid = {
            kind: sum(r["chips"] for r in answer["ledger"] if r["kind"] == kind)
            for kind in ("buy_in", "prize")
        }
        assert {"buy_in": 180, "prize": 180} == paid  # the buy-ins in, the prizes out
        moved = [m for run in runs for m in run.messages if m.get("type") == "moved"]
        assert moved, "nobody was moved to another table"
        for run in runs:  # after a move, a player's states come from the new table
            for k, message in enumerate(run.messages):
                if message.get("type") == "moved":
                    following = next((m for m in run.messages[k + 1 :] if m.get("type") == "state"), None)
                    assert following is None or following["table"] == message["table"]
    finally:
        server.stop()


def test_a_tournament_refuses_what_it_cannot_do_by_name(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 't.db'}") as server:
        status, answer = server.http("POST", "/api/tournaments", {"structure": STRUCTURE})
        assert (401, "this needs the admin token") == (status, answer["error"][:26])
        status, answer = server.http("POST", "/api/tournaments", {"structure": "nope"}, ADMIN)
        assert 400 == status and "unknown structure 'nope'" in answer["error"]
        status, answer = server.http("POST", "/api/tournaments", {"seats": 11}, ADMIN)
        assert 400 == status and "seats must be a whole number from 2 to 10" in answer["error"]
        tournament = create(server, seats=2, entrants=2)
        status, answer = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": ""})
        assert 400 == status and "name must be" in answer["error"]
        ann = enter(server, tournament, 1)[0]
        status, answer = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": "e01"})
        assert (409, "'e01' is already registered") == (status, answer["error"])
        enter_bob = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": "bob"})
        assert 200 == enter_bob[0]  # the field is full: it starts
        status, answer = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": "cid"})
        assert 409 == status and "registration is closed" in answer["error"]
        (table,) = summary(server, tournament)["tables"]
        status, answer = server.http("POST", f"/api/tables/{table}/players", {"name": "dee", "buy_in": 500})
        assert 409 == status and "enter the tournament instead" in answer["error"]
        with connect(f"{server.ws}/ws?token={ann}", open_timeout=5) as ws:
            assert "state" == json.loads(ws.recv(timeout=5))["type"]
            ws.send(json.dumps({"type": "sit_out"}))
            assert "sit_out is not allowed at a tournament table" == json.loads(ws.recv(timeout=5))["message"]
        status, lobby = server.http("GET", "/api/tournaments")
        assert [tournament] == [t["id"] for t in lobby["tournaments"]]
        assert 404 == server.http("GET", "/api/tournaments/nope")[0]


def random_action(rng: Any, legal: Any) -> Any:
    from holdem.hand.actions import Action

    choice = rng.random()
    if choice < 0.2 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        return Action.raise_to(rng.choice([legal.min_raise_to, legal.max_raise_to]))
    if choice < 0.35 and not legal.can_check:
        return Action.fold()
    return Action.check() if legal.can_check else Action.call()


def play_out(tourney: Any, rooms: dict[str, Any], rng: Any, now: float, each: Any = None) -> float:
    """Random play at every table, the director called after each action as the server calls it, a
    second of clock per action, `each(now)` after every step; until the tournament is over."""
    for _ in range(200_000):
        if tourney.status == "finished":
            return now
        busy = [
            r
            for r in (rooms[i] for i in tourney.rooms)
            if r.table.hand is not None and r.actor_seat() is not None
        ]
        assert busy, "no table can act and the tournament is not over"
        room = rng.choice(busy)
        now += 1.0
        hand = room.table.hand
        seat = room.actor_seat()
        assert hand is not None and seat is not None
        change = room.act(seat, room.number, random_action(rng, hand.legal_actions()), now)
        moves = tourney.after(room, change, rooms, now)
        rooms |= {new.id: new for new in moves.new}
        if each is not None:
            each(now)
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize(("entrants", "seats"), [(20, 6), (23, 9), (7, 2), (13, 4)])
def test_the_director_keeps_the_tables_balanced_and_every_chip_at_every_step(
    entrants: int, seats: int
) -> None:
    """Random play at every table of a tournament, the director called after each action as the server
    calls it: whenever no table is waiting for the others, the tables are within one player of each
    other and none could be broken (rules 24, 25); chips are never made or lost; the places and prizes
    at the end cover the field and the pool (rules 28, 29)."""
    import random

    from holdem.server.tourney import Moves, Tourney, tourney_config

    tourney = Tourney("t1", tourney_config({"structure": STRUCTURE, "seats": seats, "entrants": entrants}))
    rooms: dict[str, Any] = {}
    for k in range(entrants):
        _, made, _ = tourney.register(f"e{k}", 0.0)
        rooms |= {room.id: room for room in made}
    tourney.deal(rooms, 0.0, Moves())
    total = entrants * 500

    def check(now: float) -> None:
        tables = [rooms[i] for i in tourney.rooms]
        chips = 0
        for r in tables:  # stacks of the players not in a hand, and every chip of the hands in play
            dealt = r.table.hand_seats if r.table.hand is not None else ()
            chips += sum(p.stack for s, p in enumerate(r.table.seats) if p is not None and s not in dealt)
            if r.table.hand is not None:
                chips += sum(r.table.hand.stacks) + r.table.hand.pot
        assert total == chips
        if tourney.status == "running" and not tourney.waiting:
            counts = [sum(1 for p in r.table.seats if p is not None) for r in tables]
            assert max(counts) - min(counts) <= 1, counts
            assert len(tables) == 1 or tourney.left() > (len(tables) - 1) * seats, (tourney.left(), counts)

    play_out(tourney, rooms, random.Random(entrants * seats), 0.0, check)
    assert "finished" == tourney.status
    assert sorted(tourney.place) == sorted(f"e{k}" for k in range(entrants))
    assert 1 == min(tourney.place.values())
    assert sum(tourney.prize.values()) == sum(tourney.prizes) == entrants * 100


def test_a_scheduled_tournament_starts_on_time_takes_late_entrants_then_closes() -> None:
    """`start_at`: it starts then with whoever registered; late registration stays open until the end
    of level `late_until_level`; a late entrant is seated and plays; players out before it closes take
    the lowest places when it does; the prizes grow with the field."""
    import random

    from holdem.server.tourney import Moves, Tourney, tourney_config

    settings = {"structure": STRUCTURE, "seats": 3, "entrants": 8, "buy_in": 10, "late_until_level": 2}
    tourney = Tourney("t1", tourney_config(settings | {"start_at": time.time() + 3600}))
    assert not tourney.due(0.0)
    tourney = Tourney("t1", tourney_config(settings | {"start_at": time.time() - 1}))
    for k in range(4):
        tourney.register(f"e{k}", 0.0)
    assert tourney.due(0.0)
    made, refunds = tourney.start_now(0.0)
    assert ([], 2) == (refunds, len(made))
    rooms = {room.id: room for room in made}
    tourney.deal(rooms, 0.0, Moves())
    assert 40 == sum(tourney.prizes)
    tourney.register("late", 1.0)  # level 1 of 3-second levels: open
    assert ["late"] == tourney.late
    assert 50 == sum(tourney.prizes)  # five buy-ins
    closed: list[float] = []

    def watch(now: float) -> None:
        if not tourney.open and not closed:
            closed.append(now)
            assert tourney.config.structure.level_at(tourney.clock(now)) >= 2

    end = play_out(tourney, rooms, random.Random(5), 1.0, watch)
    assert [] == tourney.late  # seated, and played
    assert sorted(tourney.place) == ["e0", "e1", "e2", "e3", "late"]
    assert 1 == min(tourney.place.values()) and max(tourney.place.values()) <= 5  # ties share a place
    assert 50 == sum(tourney.prize.values())
    with pytest.raises(Exception, match="registration is closed"):
        tourney.register("later", end)


def test_a_scheduled_tournament_with_fewer_than_two_entrants_is_cancelled_and_refunded() -> None:
    from holdem.server.tourney import Tourney, tourney_config

    tourney = Tourney(
        "t1", tourney_config({"structure": STRUCTURE, "start_at": time.time() - 1, "buy_in": 7})
    )
    tourney.register("ann", 0.0)
    made, refunds = tourney.start_now(0.0)
    assert ([], "cancelled") == (made, tourney.status)
    assert [(2, 0, -1, "ann", "refund", 7, tourney.digests["ann"])] == refunds


def test_the_server_starts_a_scheduled_tournament_by_its_clock(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 't.db'}") as server:
        tournament = create(server, seats=6, entrants=10, start_at=time.time() + 1.0)
        enter(server, tournament, 3)
        assert "registering" == summary(server, tournament)["status"]
        deadline = time.monotonic() + 10
        while summary(server, tournament)["status"] == "registering" and time.monotonic() < deadline:
            time.sleep(0.1)
        running = summary(server, tournament)
        assert ("running", 1, 3) == (running["status"], len(running["tables"]), running["left"])


def test_a_tournament_stored_and_restored_at_any_moment_plays_on_the_same() -> None:
    """What a restart does, at many moments: mid-hand, at the barrier before a table is broken or a
    player moved (mid-break), across levels. The tournament and its tables go through their stored
    form (to_dict, from_dict) and play on to the end with every chip and place accounted for."""
    import random

    from holdem.server.room import Room
    from holdem.server.tourney import Moves, Tourney, tourney_config

    rng = random.Random(11)
    tourney = Tourney("t1", tourney_config({"structure": STRUCTURE, "seats": 4, "entrants": 14}))
    rooms: dict[str, Room] = {}
    for k in range(14):
        _, made, _ = tourney.register(f"e{k}", 0.0)
        rooms |= {room.id: room for room in made}
    tourney.deal(rooms, 0.0, Moves())
    now, mid_hand, at_barrier = 0.0, 0, 0
    for step in range(200_000):
        if tourney.status == "finished":
            break
        if tourney.waiting or step % 7 == 0:  # store and restore everything, as after kill -9
            at_barrier += tourney.waiting
            mid_hand += any(rooms[i].table.hand is not None for i in tourney.rooms)
            state = json.loads(tourney.to_json(now))
            tables = {i: json.loads(json.dumps(r.to_dict())) for i, r in rooms.items()}
            tourney = Tourney.from_dict(state, now)
            rooms = {i: Room.from_dict(data, now) for i, data in tables.items()}
            tourney.deal(rooms, now, Moves())  # what the server does after loading
        busy = [
            r
            for r in (rooms[i] for i in tourney.rooms)
            if r.table.hand is not None and r.actor_seat() is not None
        ]
        room = rng.choice(busy)
        now += 1.0
        hand, seat = room.table.hand, room.actor_seat()
        assert hand is not None and seat is not None
        change = room.act(seat, room.number, random_action(rng, hand.legal_actions()), now)
        rooms |= {new.id: new for new in tourney.after(room, change, rooms, now).new}
        tables_now = [rooms[i] for i in tourney.rooms]
        chips = 0
        for r in tables_now:
            dealt = r.table.hand_seats if r.table.hand is not None else ()
            chips += sum(p.stack for s, p in enumerate(r.table.seats) if p is not None and s not in dealt)
            if r.table.hand is not None:
                chips += sum(r.table.hand.stacks) + r.table.hand.pot
        assert 14 * 500 == chips
    assert "finished" == tourney.status
    assert mid_hand > 0 and at_barrier > 0  # restarts happened mid-hand, and at a break (14 at 4-max break)
    assert sorted(tourney.place) == sorted(f"e{k}" for k in range(14))
    assert sum(tourney.prize.values()) == 14 * 100
