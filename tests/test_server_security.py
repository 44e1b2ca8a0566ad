"""The server under attack: no card leaks over hundreds of hands, and bad messages change nothing."""

from __future__ import annotations

import json
import re
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

from websockets.sync.client import connect

from holdem.formats import phh
from holdem.server.client import SeatRun
from tests.server_support import ADMIN, ThreadServer, play_bots

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def cards_in(value: Any) -> set[str]:
    """Every card-like string anywhere in a message."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values()), *(cards_in(k) for k in value))
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value))
    return set()


def visible(document: dict[str, Any], seat: int | None) -> set[str]:
    """What `seat` (None: a spectator) may see of a finished hand: its own hole cards, the board,
    and hands shown down."""
    seen: set[str] = set()
    players = [s - 1 for s in document["seats"]]
    for line in document["actions"]:
        parts = line.split()
        if parts[:2] == ["d", "db"]:
            seen |= {parts[2][i : i + 2] for i in range(0, len(parts[2]), 2)}
        elif parts[:2] == ["d", "dh"] and players[int(parts[2][1:]) - 1] == seat:
            seen |= {parts[3][i : i + 2] for i in range(0, len(parts[3]), 2)}
        elif len(parts) == 3 and parts[1] == "sm":
            seen |= {parts[2][i : i + 2] for i in range(0, len(parts[2]), 2)}
    return seen


def test_no_message_to_a_seat_or_a_spectator_holds_a_card_it_may_not_see(server: ThreadServer) -> None:
    table = server.table(seats=4, action_seconds=30)
    tokens = [server.join(table, name, 200)[1] for name in ("ann", "bob", "cid", "dee")]
    spectator: list[dict[str, Any]] = []
    with connect(f"{server.ws}/ws?table={table}") as watch:
        runs = play_bots(server, tokens, hands=200, record=True, rebuy=200, seconds=120)
        while True:
            try:
                spectator.append(json.loads(watch.recv(timeout=0.5)))
            except TimeoutError:
                break
    documents = {hand["number"]: phh.loads(hand["phh"])[0] for hand in server.hands(table)}
    assert len(documents) >= 200
    checked = 0
    for seat, messages in [*enumerate(m.messages for m in runs), (None, spectator)]:
        assert messages
        for message in messages:
            if message["type"] != "state":
                continue
            numbers = [message["hand"]] + ([message["last_hand"]["number"]] if message["last_hand"] else [])
            allowed = set().union(*(visible(documents[n], seat) for n in numbers if n in documents))
            if message["hand"] not in documents:  # the hand still in progress when play stopped
                allowed |= set(message["board"]) | set(message["hole"])
            assert cards_in(message) <= allowed, (seat, message["hand"])
            checked += 1
    assert checked > 2000
    shown_somewhere = any(message["last_hand"] and message["last_hand"]["shown"] for message in spectator)
    assert shown_somewhere  # the check saw showdowns, not only folded hands


def state_of(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] == "state":
            return message


def error_of(ws: Any) -> str:
    """The answer to a refused message: an error (after any state broadcast meanwhile, such as the
    other player's connecting marking them present)."""
    message = json.loads(ws.recv(timeout=5))
    while message["type"] == "state":
        message = json.loads(ws.recv(timeout=5))
    assert "error" == message["type"], message
    return str(message["message"])


def test_garbage_oversized_unknown_and_mistyped_messages_get_errors_and_change_nothing(
    server: ThreadServer,
) -> None:
    table = server.table(seats=2)
    (_, ann), (_, bob) = server.join(table, "ann", 100), server.join(table, "bob", 100)
    with connect(f"{server.ws}/ws?token={ann}") as a, connect(f"{server.ws}/ws?token={bob}") as b:
        state = state_of(a)
        state_of(b)
        actor, waiter = (a, b) if state["actor"] == state["seat"] else (b, a)
        hand = state["hand"]
        cases = {
            "{not json": "malformed JSON",
            "[1, 2]": "a message is a JSON object",
            json.dumps({"type": "shuffle"}): "unknown message type",
            json.dumps({"type": "act", "hand": hand, "action": "bet"}): "action must be",
            json.dumps({"type": "act", "hand": hand, "action": ["call"]}): "action must be",
            json.dumps({"type": "act", "hand": hand, "action": {"kind": "call"}}): "action must be",
            json.dumps(
                {"type": "act", "hand": hand, "action": "raise", "amount": "lots"}
            ): "raise needs amount",
            json.dumps({"type": "act", "hand": hand, "action": "raise", "amount": 3.5}): "raise needs amount",
            json.dumps({"type": "act", "hand": hand, "action": "raise", "amount": 10**9}): "",
            json.dumps({"type": "act", "hand": hand - 1, "action": "call"}): "stale action",
            json.dumps({"type": "act", "hand": str(hand), "action": "call"}): "stale action",
            json.dumps({"type": "act", "action": "call", "pad": "x" * 70_000}): "over 64 KiB",
            "[" * 100_000: "over 64 KiB",
            b"\xff\xfe": "malformed JSON",
        }
        for text, expected in cases.items():
            actor.send(text)
            assert expected in error_of(actor), text
        waiter.send(json.dumps({"type": "act", "hand": hand, "action": "call"}))
        assert "not your turn" in error_of(waiter)
        actor.send(json.dumps({"type": "act", "hand": hand, "action": "call"}))
        after = state_of(actor)
    assert (after["hand"], after["steps"]) == (hand, 1)  # only the good action was applied


def test_a_token_acts_only_for_its_own_seat_at_its_own_table(server: ThreadServer) -> None:
    one, two = server.table(seats=2), server.table(seats=2)
    (_, ann), (_, bob) = server.join(one, "ann", 100), server.join(one, "bob", 100)
    server.join(two, "cid", 100)
    _, dee = server.join(two, "dee", 100)
    with connect(f"{server.ws}/ws?token={dee}") as d:
        other = state_of(d)
        assert other["table"] == two
        d.send(json.dumps({"type": "act", "hand": other["hand"], "action": "fold"}))
        d.recv(timeout=5)  # dee's own table: a state if it was her turn, else an error
    with connect(f"{server.ws}/ws?token={ann}") as a:
        state = state_of(a)
        assert state["table"] == one and state["seat"] == 0
    for forged in (ann[:-1], ann + "A", "", "x" * 43, bob.upper()):
        with connect(f"{server.ws}/ws?token={forged}") as ws:
            assert "unknown token" in error_of(ws)
    assert 403 == server.http("DELETE", f"/api/tables/{two}/players/1", token=ann)[0]
    assert 403 == server.http("DELETE", f"/api/tables/{one}/players/1", token=ann)[0]
    with connect(f"{server.ws}/ws?table={one}") as watch:
        spectator = state_of(watch)
        assert [] == spectator["hole"] and spectator["seat"] is None
        watch.send(json.dumps({"type": "act", "hand": spectator["hand"], "action": "fold"}))
        assert "spectators cannot act" in error_of(watch)


def test_a_flood_is_rate_limited_and_other_players_are_unaffected(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}", rate=20) as server:
        table = server.table(seats=3)
        tokens = [server.join(table, name, 100)[1] for name in ("ann", "bob", "cid")]
        with connect(f"{server.ws}/ws?token={tokens[0]}") as flood:
            state_of(flood)
            for _ in range(200):
                flood.send(json.dumps({"type": "ping"}))
            answers = []
            while len(answers) < 200:
                answers.append(json.loads(flood.recv(timeout=5)))
            limited = [m for m in answers if m["type"] == "error" and "rate limit" in m["message"]]
            assert 100 <= len(limited) < 200 and any(m["type"] == "pong" for m in answers)
            runs: list[SeatRun] = play_bots(server, tokens[1:], hands=0, seconds=1.5)
        assert all(run.last is not None for run in runs) and [] == [e for run in runs for e in run.errors]


def test_a_token_whose_seat_was_left_sees_and_does_nothing_more(server: ThreadServer) -> None:
    from websockets.exceptions import ConnectionClosed

    table = server.table(seats=3)
    seat, ann = server.join(table, "ann", 100)
    with connect(f"{server.ws}/ws?token={ann}") as old:
        assert "ann" == state_of(old)["seats"][seat]["name"]
        assert 200 == server.http("DELETE", f"/api/tables/{table}/players/{seat}", token=ann)[0]
        assert seat == server.join(table, "eve", 100, seat=seat)[0]
        with pytest.raises(ConnectionClosed):  # closed by the server: nothing of eve's reaches ann
            while True:
                message = json.loads(old.recv(timeout=5))
                assert "eve" not in json.dumps(message)
                old.send(json.dumps({"type": "sit_out"}))
    listed = server.http("GET", "/api/tables")[1]["tables"][0]
    assert [{"seat": seat, "name": "eve", "stack": 100}] == listed["players"]


def test_hand_numbers_beyond_64_bits_are_a_bad_request(server: ThreadServer) -> None:
    """`?after=` past what the database holds is a 400 naming the range, not a server error."""
    table = server.table(seats=2)
    status, answer = server.http("GET", f"/api/tables/{table}/hands?after={2**70}", token=ADMIN)
    assert (400, True) == (status, "after must be a hand number from 0" in answer["error"])
    status, answer = server.http("GET", f"/api/tables/{table}/hands?after=-1", token=ADMIN)
    assert 400 == status


def test_tables_with_stakes_no_join_could_meet_are_refused_when_created(server: ThreadServer) -> None:
    """Blinds or buy-ins of 10**30 were accepted, and then every join failed: bounded up front."""
    for settings in ({"big_blind": 10**30, "min_buy_in": 10**30, "max_buy_in": 10**30},
                     {"max_buy_in": 10**30}):  # fmt: skip
        status, answer = server.http("POST", "/api/tables", settings, ADMIN)
        assert (400, True) == (status, "from 0 to 1,000,000,000,000" in answer["error"]), answer


def test_a_generated_admin_token_is_256_bits_and_said_to_change(tmp_path: Path) -> None:
    """Without --admin-token the server prints a new token as strong as a seat's (32 random bytes),
    and --help says it changes at every restart unless given."""
    import os
    import subprocess
    import sys

    from tests.server_support import free_port

    env = {k: v for k, v in os.environ.items() if k != "HOLDEM_ADMIN_TOKEN"}
    command = [
        sys.executable,
        "-m",
        "holdem",
        "serve",
        "--port",
        str(free_port()),
        "--db",
        f"sqlite:///{tmp_path / 's.db'}",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
    finally:
        process.kill()
        process.wait(timeout=10)
    assert first.startswith("admin token: ") and 43 <= len(first.split(": ")[1].strip())
    help_text = subprocess.run([*command[:4], "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "changes at every restart unless given" in " ".join(help_text.split())
