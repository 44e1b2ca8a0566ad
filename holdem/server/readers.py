"""Who reads each table, and what they are sent: only stored state is ever shown.

A reader is sent a room's last stored state: when it connects and asks again, under the room's lock,
so a change that is being stored is invisible until its write commits (when a write holds the lock
for longer than `READER_WAIT`, the answer comes at once from the state as last stored), and after
each stored change (`Readers.broadcast`). A tournament entrant's connection follows their token from
table to table, waits while they hold no seat, and is told their place and prize when they are out.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any

from holdem.server import Close
from holdem.server.connection import Connection
from holdem.server.messages import finished_message, moved_message, state_message, waiting_message
from holdem.server.registry import Registry
from holdem.server.room import Room
from holdem.server.storage import lease_key
from holdem.server.tourney import Status, Tourney

__all__ = ["READER_WAIT", "SPECTATORS_PER_ADDRESS", "SPECTATORS_PER_TABLE", "Readers"]

SPECTATORS_PER_ADDRESS = 20
"""Spectators' connections one address may hold open, over all tables (4429 past it)."""
SPECTATORS_PER_TABLE = 300
"""Spectators one table takes at once (4429 past it)."""
SHARED_FOR = 0.5
"""Seconds a spectator's state built for one is given to others who ask, unless the table changes."""
GIVE_BACK_AFTER = 100
"""After this many connections close (a crowd leaving), the memory they held goes back to the system
once the closing has stopped for a second."""
SPECTATOR_INTERVAL = 0.2
"""Spectators are sent a table's newest state at most this often: changes closer together than this
(bots at full speed) reach them as the latest of them, a moment later. Players get every state."""

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


class Readers:
    """Each table's open connections, the entrants waiting for a seat by tournament, and each table's
    state JSON as last stored (with the room read back from it, for readers answered without the
    lock). `later` runs a short task of the server's (`Hub.later`); `seen(room, listed)` is the hub's
    (`Hub._seen`): the registry's lobby line (`listed`) and work lists, after a room's readers changed
    or were sent it. The registry is read here, never changed."""

    def __init__(
        self,
        registry: Registry,
        later: Callable[[Coroutine[Any, Any, None]], None],
        seen: Callable[[Room, bool], None],
    ) -> None:
        self.registry, self.later, self.seen = registry, later, seen
        self.connections: dict[str, set[Connection]] = {}
        self.waiting: dict[str, set[Connection]] = {}
        self._stored: dict[str, str] = {}
        self._stored_rooms: dict[str, tuple[str, Room]] = {}
        self._watching: dict[str, int] = {}  # spectators' connections open, by address
        self._spectators: dict[str, tuple[float, str]] = {}  # each table's spectator state, when built
        self._sent: dict[str, float] = {}  # when each table's spectators were last sent its state
        self._flushing: set[str] = set()  # tables whose spectators are to be sent the latest state soon
        self._closed = 0  # connections closed since memory was last given back
        self._giving_back = False

    def admit_spectator(self, ident: str, address: str) -> str | None:
        """Count a spectator of table `ident` from `address`; or why not (past a cap), counting nothing."""
        if self._watching.get(address, 0) >= SPECTATORS_PER_ADDRESS:
            return f"too many spectators from your address (at most {SPECTATORS_PER_ADDRESS})"
        watching = sum(c.digest is None for c in self.connections.get(ident, ()))
        if watching >= SPECTATORS_PER_TABLE:
            return f"this table has as many spectators as it takes ({SPECTATORS_PER_TABLE})"
        self._watching[address] = self._watching.get(address, 0) + 1
        return None

    def spectator_left(self, address: str) -> None:
        """A spectator's connection counted by `admit_spectator` closed."""
        left = self._watching.get(address, 0) - 1
        if left > 0:
            self._watching[address] = left
        else:
            self._watching.pop(address, None)

    def serve(self, ident: str) -> None:
        """Table `ident` is served here: its readers may attach."""
        self.connections.setdefault(ident, set())

    def close(self, ident: str) -> None:
        """Table `ident` is no longer served here: its readers are told to connect again."""
        for connection in self.connections.pop(ident, set()):
            connection.close(Close.RESTART)

    def forget(self, ident: str) -> None:
        """Table `ident` leaves memory: its readers close and its stored state is let go."""
        self.close(ident)
        self._stored.pop(ident, None)
        self._stored_rooms.pop(ident, None)
        self._spectators.pop(ident, None)
        self._sent.pop(ident, None)

    def close_waiting(self, tourney: str) -> None:
        """A tournament is no longer served here: its waiting entrants connect again."""
        for connection in self.waiting.pop(tourney, set()):
            connection.close(Close.RESTART)

    def track(self, room: Room) -> None:
        """The registry's work lists, in step with `room` and its readers."""
        self.seen(room, False)

    def note_stored(self, ident: str, state: str) -> None:
        """Table `ident`'s state as just stored: what its readers are sent from now on."""
        self._stored[ident] = state

    async def attach(self, connection: Connection) -> bool:
        """Add a connection to its room's readers and queue it the room's last stored state, under the
        room's lock: a change being stored is not shown, and no broadcast overtakes this first state.
        A player's token is resolved under the lock too (a tournament's table may have been broken
        meanwhile: `_follow`). When a write holds the lock for longer than `READER_WAIT`, the
        connection is answered at once from the last stored state instead. False when the room is
        no longer served here."""
        lock = self.registry.locks.get(connection.room)
        if lock is None:
            return False
        if not await _acquire(lock, READER_WAIT):
            return self._attach_as_stored(connection)
        try:
            if self._follow(connection):
                return True
            room = self.registry.rooms.get(connection.room)
            if room is None:
                return False
            was_away = self.away(room)
            self.connections[room.id].add(connection)
            self.track(room)  # someone is here: not quiet
            if connection.seat is not None and connection.seat in was_away:
                self.broadcast(room)  # the player is back: everyone sees them so (the last stored state)
            else:
                connection.send(self.state_text(room, connection, time.monotonic()))
        finally:
            lock.release()
        return True

    def _follow(self, connection: Connection) -> bool:
        """Under the lock: send a tournament entrant's connection where their token is now, if that
        is not the table it names (moved, waiting for a seat, or out: told so); whether it was."""
        tourney = self.registry.tourneys.get(lease_key(connection.room))
        if tourney is None or connection.digest is None:
            return False
        where = self.registry.digests.get(connection.digest)
        live = where is not None and where[0] in tourney.rooms and where[0] in self.registry.rooms
        live = live and tourney.status is not Status.FINISHED  # the winner too is told their place
        if live and where == (connection.room, connection.seat):
            return False
        for table in self.connections.values():
            table.discard(connection)
        self.waiting.get(tourney.id, set()).discard(connection)
        if where is None or not live:
            self.unseated(tourney, connection)
        else:
            self._move(connection, where, time.monotonic())
        return True

    def _move(self, connection: Connection, where: tuple[str, int], now: float) -> None:
        """A tournament entrant's connection to their (new) table and seat, told so and sent its state."""
        connection.room, connection.seat = where
        self.connections[where[0]].add(connection)
        connection.send(moved_message(where[0], where[1]))
        connection.send(self.state_text(self.registry.rooms[where[0]], connection, now))

    def _attach_as_stored(self, connection: Connection) -> bool:
        """A write holds the room's lock: answer from its last stored state (never the change being
        stored), and add the connection to the readers, who get the next state when it is stored."""
        room = self.as_stored(connection.room)
        if room is None:
            return False
        self.connections.setdefault(connection.room, set()).add(connection)
        connection.send(self.state_text(room, connection, time.monotonic()))
        return True

    def as_stored(self, ident: str) -> Room | None:
        """Table `ident` as last stored, read back from its JSON (kept until the next store)."""
        text = self._stored.get(ident)
        if text is None or ident not in self.registry.rooms:
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
        self._closed += 1
        if self._closed >= GIVE_BACK_AFTER and not self._giving_back:
            self._giving_back = True
            self.later(self._give_back())
        room = self.registry.rooms.get(connection.room)
        if room is not None:
            self.track(room)
        if room is not None and connection.seat is not None and connection.seat in self.away(room):
            self.later(self._away(room.id))

    async def _give_back(self) -> None:
        """Once a crowd has left (no more closes for a second), give the memory it held back."""
        while True:
            closed = self._closed
            await asyncio.sleep(1.0)
            if self._closed == closed:
                break
        self._closed, self._giving_back = 0, False
        give_back_memory()

    async def _away(self, ident: str) -> None:
        lock = self.registry.locks.get(ident)
        if lock is not None:
            async with lock:
                if ident in self.registry.rooms:
                    self.broadcast(self.registry.rooms[ident])

    async def resend(self, connection: Connection) -> None:
        """Send a connection its room's last stored state again (it asked: it may have missed one); a
        tournament entrant's connection is first sent where its token is now (`_follow`). While a
        write holds the lock, the answer comes at once from the last stored state."""
        lock = self.registry.locks.get(connection.room)
        if lock is None:
            connection.close(Close.RESTART)  # no longer served here: connect again
            return
        if not await _acquire(lock, READER_WAIT):
            room = self.as_stored(connection.room)
            if room is not None:
                connection.send(self.state_text(room, connection, time.monotonic()))
            return
        try:
            if self._follow(connection):
                return
            room = self.registry.rooms.get(connection.room)
            if room is not None and connection in self.connections.get(room.id, ()):
                connection.send(self.state_text(room, connection, time.monotonic()))
        finally:
            lock.release()

    def state_text(self, room: Room, connection: Connection, now: float) -> str:
        """The state `connection` is sent. A spectator's is built once per change and shared by all
        (`broadcast` drops it), and for new spectators and state requests until it is `SHARED_FOR`
        seconds old (the clock in it is that much behind at most); a player's is built for them."""
        if not _spectator(connection):
            return self._state_text(room, connection.seat, connection.views, now)
        live = room is self.registry.rooms.get(room.id)  # (not a copy read back as stored)
        built = self._spectators.get(room.id) if live else None
        if built is not None and now - built[0] < SHARED_FOR:
            return built[1]
        text = self._state_text(room, None, False, now)
        if live:
            self._spectators[room.id] = (now, text)
        return text

    def _state_text(self, room: Room, seat: int | None, views: bool, now: float) -> str:
        return json.dumps(state_message(room, seat, now, with_view=views, away=self.away(room)))

    def away(self, room: Room) -> set[int]:
        """The seats whose players have no connection open here (a host's bot is never away)."""
        present = {c.seat for c in self.connections.get(room.id, ()) if c.digest is not None}
        bots = room.home.bots if room.home is not None else {}
        return {s for s in room.members if s not in present and s not in bots}

    def broadcast(self, room: Room) -> None:
        """Queue each reader of `room` its new state, which has just been stored: each player theirs,
        the spectators one shared text, at most every `SPECTATOR_INTERVAL` seconds."""
        self.seen(room, True)
        self._spectators.pop(room.id, None)
        now, texts, watched = time.monotonic(), {}, False
        for connection in list(self.connections[room.id]):
            where = self.registry.digests.get(connection.digest) if connection.digest is not None else None
            if connection.digest is not None and where != (room.id, connection.seat):
                self.connections[room.id].discard(connection)
                if where is not None and room.tournament is not None:  # moved to another table
                    self._move(connection, where, now)
                elif room.tournament is not None:  # out of the tournament, or not at a table for now
                    self.unseated(self.registry.tourneys[room.tournament], connection)
                else:
                    connection.send(None)  # the seat was left: this token sees nothing more
                continue
            if _spectator(connection):
                watched = True
                continue
            key = (connection.seat, connection.views)
            if key not in texts:
                texts[key] = self.state_text(room, connection, now)
            connection.send(texts[key])
        if watched:  # built once, as stored now, for every spectator
            self._spectators[room.id] = (now, self._state_text(room, None, False, now))
            self._to_spectators(room.id, now)

    def _to_spectators(self, ident: str, now: float) -> None:
        """Send the spectators of `ident` its latest stored state, or soon if they were just sent one."""
        wait = SPECTATOR_INTERVAL - (now - self._sent.get(ident, -SPECTATOR_INTERVAL))
        if wait > 0:
            if ident not in self._flushing:
                self._flushing.add(ident)
                self.later(self._flush(ident, wait))
            return
        built = self._spectators.get(ident)
        if built is None:
            return
        self._sent[ident] = now
        for connection in list(self.connections.get(ident, ())):
            if _spectator(connection):
                connection.send(built[1])

    async def _flush(self, ident: str, wait: float) -> None:
        await asyncio.sleep(wait)
        self._flushing.discard(ident)
        self._to_spectators(ident, time.monotonic())

    def unseated(self, tourney: Tourney, connection: Connection) -> None:
        """An entrant's connection while they hold no seat: told their place and prize and closed when
        they are out, otherwise told to wait, and moved to their table when they are seated."""
        assert connection.digest is not None
        connection.room, connection.seat = tourney.id, None
        if tourney.entrant(connection.digest) in tourney.place:
            connection.send(json.dumps(finished_message(tourney, connection.digest, self.registry.rooms)))
            connection.close(Close.DONE)
            return
        self.waiting.setdefault(tourney.id, set()).add(connection)
        connection.send(waiting_message(tourney.id, tourney.status))

    def entrants_moved(self, tourney: Tourney, now: float) -> None:
        """After a tournament's change is stored: waiting entrants who got a seat join their table's
        readers; when the tournament is over, every entrant still connected is told their place and
        prize, the winner included, and their connection closed."""
        for connection in list(self.waiting.get(tourney.id, ())):
            assert connection.digest is not None
            where = self.registry.digests.get(connection.digest)
            if where is not None:
                self.waiting[tourney.id].discard(connection)
                self._move(connection, where, now)
            elif tourney.entrant(connection.digest) in tourney.place:
                self.waiting[tourney.id].discard(connection)
                self.unseated(tourney, connection)
        if tourney.status is not Status.FINISHED:
            return
        for ident in tourney.rooms:
            for connection in list(self.connections.get(ident, ())):
                if connection.digest is not None:
                    self.connections[ident].discard(connection)
                    self.unseated(tourney, connection)


def _spectator(connection: Connection) -> bool:
    """A connection with no seat's token (and so no view of its own)."""
    return connection.digest is None and connection.seat is None and not connection.views


def give_back_memory() -> None:
    """Collect garbage and hand the C heap's free pages back to the system (glibc's ``malloc_trim``;
    elsewhere only the collection), so that memory a crowd of connections held is not kept."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
