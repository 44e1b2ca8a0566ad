"""The HTTP routes: tables (the lobby, a new table, joining and leaving, hands, the ledger) and
tournaments (the lobby, a new tournament, entries). Each answers JSON; a refusal is
``{"error": message}`` with its status."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from holdem.console.fields import check_object
from holdem.errors import NotFoundError, RefusedError, RequestError, SnapshotError
from holdem.server.change import Change, LedgerRow
from holdem.server.cluster import forward
from holdem.server.config import player_name, status_of, table_config
from holdem.server.connection import bearer, read_body
from holdem.server.hub import Hub
from holdem.server.messages import parse_json
from holdem.server.registry import table_summary
from holdem.server.replays import as_seen_by, player_names
from holdem.server.room import Room, person_id, token_digest
from holdem.server.storage import lease_key
from holdem.server.tourney import FORMAT as TOURNEY
from holdem.server.tourney import Moves, Status, Tourney, tourney_config

__all__ = ["ROUTES"]


async def _body(request: Request) -> Any:
    """The request's JSON: at most 64 KiB, finite numbers only (`parse_json`)."""
    return parse_json(await read_body(request) or b"{}")


def _fields(data: Any, known: tuple[str, ...], shape: str) -> dict[str, Any]:
    """A request's JSON object, with no field but the `known` ones."""
    return check_object(data, "fields", known, RequestError, shape)


def _route(handler: Callable[[Request, Hub], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering JSON; a `RequestError` becomes ``{"error": message}`` with its status."""

    async def endpoint(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        ident = request.path_params.get("table") or request.path_params.get("tournament")
        try:
            if ident is not None:
                await hub.reopen(ident)  # a quiet home game that left memory
            if ident is not None and hub.cluster is not None and not await hub.take(ident):
                answer = await forward(hub, request, ident)  # served by another process
                if answer is not None:
                    return answer
            result = await handler(request, hub)
        except (RequestError, RefusedError, SnapshotError) as error:
            return JSONResponse({"error": str(error)}, status_code=status_of(error))
        return JSONResponse(result)

    return endpoint


async def _health(request: Request, hub: Hub) -> Any:
    return {"ok": True, "tables": len(hub.registry.rooms), "serving": sorted(hub.registry.rooms)}


async def _tables(request: Request, hub: Hub) -> Any:
    if request.method == "GET":  # as last stored: a change being stored is not shown
        tables = list(hub.registry.lobby.values()) if hub.cluster is None else await _stored_tables(hub)
        admin = hub.is_admin(request)  # the admin sees every table; others not a home game left unlisted
        return {"tables": [t for t in tables if admin or t["home"] is None or t["home"]["listed"]]}
    hub.check_admin(request)
    return await hub.create_table(Room(secrets.token_hex(4), table_config(await _body(request))))


def _address(request: Request) -> str:
    """The asker's address, as the ASGI server reports it: the peer's, or the one a trusted proxy
    forwards (``holdem serve --forwarded-allow-ips``; the shipped nginx file sets it)."""
    return request.client.host if request.client is not None else ""


async def _games(request: Request, hub: Hub) -> Any:
    """A home game made from the lobby (by anyone, the admin alone or nobody: `holdem serve
    --games`), within the per-address window and the cap on open games: a table with a host, who
    gets the host token (for this table alone) and the links to share."""
    if hub.limits.game_allowed(hub.is_admin(request), hub.registry.open_games()):
        await hub.limit("game", _address(request))
    data = await _body(request)
    if not isinstance(data, dict):
        raise RequestError(f"a game's settings are a JSON object, got {type(data).__name__}")
    game = {key: data.pop(key) for key in ("name", "listed") if key in data}
    room, token = Room.hosted(table_config(data), **game)
    summary = await hub.create_table(room)
    return summary | {
        "host_token": token,
        "player_link": f"/?table={room.id}",
        "host_link": f"/?table={room.id}#host={token}",
    }


async def _join(request: Request, hub: Hub) -> Any:
    data = _fields(await _body(request), ("name", "buy_in", "seat"), 'a join: {"name": ..., "buy_in": ...}')
    ident = request.path_params["table"]
    digest = token_digest(bearer(request))
    room = hub.room(ident)
    if room.home is not None and not room.is_host(digest) and not hub.is_admin(request):
        await hub.limit("seat", _address(request))

    def asked(room: Room, now: float) -> tuple[tuple[int, str, bool], Change]:
        seat, token, pending, change = room.ask(
            data.get("name"), data.get("buy_in"), data.get("seat"), room.is_host(digest), now
        )
        return (seat, token, pending), change

    seat, token, pending = await hub.apply(ident, asked)
    return {"table": ident, "seat": seat, "token": token, "pending": pending}


async def _host(request: Request, hub: Hub) -> Any:
    """One of the host's commands (`holdem.server.home.COMMANDS`), with the host token or the admin's."""
    ident = request.path_params["table"]
    _viewer(hub, hub.room(ident), request, host=True)
    data = await _body(request)
    if not isinstance(data, dict):
        raise RequestError(f'a command is a JSON object {{"command": ...}}, got {type(data).__name__}')
    await hub.change(ident, lambda room, now: room.command(data, now))
    return {"table": ident, "done": data.get("command")}


async def _table(request: Request, hub: Hub) -> Any:
    """One table as the lobby lists it, for anyone with its id (a home game's link), listed or not."""
    return hub.registry.summary(hub.room(request.path_params["table"]))


async def _settle(request: Request, hub: Hub) -> Any:
    """A home game's settle-up, for anyone with its link; another table's needs the admin token."""
    ident = request.path_params["table"]
    room = hub.room(ident)
    if room.home is None:
        hub.check_admin(request)
    async with hub.registry.locks[ident]:  # the chips on the table and the stored ledger at the same moment
        rows = await hub.database.run(hub.database.storage.ledger, ident)
        return room.settle_up(rows)


def _viewer(hub: Hub, room: Room, request: Request, *, host: bool = False) -> tuple[str, str | None]:
    """Who asks: ("admin", None), ("host", None) or ("player", digest) for a seat's token, now or
    earlier in the game (the digest decides what they may see, never their name); `host`: only the
    host or the admin may."""
    if hub.is_admin(request):
        return "admin", None
    digest = token_digest(bearer(request))
    if room.is_host(digest):
        return "host", None
    if host:
        raise RequestError("this needs the table's host token: Authorization: Bearer HOST_TOKEN", 401)
    if room.seat_of_token(digest) is None and (room.home is None or digest not in room.home.players):
        raise RequestError(
            "this needs a player's, the host's or the admin token: Authorization: Bearer TOKEN", 401
        )
    return "player", digest


async def _leave(request: Request, hub: Hub) -> Any:
    ident, seat = request.path_params["table"], request.path_params["seat"]
    room = hub.room(ident)
    if (
        hub.registry.digests.get(token_digest(bearer(request))) != (ident, seat)
        or room.seat_of_token(token_digest(bearer(request))) != seat
    ):
        raise RequestError(f"leaving seat {seat} needs that seat's token: Authorization: Bearer TOKEN", 403)
    left = await hub.apply(ident, lambda room, now: _left(seat, room, room.leave(seat, now)))
    return {"table": ident, "seat": seat, "left": left}


def _left(seat: int, room: Room, change: Change) -> tuple[bool, Change]:
    return seat not in room.members, change


async def _hands(request: Request, hub: Hub) -> Any:
    """Stored hands: every one in full for the admin; for the host, the numbers and players of each,
    and for a player those of the hands their token was dealt into (`_hand` gives one as they may
    see it)."""
    ident = request.path_params["table"]
    who, digest = _viewer(hub, hub.room(ident), request)
    try:
        after = int(request.query_params.get("after", "0"))
    except ValueError:
        raise RequestError("after must be a hand number") from None
    if not 0 <= after < 2**63:
        raise RequestError(f"after must be a hand number from 0 to 2**63 - 1, got {after}")
    if who == "admin":
        rows = await hub.database.read(hub.database.reads.hands, ident, after)
        return {"hands": [{"number": number, "phh": text} for number, text in rows]}
    database = hub.database
    if digest is None:
        listed = await database.read(database.reads.hands, ident, after)
    else:
        listed = [
            (n, text) for n, text, _ in await database.read(database.reads.hands_of, ident, digest, after)
        ]
    return {"hands": [{"number": number, "players": player_names(text)} for number, text in listed]}


async def _hand(request: Request, hub: Hub) -> Any:
    """One stored hand as the asker may see it (`holdem.server.replays.as_seen_by`): a player only a
    hand their token was dealt into."""
    ident, number = request.path_params["table"], request.path_params["number"]
    _, digest = _viewer(hub, hub.room(ident), request)
    database = hub.database
    rows = await database.read(database.reads.hands, ident, number - 1, 1) if 0 < number < 2**63 else []
    if not rows or rows[0][0] != number:
        raise NotFoundError(f"no stored hand {number} at table {ident}")
    if digest is None:
        return as_seen_by(rows[0][1], None)
    mine = await hub.database.read(hub.database.reads.hands_of, ident, digest, number - 1, 1)
    if not mine or mine[0][0] != number:
        raise RequestError(f"you were not dealt into hand {number}", 403)
    return as_seen_by(rows[0][1], mine[0][2])


async def _stats(request: Request, hub: Hub) -> Any:
    """The players' statistics from the table's stored hands (`holdem.stats`): for its host and the
    admin; for everyone with the link once the host shows them (``"command": "stats"``).
    ``?by=position`` adds each player's numbers by position, ``?player=NAME`` keeps one player."""
    ident = request.path_params["table"]
    room = hub.room(ident)
    if not (room.home is not None and room.home.stats):
        who, _ = _viewer(hub, room, request)
        if who == "player":
            raise RequestError("the host has not shown the players' statistics at this table", 403)
    by = request.query_params.get("by")
    if by not in (None, "position"):
        raise RequestError(f"by must be position, got {by!r:.20}")
    hands, rows = await hub.database.read(hub.stats.report, hub.database.reads, ident, by == "position")
    player = request.query_params.get("player")
    if player is not None:
        rows = [row for row in rows if row.player == player]
        if not rows:
            raise NotFoundError(f"no player {player!r:.40} in this table's stored hands")
    return {"table": ident, "hands": hands, "players": [row.to_dict() for row in rows]}


async def _ledger(request: Request, hub: Hub) -> Any:
    hub.check_admin(request)
    ident = request.path_params["table"]
    room = hub.room(ident)
    async with hub.registry.locks[ident]:  # the chips on the table and the stored ledger at the same moment
        chips = room.chips()
        rows = await hub.database.run(hub.database.storage.ledger, ident)
    return {"chips_on_table": chips, "ledger": [_ledger_row(row) for row in rows]}


async def _stored_tables(hub: Hub) -> list[dict[str, Any]]:
    """Every table of every process (`--cluster`) as last stored: this process's own from its lobby,
    the others' read from the database."""
    rows = await hub.database.read(hub.database.reads.rooms)
    now, states = time.monotonic(), {ident: json.loads(state) for ident, state in rows}
    over = {
        i for i, data in states.items() if data.get("format") == TOURNEY and data["status"] == Status.FINISHED
    }
    return [
        hub.registry.lobby.get(ident)
        or table_summary(Room.from_dict(data, now), finished=lease_key(ident) in over)
        for ident, data in states.items()
        if data.get("format") != TOURNEY
    ]


async def _tourney_summaries(hub: Hub) -> list[dict[str, Any]]:
    """Every tournament's summary as last stored: under each one's lock here, from the database
    for every process with `--cluster`."""
    if hub.cluster is not None:
        rows = await hub.database.read(hub.database.reads.rooms)
        now, found = time.monotonic(), []
        for _, state in rows:
            data = json.loads(state)
            if data.get("format") == TOURNEY:
                found.append(Tourney.from_dict(data, now).summary(now))
        return found
    summaries = []
    for ident in list(hub.registry.tourneys):
        async with hub.registry.locks[ident]:
            if ident in hub.registry.tourneys:
                summaries.append(hub.registry.tourneys[ident].summary(time.monotonic()))
    return summaries


async def _tournaments(request: Request, hub: Hub) -> Any:
    now = time.monotonic()
    if request.method == "GET":
        return {"tournaments": await _tourney_summaries(hub)}
    hub.check_admin(request)
    tourney = Tourney("t" + secrets.token_hex(4), tourney_config(await _body(request)))
    await hub.create_tournament(tourney)
    return tourney.summary(now)


async def _tournament(request: Request, hub: Hub) -> Any:
    ident = request.path_params["tournament"]
    if ident not in hub.registry.tourneys:
        raise NotFoundError(f"no tournament {ident!r}")
    async with hub.registry.locks[ident]:  # as last stored
        tourney = hub.registry.tourneys.get(ident)
        if tourney is None:
            raise NotFoundError(f"no tournament {ident!r}")
        return tourney.summary(time.monotonic()) | {"names": list(tourney.entrants)}


async def _tournament_ledger(request: Request, hub: Hub) -> Any:
    hub.check_admin(request)
    ident = request.path_params["tournament"]
    if ident not in hub.registry.tourneys:
        raise NotFoundError(f"no tournament {ident!r}")
    rows = await hub.database.read(hub.database.reads.ledger, ident)
    return {"ledger": [_ledger_row(row) for row in rows]}


def _ledger_row(row: LedgerRow) -> dict[str, Any]:
    """A ledger row as the API sends it: the person by their public id, never their token's digest."""
    return row._asdict() | {"person": person_id(row.person)}


async def _entries(request: Request, hub: Hub) -> Any:
    data = _fields(await _body(request), ("name",), 'an entry: {"name": ...}')
    ident = request.path_params["tournament"]

    def enter(tourney: Tourney, now: float) -> tuple[str, Moves]:
        token, rooms, ledger = tourney.register(data.get("name"), now)
        hub.add_tables(tourney, rooms)
        moves = Moves(ledger=ledger)
        for room in rooms:
            moves.touch(room)
        return token, moves

    token = await hub.run_tourney(ident, enter)
    return {"tournament": ident, "name": player_name(data.get("name")), "token": token}


ROUTES = [
    Route("/api/health", _route(_health)),
    Route("/api/tables", _route(_tables), methods=["GET", "POST"]),
    Route("/api/tables/{table}", _route(_table)),
    Route("/api/tables/{table}/players", _route(_join), methods=["POST"]),
    Route("/api/tables/{table}/players/{seat:int}", _route(_leave), methods=["DELETE"]),
    Route("/api/tables/{table}/hands", _route(_hands)),
    Route("/api/tables/{table}/hands/{number:int}", _route(_hand)),
    Route("/api/tables/{table}/host", _route(_host), methods=["POST"]),
    Route("/api/tables/{table}/settle", _route(_settle)),
    Route("/api/tables/{table}/stats", _route(_stats)),
    Route("/api/games", _route(_games), methods=["POST"]),
    Route("/api/tables/{table}/ledger", _route(_ledger)),
    Route("/api/tournaments", _route(_tournaments), methods=["GET", "POST"]),
    Route("/api/tournaments/{tournament}", _route(_tournament)),
    Route("/api/tournaments/{tournament}/entries", _route(_entries), methods=["POST"]),
    Route("/api/tournaments/{tournament}/ledger", _route(_tournament_ledger)),
]
"""Every HTTP route but the page and the WebSocket."""
