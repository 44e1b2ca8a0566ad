"""A home game over HTTP and WebSockets on a real uvicorn server: who may make a game, command it, read
its settle-up and download its hands; chat and show over the socket; away players; a host's bot
playing its hands."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
from websockets.sync.client import connect

from holdem.server import room as room_module
from tests.server_support import ADMIN, ThreadServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def new_game(server: ThreadServer, **settings: Any) -> dict[str, Any]:
    status, game = server.http("POST", "/api/games", {"seats": 6} | settings)
    assert 200 == status, game
    return game


def sit(server: ThreadServer, game: dict[str, Any], name: str, **extra: Any) -> str:
    """Ask for a seat and have the host approve it; the player's token."""
    status, asked = server.http(
        "POST", f"/api/tables/{game['id']}/players", {"name": name, "buy_in": 100} | extra
    )
    assert 200 == status and asked["pending"], asked
    status, done = server.http(
        "POST",
        f"/api/tables/{game['id']}/host",
        {"command": "approve", "seat": asked["seat"]},
        game["host_token"],
    )
    assert 200 == status, done
    return str(asked["token"])


def state_of(ws: Any, until: Any = lambda message: True, seconds: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=seconds))
        if message["type"] == "state" and until(message):
            return dict(message)
    raise AssertionError("no such state")


def error_of(ws: Any) -> str:
    while (message := json.loads(ws.recv(timeout=5)))["type"] == "state":
        pass
    assert "error" == message["type"], message
    return str(message["message"])


def test_anyone_makes_a_game_and_only_its_host_commands_it(server: ThreadServer) -> None:
    first, second = new_game(server), new_game(server)
    assert first["player_link"] == f"/?table={first['id']}" and first["host_token"] in first["host_link"]
    player = sit(server, first, "ann")
    pause = {"command": "pause"}
    for token, status in [(None, 401), (player, 401), (second["host_token"], 401), ("x", 401)]:
        answer = server.http("POST", f"/api/tables/{first['id']}/host", pause, token)
        assert status == answer[0], answer
    assert 200 == server.http("POST", f"/api/tables/{first['id']}/host", pause, first["host_token"])[0]
    assert 200 == server.http("POST", f"/api/tables/{first['id']}/host", {"command": "resume"}, ADMIN)[0]
    status, answer = server.http(
        "POST", f"/api/tables/{first['id']}/host", {"command": "pause", "x": 1}, "bad"
    )
    assert 401 == status and "host token" in answer["error"]
    status, answer = server.http("POST", "/api/tables", {"seats": 6}, first["host_token"])
    assert 401 == status  # a host token is no admin token


def test_the_settle_up_of_a_home_game_is_for_anyone_with_the_link_and_another_tables_for_the_admin(
    server: ThreadServer,
) -> None:
    game = new_game(server)
    sit(server, game, "ann")
    sit(server, game, "bob")
    status, settled = server.http("GET", f"/api/tables/{game['id']}/settle")
    assert 200 == status and {"ann", "bob"} == {p["name"] for p in settled["players"]}
    table = server.table(seats=2)
    assert 401 == server.http("GET", f"/api/tables/{table}/settle")[0]
    assert 200 == server.http("GET", f"/api/tables/{table}/settle", token=ADMIN)[0]


def test_chat_and_show_over_the_socket_and_spectators_only_read(server: ThreadServer) -> None:
    game = new_game(server)
    ann, bob = sit(server, game, "ann"), sit(server, game, "bob")
    with (
        connect(f"{server.ws}/ws?token={ann}") as a,
        connect(f"{server.ws}/ws?token={bob}") as b,
        connect(f"{server.ws}/ws?table={game['id']}") as watcher,
    ):
        state = state_of(a)
        watcher.send(json.dumps({"type": "chat", "text": "hi"}))
        assert "spectators cannot" in error_of(watcher)
        a.send(json.dumps({"type": "chat", "text": "<script>x</script>"}))
        said = state_of(watcher, lambda m: m["chat"])
        person = state["seats"][state["seat"]]["person"]
        line = {"n": 1, "seat": state["seat"], "name": "ann", "person": person, "text": "<script>x</script>"}
        assert [line] == said["chat"]
        actor, other = (a, b) if state["actor"] == state["seat"] else (b, a)
        actor.send(json.dumps({"type": "act", "hand": state["hand"], "action": "fold"}))
        done = state_of(watcher, lambda m: m["last_hand"] is not None)
        assert {} == done["last_hand"]["shown"]  # won without a showdown: nobody's cards shown
        other.send(json.dumps({"type": "show", "hand": done["last_hand"]["number"]}))
        shown = state_of(watcher, lambda m: m["last_hand"]["shown"])
        assert shown["chat"][-1]["text"].startswith("shows ") and 1 == len(shown["last_hand"]["shown"])


def test_a_player_who_disconnects_is_marked_away(server: ThreadServer) -> None:
    game = new_game(server)
    ann, bob = sit(server, game, "ann"), sit(server, game, "bob")
    with connect(f"{server.ws}/ws?token={ann}") as a:
        first = state_of(a)
        bob_seat = 1 - first["seat"]
        assert [bob_seat] == first["away"]
        with connect(f"{server.ws}/ws?token={bob}") as b:
            state_of(b)
            assert [] == state_of(a, lambda m: not m["away"])["away"]  # back: marked present
        assert [bob_seat] == state_of(a, lambda m: m["away"])["away"]


def test_a_player_away_on_their_turn_is_checked_or_folded_after_the_shorter_clock_and_sat_out(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a 30 s decision clock and a 60 s bank, the table waits `AWAY_SECONDS` (1 s here) on a player
    with no connection open; their bank is kept."""
    monkeypatch.setattr(room_module, "AWAY_SECONDS", 1.0)
    game = new_game(server, action_seconds=30, time_bank_seconds=60)
    ann, bob = sit(server, game, "ann"), sit(server, game, "bob")
    with connect(f"{server.ws}/ws?token={ann}") as a:
        state = state_of(a)
        bob_seat = 1 - state["seat"]
        if state["actor"] == state["seat"]:  # ann acts first: she calls, and it is bob's turn
            a.send(
                json.dumps({"type": "act", "hand": state["hand"], "steps": state["steps"], "action": "call"})
            )
        waiting = state_of(a, lambda m: m["actor"] == bob_seat and m["clock"] is not None)
        assert waiting["clock"]["seconds"] <= 1.0 and 0 == waiting["clock"]["bank"]  # the shorter clock
        started = time.monotonic()
        sat_out = state_of(a, lambda m: m["seats"][bob_seat]["sitting_out"], seconds=10)
        assert time.monotonic() - started < 5  # not the 30 s clock and the bank
        assert bob_seat in sat_out["away"]
    with connect(f"{server.ws}/ws?token={bob}") as b:
        assert 60 == state_of(b)["bank"]  # his bank was not spent


def test_a_host_seats_a_bot_that_plays_and_downloads_are_for_those_dealt_in(server: ThreadServer) -> None:
    game = new_game(server)
    ann = sit(server, game, "ann")
    status, answer = server.http(
        "POST",
        f"/api/tables/{game['id']}/host",
        {"command": "bot", "bot": "calling-station"},
        game["host_token"],
    )
    assert 200 == status, answer
    with connect(f"{server.ws}/ws?token={ann}") as a:
        state = state_of(a)
        while state["hand"] < 3:  # ann folds or checks each hand; the bot calls and checks by itself
            if state["actor"] == state["seat"] and state["legal"]:
                action = "check" if state["legal"]["check"] else "fold"
                a.send(
                    json.dumps(
                        {"type": "act", "hand": state["hand"], "steps": state["steps"], "action": action}
                    )
                )
            state = state_of(a, lambda m: (m["actor"] == m["seat"] and m["legal"]) or m["hand"] >= 3, 20)
        bot_seat = next(s for s, p in enumerate(state["seats"]) if p and p["name"] == "calling-station bot")
        assert any(
            e["kind"] == "action" and e["seat"] == bot_seat for e in state["log"] + state["last_hand"]["log"]
        )
    dan = sit(server, game, "dan")  # dealt into no hand yet
    status, listed = server.http("GET", f"/api/tables/{game['id']}/hands", token=ann)
    assert 200 == status and len(listed["hands"]) >= 2 and "phh" not in listed["hands"][0]
    number = listed["hands"][0]["number"]
    status, hand = server.http("GET", f"/api/tables/{game['id']}/hands/{number}", token=ann)
    assert (
        200 == status
        and "ann" in hand["players"]
        and hand["you"] is not None
        and "Dealt to ann" in hand["pokerstars"]
    )
    assert 403 == server.http("GET", f"/api/tables/{game['id']}/hands/{number}", token=dan)[0]
    assert 401 == server.http("GET", f"/api/tables/{game['id']}/hands/{number}")[0]
    assert 404 == server.http("GET", f"/api/tables/{game['id']}/hands/99999", token=ann)[0]
    status, host_view = server.http(
        "GET", f"/api/tables/{game['id']}/hands/{number}", token=game["host_token"]
    )
    assert 200 == status and host_view["you"] is None and "Dealt to" not in host_view["pokerstars"]


def test_holdem_join_at_a_home_game_waits_for_the_host_to_seat_the_bot(server: ThreadServer) -> None:
    """Two bots join by `holdem join`'s code and wait; the host seats them and they play; a third is
    declined and told so."""
    from holdem.errors import HoldemError
    from holdem.server.join import play_bot

    game = new_game(server)
    ident, host = game["id"], game["host_token"]
    with ThreadPoolExecutor(3) as pool:
        runs = {name: pool.submit(play_bot, server.base, ident, "calling-station", name=name, hands=2)
                for name in ("cs1", "cs2", "cs3")}  # fmt: skip
        deadline = time.monotonic() + 30
        answered: set[str] = set()
        while len(answered) < 3 and time.monotonic() < deadline:
            listed = server.http("GET", f"/api/tables/{ident}")[1]
            for asking in listed["asking"]:
                command = "decline" if asking["name"] == "cs3" else "approve"
                server.http(
                    "POST", f"/api/tables/{ident}/host", {"command": command, "seat": asking["seat"]}, host
                )
                answered.add(asking["name"])
            time.sleep(0.1)
        assert {"cs1", "cs2", "cs3"} == answered
        with pytest.raises(HoldemError, match="did not seat cs3"):
            runs["cs3"].result(timeout=30)
        for name in ("cs1", "cs2"):
            assert 2 == runs[name].result(timeout=60).hands


def test_a_home_game_is_unlisted_unless_its_host_lists_it_by_the_name_they_give(server: ThreadServer) -> None:
    private, public = new_game(server), new_game(server, name="  Friday at Hana's ", listed=True)
    listed = server.http("GET", "/api/tables")[1]["tables"]
    assert [public["id"]] == [t["id"] for t in listed]  # the link is the invitation to the other
    assert {"name": "Friday at Hana's", "listed": True, "ended": False} == listed[0]["home"]
    everything = server.http("GET", "/api/tables", token=ADMIN)[1]["tables"]
    assert {private["id"], public["id"]} == {t["id"] for t in everything}
    status, one = server.http("GET", f"/api/tables/{private['id']}")  # anyone with the link
    assert 200 == status and {"name": "", "listed": False, "ended": False} == one["home"]
    server.http("POST", f"/api/tables/{public['id']}/host", {"command": "end"}, public["host_token"])
    assert server.http("GET", "/api/tables")[1]["tables"][0]["home"]["ended"]  # marked as ended
    refused = [({"name": "x" * 41}, "up to 40"), ({"name": 3}, "name"), ({"listed": "yes"}, "listed"),
               ({"name": "a\u0007b"}, "printable"), ({"color": 1}, "color")]  # fmt: skip
    for bad, message in refused:
        status, answer = server.http("POST", "/api/games", {"seats": 6} | bad, ADMIN)  # no per-address limit
        assert 400 == status and message in answer["error"], (bad, answer)
    assert 2 == len(server.http("GET", "/api/tables", token=ADMIN)[1]["tables"])  # nothing half made
    assert 404 == server.http("GET", "/api/tables/nosuch")[0]
