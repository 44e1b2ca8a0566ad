"""The server's state and its one way of changing it: rooms and tournaments, the token index, each
room's connections, the clock, and the store-then-broadcast writer.

Every change to a room runs under that room's lock: the room applies it (or refuses it, changing
nothing), the writer stores the room's new state, and only then are the new states queued to its
connections. Every reader is sent the last stored state: a state is read under the room's lock,
so a change that is being stored is invisible until its write commits. The writer groups the
changes that arrive together into one transaction, on one thread of its own, so that many tables
share each durable commit.
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
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from holdem.server import SERVER_HINT

try:
    from starlette.requests import Request
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

from holdem.server.config import Cluster, RequestError
from holdem.server.connection import RATE, Connection, bearer, table_summary
from holdem.server.housebots import HouseBots
from holdem.server.limits import Limits
from holdem.server.messages import finished_message, state_message
from holdem.server.room import Change, Room
from holdem.server.storage import LeaseLost, Write, Writer, lease_key, open_storage
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

READER_WAIT = 0.25
"""Seconds a reader (a new connection, a `state` request) waits for a room's lock before it is
answered from the last stored state: a write the database holds up never keeps readers waiting."""


async def _acquire(lock: asyncio.Lock, seconds: float) -> bool:
    """Take `lock` within `seconds`; False (not held) when it could not be taken in time. A late
    acquisition after the wait was given up releases the lock at once (`asyncio.wait_for` could
    leave it held on Python 3.11)."""
    task = asyncio.ensure_future(lock.acquire())
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if done:
        return True
    task.add_done_callback(lambda t: lock.release() if not t.cancelled() and t.exception() is None else None)
    task.cancel()
    return False


def _is_quiet(room: Room) -> bool:
    """A home game with no hand in progress that is over, or has nobody seated or asking: it may
    leave memory once nobody is connected (`Hub._sweep`)."""
    home = room.home
    if home is None or room.table.hand is not None:
        return False
    return home.ended or (not room.members and not home.pending)


class Hub:
    """The server's state: rooms, the token index, connections, the writer and the clock."""

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
        self.url, self.admin, self.cluster, self.idle = url, admin_token, cluster, idle
        self.limits = limits if limits is not None else Limits()
        self.ticking: set[str] = set()  # tables with a player to act: the clock's only work
        self.with_bots: set[str] = set()  # home games with a host's bot: the bots' only work
        self.quiet_since: dict[str, float] = {}  # home games that may leave memory, since when
        self.tick, self.rate = tick, rate
        self.rooms: dict[str, Room] = {}
        self.tourneys: dict[str, Tourney] = {}
        self.tokens: dict[str, tuple[str, int]] = {}  # token digest -> (room, seat), every room
        self.held: dict[str, dict[str, tuple[str, int]]] = {}  # the same, room by room
        self.connections: dict[str, set[Connection]] = {}
        self.lobby: dict[str, dict[str, Any]] = {}  # each table's summary as last stored
        self.stored: dict[str, str] = {}  # each table's state JSON as last stored (`_as_stored`)
        self._stored_rooms: dict[str, tuple[str, Room]] = {}  # the same, read back, for readers
        self.waiting: dict[str, set[Connection]] = {}  # tournament -> entrants connected without a seat
        self.locks: dict[str, asyncio.Lock] = {}
        self.taking: dict[str, asyncio.Lock] = {}  # a table being taken over (`--cluster`)
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="holdem-db")
        self.read_executor = ThreadPoolExecutor(1, thread_name_prefix="holdem-db-read")
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[None]] = set()  # short tasks (`later`), cancelled at the stop
        self.house = HouseBots(self)  # the bots hosts seated at tables served here
        self.stats = TableStats()  # the players' statistics of tables asked for them

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.storage = await loop.run_in_executor(self.executor, open_storage, self.url)
        self.reads = await loop.run_in_executor(self.read_executor, open_storage, self.url)
        self.writer = Writer(self.storage, self.executor)
        self.tasks = [asyncio.create_task(self.writer.run()), asyncio.create_task(self._clock())]
        if self.cluster is not None:  # tables are taken one by one, as their leases allow
            self.storage.owner, self.storage.ttl = secrets.token_hex(8), self.cluster.lease_seconds
            self.tasks.append(asyncio.create_task(self._leases()))
            return
        now = time.monotonic()
        for _, state in await loop.run_in_executor(self.executor, self.storage.rooms):
            data = json.loads(state)
            if data.get("format") == TOURNEY:
                self.tourneys[data["id"]] = Tourney.from_dict(data, now)
                self.locks.setdefault(data["id"], asyncio.Lock())
            elif not _is_quiet(room := Room.from_dict(data, now)):  # the quiet open when asked for
                self._loaded(room)
        for room in self.rooms.values():  # a tournament's tables share its lock
            if room.tournament is not None:
                self.locks[room.id] = self.locks[room.tournament]
        for ident in list(self.rooms):  # deal in rooms that stopped between hands
            await self.change(ident, Room.resume)
        for ident in self.tourneys:  # and in the tournaments' tables
            await self.resume_tourney(ident)

    async def run_tourney(self, ident: str, fn: Callable[[Tourney, float], tuple[T, Moves]]) -> T:
        """Apply `fn` to a tournament, let its director deal where it may, store everything it changed
        together, then broadcast; a refusal changes nothing."""
        tourney = self.tourneys.get(ident)
        if tourney is None:
            raise RequestError(f"no tournament {ident!r}", 404)
        async with self.locks[ident]:
            now = time.monotonic()
            value, moves = fn(tourney, now)
            tourney.deal(self.rooms, now, moves)
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
            self.locks[room.id] = self.locks[tourney.id]
            self._add(room)

    async def _store_tourney(
        self, tourney: Tourney, moves: Moves, now: float, first: tuple[Room, Write] | None = None
    ) -> None:
        """Store a tournament with the tables its director changed (after `first`: the table of the
        request, with its write), then index every table and only then broadcast (a moved player's
        token points to the new table before any table is sent)."""
        self.add_tables(tourney, moves.new)
        writes = [first[1]] if first is not None else []
        for ident, change in moves.rooms.items():
            room = self.rooms[ident]
            writes.append(
                (ident, json.dumps(room.to_dict(), separators=(",", ":")), change.hands, change.ledger)
            )
        writes.append((tourney.id, tourney.to_json(now), [], moves.ledger))
        try:
            await self.writer.write(writes)
        except Exception:
            await self._reload(tourney.id)
            raise RequestError("the change could not be stored, so it was not made", 503) from None
        self.stored.update((write[0], write[1]) for write in writes[:-1])
        changed = ([first[0]] if first is not None else []) + [self.rooms[i] for i in moves.rooms]
        for room in changed:
            self._index_tokens(room)
        for room in changed:
            self.broadcast(room)
        self._entrants_moved(tourney, now)

    def _unseated(self, tourney: Tourney, connection: Connection) -> None:
        """An entrant's connection while they hold no seat: told their place and prize and closed when
        they are out, otherwise told to wait, and moved to their table when they are seated."""
        assert connection.digest is not None
        connection.room, connection.seat = tourney.id, None
        if tourney.entrant(connection.digest) in tourney.place:
            connection.send(json.dumps(finished_message(tourney, connection.digest, self.rooms)))
            connection.close(1000)
            return
        self.waiting.setdefault(tourney.id, set()).add(connection)
        connection.send(json.dumps({"type": "waiting", "tournament": tourney.id, "status": tourney.status}))

    def _entrants_moved(self, tourney: Tourney, now: float) -> None:
        """After a tournament's change is stored: waiting entrants who got a seat join their table's
        readers; when the tournament is over, every entrant still connected is told their place and
        prize, the winner included, and their connection closed."""
        for connection in list(self.waiting.get(tourney.id, ())):
            assert connection.digest is not None
            where = self.tokens.get(connection.digest)
            if where is not None:
                self.waiting[tourney.id].discard(connection)
                connection.room, connection.seat = where
                self.connections[where[0]].add(connection)
                connection.send(json.dumps({"type": "moved", "table": where[0], "seat": where[1]}))
                connection.send(self._state_text(self.rooms[where[0]], connection, now))
            elif tourney.entrant(connection.digest) in tourney.place:
                self.waiting[tourney.id].discard(connection)
                self._unseated(tourney, connection)
        if tourney.status != "finished":
            return
        for ident in tourney.rooms:
            for connection in list(self.connections.get(ident, ())):
                if connection.digest is not None:
                    self.connections[ident].discard(connection)
                    self._unseated(tourney, connection)

    async def _leases(self) -> None:
        """Renew this process's leases; drop the tables it lost; take the tables nobody serves."""
        assert self.cluster is not None
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.cluster.lease_seconds / 3)
            try:
                for ident in await loop.run_in_executor(self.executor, self.storage.renew):
                    self.drop(ident)
                for ident in await loop.run_in_executor(self.executor, self.storage.unserved):
                    with contextlib.suppress(RequestError):
                        await self.take(ident)
            except Exception as error:  # the database is away for now: the next round tries again
                logging.getLogger("holdem.server").warning("renewing leases failed: %s", error)

    async def take(self, ident: str) -> bool:
        """Serve table `ident` here if nobody else does (after its lease expired); whether it is served
        here now. The table comes back from its last stored change, as at a restart."""
        if ident in self.rooms or ident in self.tourneys:
            return True
        if self.cluster is None:
            return False
        key = lease_key(ident)  # a tournament's tables come with the tournament
        taking = self.taking.setdefault(key, asyncio.Lock())
        async with taking:  # one take at a time: a second request for it waits for the first's
            if ident in self.rooms or ident in self.tourneys:
                return True
            return await self._take(ident, key)

    async def _take(self, ident: str, key: str) -> bool:
        if key in self.tourneys:  # served here: a table it broke before this process took it over
            await self._reload(ident)
            return ident in self.rooms
        assert self.cluster is not None
        loop = asyncio.get_running_loop()
        if await loop.run_in_executor(self.executor, self.storage.room, key) is None:
            return False  # no such table
        address = self.cluster.address
        if await loop.run_in_executor(self.executor, self.storage.acquire, key, address) is None:
            return False
        await self._reload(key)  # read after the lease is ours: the old owner can write no more
        if key in self.tourneys:
            await self.resume_tourney(key)
        else:
            await self.change(key, Room.resume)
        return ident in self.rooms or ident in self.tourneys

    async def owner_of(self, ident: str) -> tuple[str, float] | None:
        """The address of the process serving table `ident` and the seconds its lease has left (None:
        no such table, or nobody serves it now)."""
        lease = await self.read(self.reads.lease, lease_key(ident))
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
        tourney = self.tourneys.pop(ident, None)
        for table in tourney.rooms if tourney is not None else ():
            self._drop_room(table)
        for connection in self.waiting.pop(ident, set()):
            connection.close(1012)
        self._drop_room(ident)

    def _forget(self, ident: str) -> None:
        """A table leaves memory (it stays stored)."""
        self._drop_room(ident)
        for kept in (self.stored, self._stored_rooms, self.quiet_since, self.locks):
            kept.pop(ident, None)
        self.ticking.discard(ident)
        self.with_bots.discard(ident)

    def _drop_room(self, ident: str) -> None:
        self.rooms.pop(ident, None)
        self.lobby.pop(ident, None)
        for digest in self.held.pop(ident, {}):
            self.tokens.pop(digest, None)
        for connection in self.connections.pop(ident, set()):
            connection.close(1012)  # served elsewhere now: connect again

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as a task of its own, kept until it is done (and cancelled at the stop)."""
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def stop(self) -> None:
        for task in [*self.tasks, *self.background]:
            task.cancel()
        loop = asyncio.get_running_loop()
        if self.cluster is not None:  # hand the tables over at once rather than when the leases expire
            await loop.run_in_executor(self.executor, self.storage.release)
        await loop.run_in_executor(self.executor, self.storage.close)
        await loop.run_in_executor(self.read_executor, self.reads.close)
        self.executor.shutdown()
        self.read_executor.shutdown()

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read of stored rows (`fn` a method of `self.reads`) on a connection of its own, so that
        reads never wait behind a write the database holds up."""
        return await asyncio.get_running_loop().run_in_executor(self.read_executor, fn, *args)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.locks.setdefault(room.id, asyncio.Lock())
        self.connections.setdefault(room.id, set())
        self._index_tokens(room)

    def _index_tokens(self, room: Room) -> None:
        """Keep the token index in step with the room's seats (a look at the room's own tokens only)."""
        held = {member.digest: (room.id, seat) for seat, member in room.members.items()}
        old = self.held.get(room.id, {})
        if held != old:
            for digest, where in old.items():
                if self.tokens.get(digest) == where:  # not since taken by another table (a moved player)
                    del self.tokens[digest]
            self.tokens.update(held)
            self.held[room.id] = held

    def room(self, ident: str) -> Room:
        room = self.rooms.get(ident)
        if room is None:
            raise RequestError(f"no table {ident!r}", 404)
        return room

    async def apply(self, ident: str, fn: Callable[[Room, float], tuple[T, Change | None]]) -> T:
        """Apply `fn` to the room, store the result, then broadcast; a refusal changes nothing."""
        self.room(ident)
        async with self.locks[ident]:
            room = self.rooms.get(ident)
            if room is None:  # dropped while this waited (its lease was lost): served elsewhere now
                raise RequestError("this table moved to another process: reconnect", 503)
            value, change = fn(room, time.monotonic())
            if change is None:
                return value
            write = (room.id, json.dumps(room.to_dict(), separators=(",", ":")), change.hands, change.ledger)
            if room.tournament is not None:  # the director's work goes in the same transaction
                tourney = self.tourneys[room.tournament]
                moves = tourney.after(room, change, self.rooms, time.monotonic())
                extra = moves.rooms.pop(room.id, None)
                if extra is not None:
                    write = (room.id, json.dumps(room.to_dict(), separators=(",", ":")),
                             [*change.hands, *extra.hands], change.ledger)  # fmt: skip
                await self._store_tourney(tourney, moves, time.monotonic(), (room, write))
                return value
            try:
                await self.writer.write(write)
            except LeaseLost:
                self.drop(ident)
                raise RequestError("this table moved to another process: reconnect", 503) from None
            except Exception:
                await self._reload(ident)
                raise RequestError("the change could not be stored, so it was not made", 503) from None
            if self.rooms.get(ident) is not room:  # its lease ran out while this was stored: the room
                return value  # was dropped, its readers told to reconnect to whoever serves it now
            self.stored[room.id] = write[1]
            self._index_tokens(room)
            self.broadcast(room)
        return value

    async def change(self, ident: str, fn: Callable[[Room, float], Change | None]) -> None:
        """`apply` for a change with no value to return: ``hub.change(ident, Room.resume)``."""
        await self.apply(ident, lambda room, now: (None, fn(room, now)))

    async def resume_tourney(self, ident: str) -> None:
        """`run_tourney` with no change but the director's: it deals where it may, stores, broadcasts."""
        await self.run_tourney(ident, lambda tourney, now: (None, Moves()))

    async def _reload(self, ident: str) -> None:
        loop = asyncio.get_running_loop()
        state = await loop.run_in_executor(self.executor, self.storage.room, ident)
        if self.cluster is not None and lease_key(ident) not in self.storage.epochs:
            self.drop(ident)  # its lease was lost while it was read (after a failed write): not ours
            return
        data = json.loads(state) if state is not None else None
        if data is not None and data.get("format") == TOURNEY:  # a tournament: with all its tables
            tourney = self.tourneys[ident] = Tourney.from_dict(data, time.monotonic())
            lock = self.locks.setdefault(ident, asyncio.Lock())
            for table in tourney.rooms:
                await self._reload(table)
                self.locks[table] = lock
        elif data is None:
            self.rooms.pop(ident, None)
            self.tourneys.pop(ident, None)
        else:
            self._loaded(Room.from_dict(data, time.monotonic()))

    def _loaded(self, room: Room) -> None:
        """A room read back from storage: served here, and in the lobby as stored."""
        self._add(room)
        self.lobby[room.id] = self.table_summary(room)
        self.stored[room.id] = json.dumps(room.to_dict(), separators=(",", ":"))
        self._track(room)

    def _track(self, room: Room) -> None:
        """Keep the clock's and the bots' work lists, and the quiet home games, in step with `room`."""
        ident, now = room.id, time.monotonic()
        (self.ticking.add if room.actor_seat() is not None else self.ticking.discard)(ident)
        has_bots = room.home is not None and bool(room.home.bots)
        (self.with_bots.add if has_bots else self.with_bots.discard)(ident)
        if _is_quiet(room) and not self.connections.get(ident):
            self.quiet_since.setdefault(ident, now)
        else:
            self.quiet_since.pop(ident, None)

    async def reopen(self, ident: str) -> None:
        """Serve again a stored table that left memory when it was quiet (not with ``--cluster``,
        where taking a table reads it)."""
        if self.cluster is not None or ident in self.rooms or ident in self.tourneys or "-" in ident:
            return
        state = await self.read(self.reads.room, ident)
        if state is None or ident in self.rooms:
            return
        data = json.loads(state)
        if data.get("format") != TOURNEY:
            self._loaded(Room.from_dict(data, time.monotonic()))

    async def _sweep(self, now: float) -> None:
        """Let the home games that have been quiet for `idle` seconds leave memory and the lobby."""
        for ident, since in list(self.quiet_since.items()):
            room, lock = self.rooms.get(ident), self.locks.get(ident)
            if now - since < self.idle or room is None or lock is None or lock.locked():
                continue
            if not _is_quiet(room) or self.connections.get(ident):
                self.quiet_since.pop(ident, None)
                continue
            self._forget(ident)
            if self.cluster is not None:
                await asyncio.get_running_loop().run_in_executor(self.executor, self.storage.release, ident)

    def table_summary(self, room: Room) -> dict[str, Any]:
        """The lobby's line for a table: its settings, hand number, players and free seats; a
        tournament's table says whether the tournament is over."""
        tourney = self.tourneys.get(room.tournament) if room.tournament is not None else None
        return table_summary(room, finished=tourney is not None and tourney.status == "finished")

    async def attach(self, connection: Connection) -> bool:
        """Add a connection to its room's readers and queue it the room's last stored state, under the
        room's lock: a change being stored is not shown, and no broadcast overtakes this first state.
        A player's token is resolved under the lock too (a tournament's table may have been broken
        meanwhile: `_follow`). When a write holds the lock for longer than `READER_WAIT`, the
        connection is answered at once from the last stored state instead. False when the room is
        no longer served here."""
        lock = self.locks.get(connection.room)
        if lock is None:
            return False
        if not await _acquire(lock, READER_WAIT):
            return self._attach_as_stored(connection)
        try:
            if self._follow(connection):
                return True
            room = self.rooms.get(connection.room)
            if room is None:
                return False
            was_away = self.away(room)
            self.connections[room.id].add(connection)
            self.quiet_since.pop(room.id, None)
            if connection.seat is not None and connection.seat in was_away:
                self.broadcast(room)  # the player is back: everyone sees them so (the last stored state)
            else:
                connection.send(self._state_text(room, connection, time.monotonic()))
        finally:
            lock.release()
        return True

    def _follow(self, connection: Connection) -> bool:
        """Under the lock: send a tournament entrant's connection where their token is now, if that
        is not the table it names (moved, waiting for a seat, or out: told so); whether it was."""
        tourney = self.tourneys.get(lease_key(connection.room))
        if tourney is None or connection.digest is None:
            return False
        where = self.tokens.get(connection.digest)
        live = where is not None and where[0] in tourney.rooms and where[0] in self.rooms
        live = live and tourney.status != "finished"  # the winner too is told their place
        if live and where == (connection.room, connection.seat):
            return False
        for table in self.connections.values():
            table.discard(connection)
        if where is None or not live:
            self.waiting.get(tourney.id, set()).discard(connection)
            self._unseated(tourney, connection)
            return True
        self.waiting.get(tourney.id, set()).discard(connection)
        connection.room, connection.seat = where
        self.connections[where[0]].add(connection)
        connection.send(json.dumps({"type": "moved", "table": where[0], "seat": where[1]}))
        connection.send(self._state_text(self.rooms[where[0]], connection, time.monotonic()))
        return True

    def _attach_as_stored(self, connection: Connection) -> bool:
        """A write holds the room's lock: answer from its last stored state (never the change being
        stored), and add the connection to the readers, who get the next state when it is stored."""
        room = self._as_stored(connection.room)
        if room is None:
            return False
        self.connections.setdefault(connection.room, set()).add(connection)
        connection.send(self._state_text(room, connection, time.monotonic()))
        return True

    def _as_stored(self, ident: str) -> Room | None:
        """Table `ident` as last stored, read back from its JSON (kept until the next store)."""
        text = self.stored.get(ident)
        if text is None or ident not in self.rooms:
            return None
        kept = self._stored_rooms.get(ident)
        if kept is None or kept[0] is not text:
            kept = self._stored_rooms[ident] = (text, Room.from_dict(json.loads(text), time.monotonic()))
        return kept[1]

    def detach(self, connection: Connection) -> None:
        """A connection closed: it reads nothing more; a player with no connection left is marked away."""
        self.connections.get(connection.room, set()).discard(connection)
        self.waiting.get(connection.room, set()).discard(connection)
        connection.send(None)
        room = self.rooms.get(connection.room)
        if room is not None:
            self._track(room)
        if room is not None and connection.seat is not None and connection.seat in self.away(room):
            self.later(self._away(room.id))

    async def _away(self, ident: str) -> None:
        lock = self.locks.get(ident)
        if lock is not None:
            async with lock:
                if ident in self.rooms:
                    self.broadcast(self.rooms[ident])

    async def resend(self, connection: Connection) -> None:
        """Send a connection its room's last stored state again (it asked: it may have missed one); a
        tournament entrant's connection is first sent where its token is now (`_follow`). While a
        write holds the lock, the answer comes at once from the last stored state."""
        lock = self.locks.get(connection.room)
        if lock is None:
            connection.close(1012)  # no longer served here: connect again
            return
        if not await _acquire(lock, READER_WAIT):
            room = self._as_stored(connection.room)
            if room is not None:
                connection.send(self._state_text(room, connection, time.monotonic()))
            return
        try:
            if self._follow(connection):
                return
            room = self.rooms.get(connection.room)
            if room is not None and connection in self.connections.get(room.id, ()):
                connection.send(self._state_text(room, connection, time.monotonic()))
        finally:
            lock.release()

    def _state_text(self, room: Room, connection: Connection, now: float) -> str:
        away = self.away(room)
        return json.dumps(state_message(room, connection.seat, now, with_view=connection.views, away=away))

    def away(self, room: Room) -> set[int]:
        """The seats whose players have no connection open here (a host's bot is never away)."""
        present = {c.seat for c in self.connections.get(room.id, ()) if c.digest is not None}
        bots = room.home.bots if room.home is not None else {}
        return {s for s in room.members if s not in present and s not in bots}

    def broadcast(self, room: Room) -> None:
        """Queue each reader of `room` its new state, which has just been stored."""
        self.lobby[room.id] = self.table_summary(room)
        self._track(room)
        now, texts = time.monotonic(), {}
        for connection in list(self.connections[room.id]):
            where = self.tokens.get(connection.digest) if connection.digest is not None else None
            if connection.digest is not None and where != (room.id, connection.seat):
                self.connections[room.id].discard(connection)
                if where is not None and room.tournament is not None:  # moved to another table
                    connection.room, connection.seat = where
                    self.connections[where[0]].add(connection)
                    connection.send(json.dumps({"type": "moved", "table": where[0], "seat": where[1]}))
                    connection.send(self._state_text(self.rooms[where[0]], connection, now))
                    continue
                if room.tournament is not None:  # out of the tournament, or not at a table for now
                    self._unseated(self.tourneys[room.tournament], connection)
                    continue
                connection.send(None)  # the seat was left: this token sees nothing more
                continue
            key = (connection.seat, connection.views)
            if key not in texts:
                texts[key] = self._state_text(room, connection, now)
            connection.send(texts[key])

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
            for ident, tourney in list(self.tourneys.items()):
                if tourney.due(now):  # a scheduled tournament's start
                    with contextlib.suppress(RequestError):
                        await self.run_tourney(ident, self._start_tourney)
            for ident in list(self.ticking):
                room = self.rooms.get(ident)
                if room is None:
                    self.ticking.discard(ident)
                    continue
                away = self.away(room)  # a player with no connection open has a shorter clock
                clock = room.clock(now, away)
                if clock is not None and clock[1] <= 0 and clock[2] <= 0:
                    with contextlib.suppress(RequestError):  # not stored: the next tick tries again
                        await self.change(ident, functools.partial(Room.expire, away=away))

    def open_games(self) -> int:
        """Home games served here that are not over."""
        return sum(1 for room in self.rooms.values() if room.home is not None and not room.home.ended)

    def is_admin(self, request: Request) -> bool:
        return hmac.compare_digest(bearer(request).encode(), self.admin.encode())

    def check_admin(self, request: Request) -> None:
        if not self.is_admin(request):
            raise RequestError("this needs the admin token: Authorization: Bearer ADMIN_TOKEN", 401)
