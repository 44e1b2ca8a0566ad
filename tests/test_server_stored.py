"""Only what is stored is ever shown: while a change is being written, a new connection, a reconnecting
player, the lobby and every HTTP answer see the last stored state, and a change whose write never
commits is never seen by anyone (the reproduction of the issue, on SQLite and on PostgreSQL through
nginx)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from collections.abc import Callable
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
from websockets.sync.client import ClientConnection, connect

from tests.server_support import (
    ProcessServer,
    Server,
    Through,
    nginx,
    nginx_missing,
    postgres_missing,
    throwaway_postgres,
)

needs_postgres = pytest.mark.skipif(postgres_missing() is not None, reason=str(postgres_missing()))
needs_nginx = pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing()))


def states(ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """The state messages that arrive within `seconds`."""
    found, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except (TimeoutError, ConnectionClosed):
            break
        if message["type"] == "state":
            found.append(message)
    return found


def first_state(base: str, query: str, seconds: float = 20.0) -> dict[str, Any]:
    """The first state a new connection is sent (tried again while the table is being taken over)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with connect(f"{base}/ws?{query}", open_timeout=10) as ws:
                while (message := json.loads(ws.recv(timeout=10)))["type"] != "state":
                    pass
                return dict(message)
        except (ConnectionClosed, OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def a_call_while_the_write_is_held(
    server: Server, ws_base: str, hold: Callable[[str], Callable[[], None]], crash: Callable[[], None]
) -> tuple[str, list[dict[str, Any]]]:
    """Heads-up, ann and bob; `hold(table)` blocks the next write of the table and returns its
    release; the player to act calls; a spectator, the other player reconnecting and the lobby look;
    then `crash()` kills the serving process and the write is released. The table and every state
    seen meanwhile."""
    table = server.table(seats=2, min_buy_in=200, max_buy_in=200)
    tokens = dict(server.join(table, name, 200) for name in ("ann", "bob"))
    start = first_state(ws_base, f"table={table}")
    assert (1, 0) == (start["hand"], start["steps"])
    actor, waiter = start["actor"], 1 - start["actor"]
    seen: list[dict[str, Any]] = []
    release = hold(table)
    released = False
    try:
        with connect(f"{ws_base}/ws?token={tokens[actor]}", open_timeout=10) as player:
            seen += states(player, 0.5)
            player.send(json.dumps({"type": "act", "hand": 1, "action": "call"}))
            assert [] == states(player, 1.0)  # the call is being stored: no answer yet
            for query in (f"table={table}", f"token={tokens[waiter]}"):  # a spectator; bob reconnects
                with connect(f"{ws_base}/ws?{query}", open_timeout=10) as reader:
                    seen += states(reader, 1.5)
            status, lobby = server.http("GET", "/api/tables")
            assert 200 == status
            seen += [{"hand": t["hand"], "steps": 0, "lobby": t} for t in lobby["tables"] if t["id"] == table]
            crash()
        release()
        released = True
    finally:
        if not released:
            release()
    return table, seen


def check_nothing_unstored_was_seen(seen: list[dict[str, Any]], after: dict[str, Any]) -> None:
    assert (1, 0, 3) == (after["hand"], after["steps"], after["pot"])  # the call never happened
    for state in seen:
        assert (1, 0) == (state["hand"], state["steps"]), state
        assert "lobby" in state or ["call"] != [e["action"] for e in state["log"] if e["kind"] == "action"]


def test_a_change_being_stored_is_shown_to_nobody_on_sqlite(tmp_path: Path) -> None:
    """Another connection holds SQLite's write lock: the call waits in its write; a spectator and the
    other player reconnecting see the hand before it; the server is killed and restarted: the call
    never happened, and nobody saw it."""
    path = tmp_path / "h.db"
    server = ProcessServer(f"sqlite:///{path}")

    def hold(table: str) -> Callable[[], None]:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("BEGIN IMMEDIATE")

        def release() -> None:
            db.execute("ROLLBACK")
            db.close()

        return release

    try:
        server.start()
        table, seen = a_call_while_the_write_is_held(server, server.ws, hold, server.kill)
        server.start()
        check_nothing_unstored_was_seen(seen, first_state(server.ws, f"table={table}"))
    finally:
        server.stop()


@needs_postgres
@needs_nginx
def test_a_change_being_stored_is_shown_to_nobody_on_postgresql_through_nginx() -> None:
    """The issue's reproduction: two `--cluster` processes behind nginx; in another session
    ``SELECT ... FOR UPDATE`` holds the table's row; the call waits; a spectator and the other player
    reconnecting through nginx see the hand before it; kill -9 of the serving process, ROLLBACK: the
    process that takes the table over resumes before the call, and nobody saw it."""
    import psycopg

    with throwaway_postgres() as url:
        servers = [ProcessServer(url, args=("--cluster", "--lease", "2")) for _ in range(2)]
        try:
            for server in servers:
                server.start()
            with nginx([server.port for server in servers]) as port:
                lb = Through(port)

                def hold(table: str) -> Callable[[], None]:
                    db = psycopg.connect(url)
                    db.execute("SELECT id FROM rooms WHERE id = %s FOR UPDATE", (table,))

                    def release() -> None:
                        db.rollback()
                        db.close()

                    return release

                def kill_the_owner() -> None:
                    for server in servers:
                        _, health = server.http("GET", "/api/health")
                        if server.process is not None and health["serving"]:
                            os.kill(server.process.pid, signal.SIGKILL)
                            server.process.wait(10)

                table, seen = a_call_while_the_write_is_held(lb, lb.ws, hold, kill_the_owner)
                check_nothing_unstored_was_seen(seen, first_state(lb.ws, f"table={table}"))
        finally:
            for server in servers:
                server.stop()


def test_a_database_from_before_persons_were_kept_opens_and_its_rows_settle_by_name(tmp_path: Path) -> None:
    """An upgrade from 0.1: its ledger table has no person column; opening it adds one, empty."""
    from holdem.server.change import LedgerRow
    from holdem.server.storage import open_storage

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE ledger (room TEXT NOT NULL, seq BIGINT NOT NULL, hand BIGINT NOT NULL, seat INTEGER"
        " NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, chips BIGINT NOT NULL, PRIMARY KEY (room, seq))"
    )
    old.execute("INSERT INTO ledger VALUES ('t1', 1, 0, 0, 'ann', 'buy_in', 100)")
    old.commit()
    old.close()
    storage = open_storage(f"sqlite:///{path}")
    try:
        storage.commit([("t1", "{}", [], [LedgerRow(2, 4, 0, "ann", "cash_out", 90, "d" * 64)])])
        rows = storage.ledger("t1")
    finally:
        storage.close()
    assert [
        LedgerRow(1, 0, 0, "ann", "buy_in", 100, ""),
        LedgerRow(2, 4, 0, "ann", "cash_out", 90, "d" * 64),
    ] == rows
