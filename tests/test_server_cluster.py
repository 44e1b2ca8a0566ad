"""Several `holdem serve --cluster` processes on one PostgreSQL, behind nginx with the shipped
configuration: any process takes any client, a table survives the death of the process serving it,
and a stalled process that lost a table cannot write for it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from holdem.errors import LeaseLost
from holdem.server import Close
from holdem.server.config import Cluster, TableConfig
from holdem.server.hub import Hub
from holdem.server.readers import SPECTATORS_PER_ADDRESS
from holdem.server.room import Room
from holdem.server.storage import open_storage
from tests.server_support import (
    ADMIN,
    ProcessServer,
    Through,
    check_hands,
    nginx,
    nginx_missing,
    play_bots,
    postgres_missing,
    progress,
    seen,
    throwaway_postgres,
)

LEASE = 2.0
needs_postgres = pytest.mark.skipif(postgres_missing() is not None, reason=str(postgres_missing()))
needs_nginx = pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing()))


def processes(url: str, count: int, lease: float = LEASE) -> list[ProcessServer]:
    trust = ("--forwarded-allow-ips", "127.0.0.1")  # nginx, and each other, as the shipped file says
    return [ProcessServer(url, args=("--cluster", "--lease", str(lease), *trust)) for _ in range(count)]


@contextlib.contextmanager
def cluster(count: int, lease: float = LEASE) -> Iterator[tuple[str, list[ProcessServer]]]:
    """A throwaway PostgreSQL and `count` started `--cluster` processes on it; all stopped afterwards
    (a stopped one woken first)."""
    with throwaway_postgres() as url:
        servers = processes(url, count, lease)
        try:
            for server in servers:
                server.start()
            yield url, servers
        finally:
            for server in servers:
                if server.process is not None and server.process.poll() is None:
                    os.kill(server.process.pid, signal.SIGCONT)
                server.stop()


def serving(server: ProcessServer) -> list[str]:
    status, answer = server.http("GET", "/api/health")
    assert 200 == status, answer
    return list(answer["serving"])


def state_of(base: str, token: str) -> dict[str, Any]:
    with connect(f"{base}/ws?token={token}", open_timeout=5) as ws:
        message: dict[str, Any] = json.loads(ws.recv(timeout=5))
    assert "state" == message["type"], message
    return message


@needs_postgres
@needs_nginx
def test_players_through_nginx_play_on_when_the_process_serving_their_table_is_killed() -> None:
    with cluster(2) as (_, servers), nginx([server.port for server in servers]) as port:
        lb = Through(port)
        table = lb.table(seats=3, action_seconds=30)
        tokens = [lb.join(table, name, 200)[1] for name in ("ann", "bob", "cid")]
        play_bots(lb, tokens, hands=10**6, seconds=1.5, rebuy=200)
        (victim,) = [server for server in servers if table in serving(server)]
        (survivor,) = [server for server in servers if server is not victim]
        assert [] == serving(survivor)  # one process serves the table; the other relays
        killer = threading.Timer(0.7, victim.kill)
        killer.start()
        runs = play_bots(lb, tokens, hands=10**6, seconds=1.5, rebuy=200)  # killed meanwhile
        killer.join()
        before, killed = seen(runs), time.monotonic()
        last_hand = max(state["hand"] for state in before.values())
        played_on = None
        while played_on is None and time.monotonic() < killed + LEASE + 10:
            runs = play_bots(lb, tokens, hands=10**6, seconds=1.0, rebuy=200)  # reconnect
            if max((run.last or {}).get("hand", 0) for run in runs) > last_hand + 2:
                played_on = time.monotonic() - killed
        assert played_on is not None, "the table did not play on at the other process"
        assert [table] == serving(survivor)
        check_hands(lb.hands(table))
        net, on_table = lb.chips_conserved(table)
        assert net == on_table
        for seat, token in enumerate(tokens):  # no acknowledged state was lost
            assert progress(state_of(f"ws://127.0.0.1:{port}", token)) >= progress(before[seat])


@needs_postgres
@needs_nginx
def test_players_through_nginx_are_routed_around_a_stalled_process_within_the_lease_and_5_s() -> None:
    """SIGSTOP the process serving a table while its players play through nginx: it still accepts
    connections, but a request and a WebSocket handshake for the table are answered by the other
    process, which takes the table over, within the lease plus 5 s; the players reconnect there and
    play on; when the stalled one wakes it has lost the table, and nothing was lost or written twice."""
    with cluster(2) as (_, servers), nginx([server.port for server in servers]) as port:
        lb = Through(port)
        table = lb.table(seats=3, action_seconds=30)
        tokens = [lb.join(table, name, 200)[1] for name in ("ann", "bob", "cid")]
        play_bots(lb, tokens, hands=10**6, seconds=1.5, rebuy=200)
        (victim,) = [server for server in servers if table in serving(server)]
        (survivor,) = [server for server in servers if server is not victim]
        assert victim.process is not None
        before = seen(play_bots(lb, tokens, hands=10**6, seconds=0.5, rebuy=200))
        os.kill(victim.process.pid, signal.SIGSTOP)
        stalled = time.monotonic()
        try:
            status, ledger = lb.http("GET", f"/api/tables/{table}/ledger", token=ADMIN)
            assert 200 == status, ledger
            assert time.monotonic() - stalled < LEASE + 5
            assert [table] == serving(survivor)  # answered by the process that took it over
            shaken = time.monotonic()
            state_of(f"ws://127.0.0.1:{port}", tokens[0])
            assert time.monotonic() - shaken < LEASE + 5
            last_hand = max(state["hand"] for state in before.values())
            runs = play_bots(lb, tokens, hands=last_hand + 3, seconds=20, rebuy=200)  # they play on there
            assert max((run.last or {}).get("hand", 0) for run in runs) > last_hand + 2
        finally:
            os.kill(victim.process.pid, signal.SIGCONT)
        woke = time.monotonic()
        while table in serving(victim) and time.monotonic() < woke + LEASE + 5:  # it finds its lease gone
            time.sleep(0.1)
        assert table not in serving(victim)
        check_hands(lb.hands(table))
        net, on_table = lb.chips_conserved(table)
        assert net == on_table
        for seat, token in enumerate(tokens):  # no acknowledged state was lost
            assert progress(state_of(f"ws://127.0.0.1:{port}", token)) >= progress(before[seat])


@needs_nginx
def test_a_quiet_connection_through_nginx_stays_open_past_its_read_timeout(tmp_path: Path) -> None:
    """nginx gives up on a process that sends nothing for 3 s; `holdem serve` pings every WebSocket
    every 2 s, so a spectator at a quiet table is still connected after 9 s, and answered."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        server.start()
        with nginx([server.port]) as port:
            table = Through(port).table(seats=2)
            with connect(f"ws://127.0.0.1:{port}/ws?table={table}", open_timeout=5) as ws:
                assert "state" == json.loads(ws.recv(timeout=5))["type"]
                with pytest.raises(TimeoutError):
                    ws.recv(timeout=9)  # nothing to say: only the server's pings pass
                ws.send(json.dumps({"type": "ping"}))
                assert {"type": "pong"} == json.loads(ws.recv(timeout=5))
    finally:
        server.stop()


@needs_postgres
@needs_nginx
def test_the_lobby_and_spectators_see_every_table_whichever_process_they_reach() -> None:
    with cluster(2) as (_, servers):
        tables = [servers[0].table(seats=2), servers[1].table(seats=6)]
        for server in servers:  # each lists both
            status, answer = server.http("GET", "/api/tables")
            assert 200 == status
            assert sorted(tables) == sorted(t["id"] for t in answer["tables"])
        assert [] == serving(servers[0]) == serving(servers[1])  # until a player comes
        ann = servers[0].join(tables[0], "ann", 100)[1]
        servers[1].join(tables[0], "bob", 100)  # joined through the other process
        assert [tables[0]] == serving(servers[0])  # served where its first player came
        with nginx([server.port for server in servers]) as port:
            with connect(f"ws://127.0.0.1:{port}/ws?table={tables[0]}", open_timeout=5) as watch:
                state = json.loads(watch.recv(timeout=5))
            assert ["ann", "bob"] == [seat["name"] for seat in state["seats"] if seat]
            assert [] == state["hole"]  # a spectator sees no cards
            mine = state_of(f"ws://127.0.0.1:{servers[1].port}", ann)  # relayed by the other process
            assert 2 == len(mine["hole"])
            forged = tables[0] + ".not-a-token"  # refused by the serving process, through the relay
            with connect(f"ws://127.0.0.1:{servers[1].port}/ws?token={forged}", open_timeout=5) as ws:
                assert "unknown token" == json.loads(ws.recv(timeout=5))["message"]
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=5)
            assert 4404 == ws.close_code


@needs_postgres
def test_a_spectator_turned_away_by_the_serving_process_hears_why_through_the_relay() -> None:
    """The owner closes a spectator past the cap with 4429; relayed by another process, the page
    hears 4429 too (it once heard 1012, "connect again", and knocked again at once)."""
    with cluster(2) as (_, servers):
        table = servers[0].table(seats=2)
        servers[0].join(table, "ann", 100)
        assert [table] == serving(servers[0])
        url = f"ws://127.0.0.1:{servers[1].port}/ws?table={table}"
        with contextlib.ExitStack() as watching:
            for _ in range(SPECTATORS_PER_ADDRESS):
                ws = watching.enter_context(connect(url, open_timeout=5))
                assert "state" == json.loads(ws.recv(timeout=5))["type"]
            with connect(url, open_timeout=5) as extra:
                assert "too many spectators" in json.loads(extra.recv(timeout=5))["message"]
                with pytest.raises(ConnectionClosed):
                    extra.recv(timeout=5)
            assert Close.TOO_MANY == extra.close_code


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_write_under_a_lease_that_another_process_took_over_is_refused_and_changes_nothing(
    backend: str, tmp_path: Any
) -> None:
    """The fence: process a's lease expires (a is stalled), process b takes the table with the next
    epoch and writes; a's late write is refused whole, and what b wrote stays."""
    if backend == "postgresql" and postgres_missing() is not None:
        pytest.skip(str(postgres_missing()))

    def check(url: str) -> None:
        a, b = open_storage(url), open_storage(url)
        try:
            a.owner, a.ttl, b.owner, b.ttl = "a", 0.3, "b", 5.0
            assert 1 == a.acquire("t1", "http://a")
            assert b.acquire("t1", "http://b") is None  # a holds it
            a.commit([("t1", '{"by": "a"}', [(1, "first")], [])])
            deadline = time.monotonic() + 20  # a stalls past its lease: b takes the table once it expires
            while (epoch := b.acquire("t1", "http://b")) is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert 2 == epoch
            b.commit([("t1", '{"by": "b"}', [(2, "second")], [])])
            with pytest.raises(LeaseLost, match="t1 is served by another process"):
                a.commit([("t1", '{"by": "stale a"}', [(3, "stale")], [])])
            assert '{"by": "b"}' == b.room("t1")
            assert [(1, "first"), (2, "second")] == b.hands("t1")
            assert ["t1"] == a.renew()  # a finds out and lets the table go
            assert ("b", "http://b", 2) == b.lease("t1")[:3]
        finally:
            a.close()
            b.close()

    if backend == "sqlite":
        check(f"sqlite:///{tmp_path / 'leases.db'}")
    else:
        with throwaway_postgres() as url:
            check(url)


def test_a_table_read_back_after_its_lease_was_lost_is_not_served_again(tmp_path: Path) -> None:
    """A write that fails for another reason than the fence (PostgreSQL ended the session of a process
    stopped inside the write) reads its table back. If the process lost the lease meanwhile (another
    took the table over while it was stopped, and its lease round let the table go), the table read
    back is not served here again: it stays with the process that holds its lease."""
    url = f"sqlite:///{tmp_path / 'h.db'}"
    seed = open_storage(url)
    seed.commit([("t1", json.dumps(Room("t1", TableConfig(seats=2)).to_dict()), [], [])])
    other = open_storage(url)
    other.owner, other.ttl = "b", 30.0

    async def scenario() -> None:
        hub = Hub(url, ADMIN, cluster=Cluster("http://127.0.0.1:9", lease_seconds=0.3))
        await hub.start()
        try:
            assert await hub.take("t1")
            assert "t1" in hub.registry.rooms
            time.sleep(0.5)  # the event loop stalls past the lease (as under SIGSTOP)
            assert 2 == other.acquire("t1", "http://b")  # and another process takes the table over
            deadline = time.monotonic() + 5
            while "t1" in hub.registry.rooms and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # the lease round finds the lease gone and lets the table go
            assert "t1" not in hub.registry.rooms
            await hub._reload("t1")  # what a failed write does next
            await asyncio.sleep(0.5)  # some lease rounds later
            assert "t1" not in hub.registry.rooms
            assert ("b", "http://b", 2) == (other.lease("t1") or ())[:3]
        finally:
            await hub.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        seed.close()
        other.close()


@needs_postgres
def test_a_stalled_owner_that_wakes_after_losing_its_table_does_not_write_for_it() -> None:
    """SIGSTOP the process serving a table past its lease; the other takes the table over and plays
    an action; an action waiting at the stalled process when it wakes is not stored."""
    with cluster(2) as (url, (a, b)):
        table = a.table(seats=2, action_seconds=30)
        tokens = [a.join(table, name, 200)[1] for name in ("ann", "bob")]
        first = state_of(a.ws, tokens[0])
        actor = first["actor"]
        assert actor is not None
        with connect(f"{a.ws}/ws?token={tokens[actor]}", open_timeout=5) as stale:  # before the stall
            state = json.loads(stale.recv(timeout=5))
            assert a.process is not None
            os.kill(a.process.pid, signal.SIGSTOP)
            deadline = time.monotonic() + LEASE + 10  # once a's lease has run out, b takes the table over
            while not (
                b.http("GET", f"/api/tables/{table}/ledger", token=ADMIN)[0] == 200 and [table] == serving(b)
            ):
                assert time.monotonic() < deadline, "b did not take the table over"
                time.sleep(0.1)
            with connect(f"{b.ws}/ws?token={tokens[actor]}", open_timeout=5) as ws:
                now = json.loads(ws.recv(timeout=5))
                ws.send(json.dumps({"type": "act", "hand": now["hand"], "action": "call"}))
                after_b = json.loads(ws.recv(timeout=5))
            assert after_b["steps"] == now["steps"] + 1
            # An action for the state a last had, sent while a is stopped, read when it wakes.
            stale.send(json.dumps({"type": "act", "hand": state["hand"], "action": "call"}))
            os.kill(a.process.pid, signal.SIGCONT)
            with pytest.raises(Exception):  # noqa: B017  (an error message, then the close; or the close)
                while True:
                    message = json.loads(stale.recv(timeout=5))
                    assert message["type"] != "state" or message["steps"] <= state["steps"], message
        woke = time.monotonic()
        while table in serving(a) and time.monotonic() < woke + 20:  # a finds its lease gone
            time.sleep(0.05)
        assert table not in serving(a)
        stored = open_storage(url)
        try:
            text = stored.room(table)
            assert text is not None
            room = Room.from_dict(json.loads(text), time.monotonic())
        finally:
            stored.close()
        hand = room.table.hand
        assert hand is not None
        assert (after_b["hand"], after_b["steps"]) == (room.number, len(hand.history))
        assert after_b["steps"] == state_of(b.ws, tokens[0])["steps"]
        net, on_table = b.chips_conserved(table)
        assert net == on_table


def test_serve_refuses_a_lease_that_is_not_positive(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from holdem.cli import main

    assert 2 == main(["serve", "--cluster", "--lease", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert "--lease must be above 0 seconds, got 0.0" in capsys.readouterr().err


@needs_postgres
def test_a_process_that_stops_cleanly_hands_its_tables_over_at_once() -> None:
    """With a lease of a minute, a table whose process stopped cleanly (SIGTERM) is served by the
    other at once: its lease was released, not left to expire."""
    with cluster(2, lease=60.0) as (_, (a, b)):
        table = a.table(seats=2)
        token = a.join(table, "ann", 100)[1]
        assert [table] == serving(a)
        a.stop()  # SIGTERM: the lease is released
        started = time.monotonic()
        assert "ann" == state_of(b.ws, token)["seats"][0]["name"]
        assert time.monotonic() - started < 30  # far less than the lease: it did not expire
        assert [table] == serving(b)


@needs_postgres
@needs_nginx
def test_a_tournament_through_nginx_plays_on_when_the_process_serving_it_is_killed() -> None:
    """A tournament and all its tables are served by the process holding the tournament's lease;
    entries and players reach it through nginx; when it is killed, the other process takes the
    tournament over with every table and the players finish it."""
    structure = {
        "starting_stack": 500,
        "levels": [
            {"small_blind": 5, "big_blind": 10, "duration": 0.05},
            {"small_blind": 25, "big_blind": 50, "duration": 0.05},
        ],
    }
    with cluster(2) as (_, servers), nginx([server.port for server in servers]) as port:
        lb = Through(port)
        settings = {"structure": structure, "seats": 3, "entrants": 6, "buy_in": 10}
        status, made = lb.http("POST", "/api/tournaments", settings, ADMIN)
        assert 200 == status, made
        tournament = made["id"]
        tokens = []
        for k in range(6):
            status, entry = lb.http("POST", f"/api/tournaments/{tournament}/entries", {"name": f"e{k}"})
            assert 200 == status, entry
            tokens.append(entry["token"])

        def state() -> dict[str, Any]:
            """The tournament's summary (after the kill: once a process serves it again)."""
            deadline = time.monotonic() + LEASE + 10
            while True:
                status, answer = lb.http("GET", f"/api/tournaments/{tournament}")
                if status == 200 or time.monotonic() > deadline:
                    assert 200 == status, answer
                    return dict(answer)
                time.sleep(0.2)

        tables = state()["tables"]
        (owner,) = [s for s in servers if set(tables) <= set(serving(s))]
        play_bots(lb, tokens, hands=10**6, seconds=20, until=lambda runs: state()["left"] <= 4)
        owner.kill()
        deadline = time.monotonic() + LEASE + 60
        while state()["status"] != "finished" and time.monotonic() < deadline:
            play_bots(lb, tokens, hands=10**6, seconds=3, until=lambda runs: state()["status"] == "finished")
        end = state()
        assert "finished" == end["status"]
        assert sorted(r["name"] for r in end["results"]) == [f"e{k}" for k in range(6)]
        assert 60 == sum(r["prize"] for r in end["results"])
        for table in tables:  # the broken ones too, read through the new owner
            check_hands(lb.hands(table))


async def _chatty(
    base: str, token: str, stop: asyncio.Event, heard_from: dict[str, tuple[float, int]]
) -> None:
    """A player who asks for the state every second (as the browser does during a hand), checks or
    calls on its turn, and gives its connection up after `SILENCE` seconds without a message."""
    import websockets

    from holdem.server import SILENCE

    while not stop.is_set():
        try:
            async with websockets.connect(
                f"{base}/ws?token={token}&alive=1", open_timeout=10, close_timeout=1
            ) as ws:
                heard = asked = time.monotonic()
                while not stop.is_set():
                    if time.monotonic() - asked >= 1.0:
                        await ws.send(json.dumps({"type": "state"}))
                        asked = time.monotonic()
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                    except TimeoutError:
                        if time.monotonic() - heard > SILENCE:
                            break  # a frozen server: connect again through the balancer
                        continue
                    heard = time.monotonic()
                    if message["type"] != "state":
                        continue
                    heard_from[token] = (time.monotonic(), message["hand"])
                    if message["actor"] == message["seat"] and message["legal"]:
                        action = "check" if message["legal"]["check"] else "call"
                        await ws.send(json.dumps({"type": "act", "hand": message["hand"],
                                                  "steps": message["steps"], "action": action}))  # fmt: skip
        except (ConnectionClosed, OSError):
            await asyncio.sleep(0.2)


@needs_postgres
@needs_nginx
def test_clients_that_keep_talking_to_a_frozen_process_play_on_at_the_other_within_the_lease_and_5_s(
    tmp_path: Path,
) -> None:
    """SIGSTOP the process serving a table while two players ask for the state every second (each
    message restarts nginx's read timeout, so nginx never cuts them) and a `holdem join` bot plays:
    each hears no `alive`, gives its connection up and reconnects through nginx to the process that
    takes the table over, and plays on there within the lease plus 5 s; nobody is clocked out or sat
    out, and the frozen process logs no exception when it wakes."""
    from holdem.server.join import run_bot

    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with throwaway_postgres() as url:
        servers = [ProcessServer(url, args=("--cluster", "--lease", str(LEASE)), log=log) for log in logs]
        try:
            for server in servers:
                server.start()
            with nginx([server.port for server in servers]) as port:
                lb = Through(port)
                table = lb.table(seats=3, action_seconds=20, time_bank_seconds=20)
                tokens = [lb.join(table, name, 200)[1] for name in ("ann", "bob")]
                heard_from: dict[str, tuple[float, int]] = {}
                stop = threading.Event()

                def on_decision(number: int, view: Any, action: Any) -> None:
                    heard_from["bot"] = (time.monotonic(), number)

                async def clients() -> None:
                    stopped = asyncio.Event()
                    tasks = [
                        asyncio.create_task(_chatty(lb.ws, token, stopped, heard_from)) for token in tokens
                    ]
                    bot = asyncio.create_task(
                        run_bot(
                            lb.base,
                            table,
                            "calling-station",
                            name="cs",
                            stop=stopped,
                            on_decision=on_decision,
                        )
                    )
                    while not stop.is_set():
                        await asyncio.sleep(0.05)
                    stopped.set()
                    await asyncio.gather(*tasks, bot)

                runner = threading.Thread(target=asyncio.run, args=(clients(),))
                runner.start()
                try:
                    deadline = time.monotonic() + 30
                    while (
                        time.monotonic() < deadline
                        and min((h for _, h in heard_from.values()), default=0) < 3
                    ):
                        time.sleep(0.1)
                    assert 3 == len(heard_from), heard_from
                    (victim,) = [server for server in servers if table in serving(server)]
                    assert victim.process is not None
                    frozen_at = max(hand for _, hand in heard_from.values())
                    os.kill(victim.process.pid, signal.SIGSTOP)
                    stopped_at = time.monotonic()
                    try:
                        while time.monotonic() < stopped_at + LEASE + 15:  # the frozen one sends nothing
                            if all(t > stopped_at for t, _ in heard_from.values()):
                                break
                            time.sleep(0.05)
                        playing_on = max(t - stopped_at for t, _ in heard_from.values())
                        time.sleep(2)  # and they play hands there
                        moved = all(hand > frozen_at for _, hand in heard_from.values())
                    finally:
                        os.kill(victim.process.pid, signal.SIGCONT)
                    time.sleep(LEASE + 1)  # the woken process finds its lease gone
                finally:
                    stop.set()
                    runner.join(60)
                print(f"every client played on {playing_on:.1f} s after the freeze")
                assert moved and playing_on < LEASE + 5, (playing_on, frozen_at, heard_from)
                state = state_of(f"ws://127.0.0.1:{port}", tokens[0])
                assert [False, False, False] == [bool(s and s["sitting_out"]) for s in state["seats"]]
        finally:
            for server in servers:
                if server.process is not None and server.process.poll() is None:
                    os.kill(server.process.pid, signal.SIGCONT)
                server.stop()
    logged = "".join(log.read_text(errors="replace") for log in logs)
    assert "Traceback" not in logged and "KeyError" not in logged, logged[-3000:]
