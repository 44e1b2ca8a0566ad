"""The server's one way of changing its state, and its clock. The state is in three parts: the
tables and tournaments served here (`holdem.server.registry`), the database (`holdem.server.storage`'s
`Database`) and who reads each table (`holdem.server.readers`).

Every change to a room runs under that room's lock: the room applies it (or refuses it, changing
nothing), the writer stores the room's new state, and only then are the new states queued to its
readers. The writer groups the changes that arrive together into one transaction, on one thread of
its own, so that many tables share each durable commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

from holdem.server import SERVER_HINT

try:
    from starlette.requests import Request
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

from holdem.errors import LeaseLost, NotFoundError, RefusedError, RequestError
from holdem.server.change import Change
from holdem.server.config import Cluster
from holdem.server.connection import RATE, bearer
from holdem.server.housebots import HouseBots
from holdem.server.limits import Limits, too_many
from holdem.server.readers import Readers
from holdem.server.registry import Registry, is_quiet
from holdem.server.room import Room
from holdem.server.storage import Database, Write, lease_key
from holdem.server.tablestats import TableStats
from holdem.server.tourney import FORMAT as TOURNEY
from holdem.server.tourney import Moves, Tourney

__all__ = ["Hub"]

T = TypeVar("T")

SWEEP_SECONDS = 2.0
"""How often the clock looks for quiet home games."""

IDLE_SECONDS = 300.0
"""How long a home game that is over, or has nobody seated or asking, stays in memory with no
connection open: then it leaves memory and the lobby (it stays stored, and opens again when asked
for)."""


class Hub:
    """The server: `registry` (what is served here), `database` (`holdem.server.storage.Database`),
    `readers` (who reads each table), the clock, the host's bots and the tables' statistics."""

    def __init__(
        self,
        url: str,
        admin_token: str,
        *,
        tick: float = 0.05,
        rate: float = RATE,
        cluster: Cluster | None = None,
        limits: Limits | None = None,
        idle: float = IDLE_SECONDS,
    ) -> None:
        self.admin, self.cluster, self.idle = admin_token, cluster, idle
        self.limits = limits if limits is not None else Limits()
        self.tick, self.rate = tick, rate
        self.registry = Registry()
        self.database = Database(url)
        self.readers = Readers(self.registry, self.later, self._seen)
        self.taking: dict[str, asyncio.Lock] = {}  # a table being taken over (`--cluster`)
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[None]] = set()  # short tasks (`later`), cancelled at the stop
        self.house = HouseBots(self)  # the bots hosts seated at tables served here
        self.stats = TableStats()  # the players' statistics of tables asked for them

    async def start(self) -> None:
        await self.database.open()
        self.tasks = [asyncio.create_task(self.database.writer.run()), asyncio.create_task(self._clock())]
        if self.cluster is not None:  # tables are taken one by one, as their leases allow
            self.database.storage.owner = secrets.token_hex(8)
            self.database.storage.ttl = self.cluster.lease_seconds
            self.tasks.append(asyncio.create_task(self._leases()))
            return
        now, registry = time.monotonic(), self.registry
        for _, state in await self.database.run(self.database.storage.rooms):
            data = json.loads(state)
            if data.get("format") == TOURNEY:
                registry.add_tourney(Tourney.from_dict(data, now))
            elif not is_quiet(room := Room.from_dict(data, now)):  # the quiet open when asked for
                self._loaded(room)
        for ident in list(registry.rooms):  # deal in rooms that stopped between hands
            await self.change(ident, Room.resume)
        for ident in registry.tourneys:  # and in the tournaments' tables
            await self.resume_tourney(ident)

    async def run_tourney(self, ident: str, fn: Callable[[Tourney, float], tuple[T, Moves]]) -> T:
        """Apply `fn` to a tournament, let its director deal where it may, store everything it changed
        together, then broadcast; a refusal changes nothing."""
        tourney = self.registry.tourneys.get(ident)
        if tourney is None:
            raise NotFoundError(f"no tournament {ident!r}")
        async with self.registry.locks[ident]:
            now = time.monotonic()
            value, moves = fn(tourney, now)
            tourney.deal(self.registry.rooms, now, moves)
            await self._store_tourney(tourney, moves, now)
        return value

    def _start_tourney(self, tourney: Tourney, now: float) -> tuple[None, Moves]:
        rooms, refunds = tourney.start_now(now)
        self.add_tables(tourney, rooms)
        moves = Moves(ledger=refunds)
        for room in rooms:
            moves.touch(room)
        return None, moves

    def add_tables(self, tourney: Tourney, rooms: list[Room]) -> None:
        """A tournament's new tables: served here, under the tournament's lock."""
        for room in rooms:
            self._add(room)

    async def _store_tourney(
        self, tourney: Tourney, moves: Moves, now: float, first: tuple[Room, Write] | None = None
    ) -> None:
        """Store a tournament with the tables its director changed (after `first`: the table of the
        request, with its write), then index every table and only then broadcast (a moved player's
        token points to the new table before any table is sent)."""
        self.add_tables(tourney, moves.new)
        rooms = self.registry.rooms
        writes = [first[1]] if first is not None else []
        for ident, change in moves.rooms.items():
            writes.append((ident, _state(rooms[ident]), change.hands, change.ledger))
        writes.append((tourney.id, tourney.to_json(now), [], moves.ledger))
        try:
            await self.database.writer.write(writes)
        except Exception:
            await self._reload(tourney.id)
            raise RequestError("the change could not be stored, so it was not made", 503) from None
        for write in writes[:-1]:
            self.readers.note_stored(write[0], write[1])
        changed = ([first[0]] if first is not None else []) + [rooms[i] for i in moves.rooms]
        for room in changed:
            self.registry.index_digests(room)
        for room in changed:
            self.readers.broadcast(room)
        self.readers.entrants_moved(tourney, now)

    async def _leases(self) -> None:
        """Renew this process's leases; drop the tables it lost; take the tables nobody serves."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(self.cluster.lease_seconds / 3)
            try:
                for ident in await self.database.run(self.database.storage.renew):
                    self.drop(ident)
                for ident in await self.database.run(self.database.storage.unserved):
                    with contextlib.suppress(RequestError, RefusedError):
                        await self.take(ident)
            except Exception as error:  # the database is away for now: the next round tries again
                logging.getLogger("holdem.server").warning("renewing leases failed: %s", error)

    async def take(self, ident: str) -> bool:
        """Serve table `ident` here if nobody else does (after its lease expired); whether it is served
        here now. The table comes back from its last stored change, as at a restart."""
        if self.registry.serves(ident):
            return True
        if self.cluster is None:
            return False
        key = lease_key(ident)  # a tournament's tables come with the tournament
        taking = self.taking.setdefault(key, asyncio.Lock())
        async with taking:  # one take at a time: a second request for it waits for the first's
            if self.registry.serves(ident):
                return True
            return await self._take(ident, key)

    async def _take(self, ident: str, key: str) -> bool:
        if key in self.registry.tourneys:  # served here: a table it broke before this process took it over
            await self._reload(ident)
            return ident in self.registry.rooms
        assert self.cluster is not None
        storage = self.database.storage
        if await self.database.run(storage.room, key) is None:
            return False  # no such table
        if await self.database.run(storage.acquire, key, self.cluster.address) is None:
            return False
        await self._reload(key)  # read after the lease is ours: the old owner can write no more
        if key in self.registry.tourneys:
            await self.resume_tourney(key)
        else:
            await self.change(key, Room.resume)
        return self.registry.serves(ident)

    async def owner_of(self, ident: str) -> tuple[str, float] | None:
        """The address of the process serving table `ident` and the seconds its lease has left (None:
        no such table, or nobody serves it now)."""
        lease = await self.database.read(self.database.reads.lease, lease_key(ident))
        return None if lease is None or lease[3] < 0 else (lease[1], lease[3])

    async def take_over(self, ident: str) -> bool:
        """The process serving table `ident` did not answer: wait for its lease to run out and take the
        table. False when the lease is still renewed after a lease time: that process is slow, not
        gone, and keeps its table."""
        assert self.cluster is not None
        deadline = time.monotonic() + self.cluster.lease_seconds + 1.0
        while not await self.take(ident):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.2)
        return True

    def drop(self, ident: str) -> None:
        """Stop serving table `ident` here (its lease was lost): its connections close and reconnect.
        A tournament goes with all its tables."""
        ident = lease_key(ident)
        tourney = self.registry.remove_tourney(ident)
        for table in tourney.rooms if tourney is not None else ():
            self._drop_room(table)
        self.readers.close_waiting(ident)
        self._drop_room(ident)

    def _forget(self, ident: str) -> None:
        """A table leaves memory (it stays stored)."""
        self.registry.forget(ident)
        self.readers.forget(ident)

    def _drop_room(self, ident: str) -> None:
        self.registry.remove(ident)
        self.readers.close(ident)  # served elsewhere now: connect again

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as a task of its own, kept until it is done (and cancelled at the stop)."""
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def stop(self) -> None:
        for task in [*self.tasks, *self.background]:
            task.cancel()
        await self.database.close(release=self.cluster is not None)

    def _add(self, room: Room) -> None:
        self.registry.add(room)
        self.readers.serve(room.id)

    def _seen(self, room: Room, listed: bool) -> None:
        """After `room`'s readers changed or were sent it: its lobby line (`listed`: a new state was
        stored and broadcast) and the registry's work lists, in step."""
        if listed:
            self.registry.list_in_lobby(room)
        self.registry.track(room, bool(self.readers.connections.get(room.id)))

    async def create_table(self, room: Room) -> dict[str, Any]:
        """Store a new table and list it; its lobby line. With ``--cluster`` the process its first
        player reaches serves it."""
        storage = self.database.storage
        if self.cluster is not None:
            await self.database.run(storage.acquire, room.id, self.cluster.address)
        self._add(room)
        await self.change(room.id, lambda room, now: Change())
        summary = self.registry.lobby[room.id]
        if self.cluster is not None:
            self.drop(room.id)
            await self.database.run(storage.release, room.id)
        return summary

    async def create_tournament(self, tourney: Tourney) -> None:
        """Serve and store a new tournament (with ``--cluster``: here, where it was made; its entries
        and tables are passed on to this process)."""
        if self.cluster is not None:
            await self.database.run(self.database.storage.acquire, tourney.id, self.cluster.address)
        self.registry.add_tourney(tourney)
        await self.resume_tourney(tourney.id)

    def room(self, ident: str) -> Room:
        return self.registry.room(ident)

    async def apply(self, ident: str, fn: Callable[[Room, float], tuple[T, Change | None]]) -> T:
        """Apply `fn` to the room, store the result, then broadcast; a refusal changes nothing."""
        registry = self.registry
        registry.room(ident)
        async with registry.locks[ident]:
            room = registry.rooms.get(ident)
            if room is None:  # dropped while this waited (its lease was lost): served elsewhere now
                raise RequestError("this table moved to another process: reconnect", 503)
            value, change = fn(room, time.monotonic())
            if change is None:
                return value
            write = (room.id, _state(room), change.hands, change.ledger)
            if room.tournament is not None:  # the director's work goes in the same transaction
                tourney = registry.tourneys[room.tournament]
                moves = tourney.after(room, change, registry.rooms, time.monotonic())
                extra = moves.rooms.pop(room.id, None)
                if extra is not None:
                    write = (room.id, _state(room), [*change.hands, *extra.hands], change.ledger)
                await self._store_tourney(tourney, moves, time.monotonic(), (room, write))
                return value
            try:
                await self.database.writer.write(write)
            except LeaseLost:
                self.drop(ident)
                raise RequestError("this table moved to another process: reconnect", 503) from None
            except Exception:
                await self._reload(ident)
                raise RequestError("the change could not be stored, so it was not made", 503) from None
            if registry.rooms.get(ident) is not room:  # its lease ran out while this was stored: the room
                return value  # was dropped, its readers told to reconnect to whoever serves it now
            self.readers.note_stored(room.id, write[1])
            registry.index_digests(room)
            self.readers.broadcast(room)
        return value

    async def change(self, ident: str, fn: Callable[[Room, float], Change | None]) -> None:
        """`apply` for a change with no value to return: ``hub.change(ident, Room.resume)``."""
        await self.apply(ident, lambda room, now: (None, fn(room, now)))

    async def resume_tourney(self, ident: str) -> None:
        """`run_tourney` with no change but the director's: it deals where it may, stores, broadcasts."""
        await self.run_tourney(ident, lambda tourney, now: (None, Moves()))

    async def _reload(self, ident: str) -> None:
        state = await self.database.run(self.database.storage.room, ident)
        if self.cluster is not None and lease_key(ident) not in self.database.storage.epochs:
            self.drop(ident)  # its lease was lost while it was read (after a failed write): not ours
            return
        registry = self.registry
        data = json.loads(state) if state is not None else None
        if data is not None and data.get("format") == TOURNEY:  # a tournament: with all its tables
            tourney = Tourney.from_dict(data, time.monotonic())
            registry.add_tourney(tourney)
            for table in tourney.rooms:  # each under the tournament's lock (`Registry.add`)
                await self._reload(table)
        elif data is None:
            registry.remove(ident)
            registry.remove_tourney(ident)
        else:
            self._loaded(Room.from_dict(data, time.monotonic()))

    def _loaded(self, room: Room) -> None:
        """A room read back from storage: served here, and in the lobby as stored."""
        self._add(room)
        self.registry.list_in_lobby(room)
        self.readers.note_stored(room.id, _state(room))
        self.readers.track(room)

    async def reopen(self, ident: str) -> None:
        """Serve again a stored table that left memory when it was quiet (not with ``--cluster``,
        where taking a table reads it)."""
        if self.cluster is not None or self.registry.serves(ident) or "-" in ident:
            return
        state = await self.database.read(self.database.reads.room, ident)
        if state is None or ident in self.registry.rooms:
            return
        data = json.loads(state)
        if data.get("format") != TOURNEY:
            self._loaded(Room.from_dict(data, time.monotonic()))

    async def _sweep(self, now: float) -> None:
        """Let the home games that have been quiet for `idle` seconds leave memory and the lobby."""
        registry = self.registry
        for ident, since in list(registry.quiet_since.items()):
            room, lock = registry.rooms.get(ident), registry.locks.get(ident)
            if now - since < self.idle or room is None or lock is None or lock.locked():
                continue
            if not is_quiet(room) or self.readers.connections.get(ident):
                registry.not_quiet(ident)
                continue
            self._forget(ident)
            if self.cluster is not None:
                await self.database.run(self.database.storage.release, ident)

    async def _clock(self) -> None:
        """Every tick: the host's bots, scheduled tournaments, and the tables with a player to act
        (only those: a table with nobody to act costs the clock nothing). Every few seconds, the
        quiet home games leave memory."""
        swept = time.monotonic()
        while True:
            await asyncio.sleep(self.tick)
            now = time.monotonic()
            if now - swept >= SWEEP_SECONDS:
                swept = now
                await self._sweep(now)
            try:
                self.house.tick()
            except Exception:  # a bot's failure must not stop the clock of every table
                logging.getLogger("holdem.server").exception("the host's bots failed")
            for ident, tourney in list(self.registry.tourneys.items()):
                if tourney.due(now):  # a scheduled tournament's start
                    with contextlib.suppress(RequestError, RefusedError):
                        await self.run_tourney(ident, self._start_tourney)
            await self._expire(now)

    async def _expire(self, now: float) -> None:
        """Check or fold for each player out of time (a player with no connection open has a shorter
        clock); a change that cannot be stored is tried again at the next tick."""
        for ident in list(self.registry.ticking):
            room = self.registry.rooms.get(ident)
            if room is None:
                self.registry.stop_ticking(ident)
                continue
            away = self.readers.away(room)
            clock = room.clock(now, away)
            if clock is not None and clock[1] <= 0 and clock[2] <= 0:
                with contextlib.suppress(RequestError, RefusedError):
                    await self.change(ident, functools.partial(Room.expire, away=away))

    async def limit(self, kind: Literal["game", "seat"], address: str) -> None:
        """Count a new game or a request for a seat from `address` against its window: in this
        process, or with ``--cluster`` in the database every process shares (429 past it)."""
        window = self.limits.games if kind == "game" else self.limits.seats
        if self.cluster is None:
            self.limits.take(kind, address, window, time.monotonic())
            return
        database = self.database
        wait = await database.run(database.storage.take, kind, address, window.count, window.seconds)
        if wait is not None:
            raise too_many(kind, window, wait)

    def is_admin(self, request: Request) -> bool:
        return hmac.compare_digest(bearer(request).encode(), self.admin.encode())

    def check_admin(self, request: Request) -> None:
        if not self.is_admin(request):
            raise RequestError("this needs the admin token: Authorization: Bearer ADMIN_TOKEN", 401)


def _state(room: Room) -> str:
    """A room's state as stored: compact JSON."""
    return json.dumps(room.to_dict(), separators=(",", ":"))
