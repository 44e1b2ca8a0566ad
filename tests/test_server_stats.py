"""The players' statistics at a served table (`GET /api/tables/{id}/stats`), on a real uvicorn server:
the host's and the admin's, everyone's once the host shows them, and the same numbers as
`holdem.stats` gives for the stored hands read as PHH and as PokerStars text."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from holdem.formats import phh
from holdem.formats.pokerstars.write import write_hand
from holdem.server import housebots
from holdem.stats import Collection
from holdem.stats.sources import Document, documents
from tests.server_support import ADMIN, ThreadServer

HANDS = 12


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadServer]:
    monkeypatch.setattr(housebots, "PAUSE", 0.0)  # the host's bots act at once: hands in seconds
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def host(server: ThreadServer, game: dict[str, Any], **command: Any) -> tuple[int, Any]:
    return server.http("POST", f"/api/tables/{game['id']}/host", command, game["host_token"])


def played_game(server: ThreadServer) -> dict[str, Any]:
    """A home game where the host's three bots have played `HANDS` hands or more, then paused."""
    status, game = server.http("POST", "/api/games", {"seats": 6})
    assert 200 == status, game
    for bot in ("calling-station", "equity", "folder"):
        assert 200 == host(server, game, command="bot", bot=bot)[0]
    deadline = time.monotonic() + 60
    while len(server.http("GET", f"/api/tables/{game['id']}/hands", token=ADMIN)[1]["hands"]) < HANDS:
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.2)
    assert 200 == host(server, game, command="pause")[0]
    return dict(game)


def test_a_tables_statistics_are_the_hosts_until_shown_and_match_the_stored_hands(
    server: ThreadServer,
) -> None:
    """The host and the admin read them at once; a player is refused until the host shows them,
    then everyone with the link reads the numbers `holdem.stats` counts from the stored hands."""
    game = played_game(server)
    path = f"/api/tables/{game['id']}/stats"
    rows = server.http("GET", f"/api/tables/{game['id']}/hands", token=ADMIN)[1]["hands"]
    expected = Collection()
    for row in rows:
        (doc,) = phh.loads(row["phh"])
        assert expected.add_document(doc)
    wanted = {"table": game["id"], "hands": len(rows), "players": [p.to_dict() for p in expected.players()]}
    assert (200, wanted) == server.http("GET", path, token=game["host_token"])
    assert (200, wanted) == server.http("GET", path, token=ADMIN)
    assert 401 == server.http("GET", path)[0]
    status, asked = server.http("POST", f"/api/tables/{game['id']}/players", {"name": "ann", "buy_in": 100})
    assert 200 == status and 200 == host(server, game, command="approve", seat=asked["seat"])[0]
    status, refused = server.http("GET", path, token=asked["token"])
    assert (403, "the host has not shown the players' statistics at this table") == (status, refused["error"])
    assert 401 == server.http("POST", f"/api/tables/{game['id']}/host", {"command": "stats", "on": True},
                              asked["token"])[0]  # fmt: skip
    assert 400 == host(server, game, command="stats", on="yes")[0]
    assert 200 == host(server, game, command="stats", on=True)[0]
    assert (200, wanted) == server.http("GET", path, token=asked["token"])
    assert (200, wanted) == server.http("GET", path)


def test_a_tables_statistics_by_position_and_for_one_player(server: ThreadServer) -> None:
    """``?by=position`` adds the positions, ``?player=`` keeps one player; a wrong one is named."""
    game = played_game(server)
    path = f"/api/tables/{game['id']}/stats"
    token = game["host_token"]
    status, one = server.http("GET", f"{path}?player=equity%20bot&by=position", token=token)
    assert 200 == status and {"equity bot"} == {p["player"] for p in one["players"]}
    positions = [p["position"] for p in one["players"]]
    assert None is positions[0] and {"SB", "BB", "BTN"} >= set(positions[1:]) and len(positions) > 2
    assert one["players"][0]["hands"] == sum(p["hands"] for p in one["players"][1:])
    assert 404 == server.http("GET", f"{path}?player=nobody", token=token)[0]
    assert 400 == server.http("GET", f"{path}?by=seat", token=token)[0]


def test_the_stored_hands_count_the_same_as_phh_and_as_pokerstars_text(
    server: ThreadServer, tmp_path: Path
) -> None:
    """A server's stored hands, the same hands as PHH files and as PokerStars text: one set of numbers."""
    game = played_game(server)
    rows = server.http("GET", f"/api/tables/{game['id']}/hands", token=ADMIN)[1]["hands"]
    docs = [phh.loads(row["phh"])[0] for row in rows]
    (tmp_path / "hands.phhs").write_text(phh.dumps(docs))
    (tmp_path / "hands.txt").write_text("\n\n".join(write_hand(doc, k + 1) for k, doc in enumerate(docs)))
    served = server.http("GET", f"/api/tables/{game['id']}/stats", token=ADMIN)[1]["players"]
    for name in ("hands.phhs", "hands.txt"):
        collection = Collection()
        items = list(documents([tmp_path / name]))
        assert all(isinstance(item, Document) for item in items) and len(items) == len(rows)
        collection.add_all(items)
        assert served == [p.to_dict() for p in collection.players()], name


def test_a_tables_statistics_count_new_hands_only_and_agree_with_a_recount(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked again after more hands, the counts kept go on from the last hand counted, a page of
    stored hands at a time, and agree with counting every stored hand afresh."""
    from holdem.server import tablestats

    monkeypatch.setattr(tablestats, "_PAGE", 5)  # several pages of stored hands each time
    game = played_game(server)
    path = f"/api/tables/{game['id']}/stats"
    first = server.http("GET", path, token=game["host_token"])[1]
    assert 200 == host(server, game, command="resume")[0]
    deadline = time.monotonic() + 60
    while (
        len(server.http("GET", f"/api/tables/{game['id']}/hands", token=ADMIN)[1]["hands"])
        < 2 * first["hands"]
    ):
        assert time.monotonic() < deadline, "the bots did not play on"
        time.sleep(0.2)
    assert 200 == host(server, game, command="pause")[0]
    again = server.http("GET", path, token=game["host_token"])[1]
    fresh = Collection()
    for row in server.http("GET", f"/api/tables/{game['id']}/hands", token=ADMIN)[1]["hands"]:
        assert fresh.add_document(phh.loads(row["phh"])[0])
    assert again["hands"] == fresh.hands > first["hands"]
    assert again["players"] == [p.to_dict() for p in fresh.players()]


def test_a_flood_of_statistics_requests_and_strangers(server: ThreadServer) -> None:
    """Sixty requests at once all get the same answer; another table's host and a made-up token are
    refused while the statistics are the host's."""
    from concurrent.futures import ThreadPoolExecutor

    game = played_game(server)
    other = server.http("POST", "/api/games", {"seats": 6})[1]
    path = f"/api/tables/{game['id']}/stats"
    assert 401 == server.http("GET", path, token=other["host_token"])[0]
    assert 401 == server.http("GET", path, token=f"{game['id']}.{'0' * 64}")[0]
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda _: server.http("GET", path, token=game["host_token"]), range(60)))
    assert {200} == {status for status, _ in answers}
    assert all(body == answers[0][1] for _, body in answers)
