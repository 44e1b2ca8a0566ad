"""The tables and tournaments served by this process, found by id and by token: each table's lock,
the token index, the lobby's lines, and the work lists the clock keeps (tables with a player to act,
home games with a host's bot, home games quiet enough to leave memory)."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from holdem.errors import NotFoundError
from holdem.server.room import Room
from holdem.server.tourney import Status, Tourney

__all__ = ["Registry", "is_quiet", "table_summary"]


def is_quiet(room: Room) -> bool:
    """A home game with no hand in progress that is over, or has nobody seated or asking: it may
    leave memory once nobody is connected (`Hub._sweep`)."""
    home = room.home
    if home is None or room.table.hand is not None:
        return False
    return home.ended or (not room.members and not home.pending)


def table_summary(room: Room, *, finished: bool = False) -> dict[str, Any]:
    """A table as the lobby lists it (`finished`: its tournament is over)."""
    return {
        "id": room.id,
        "config": room.config.to_dict(),
        "hand": room.number,
        "players": [
            {"seat": s, "name": m.name, "stack": (p.stack if (p := room.table.seats[s]) else 0) + m.joining}
            for s, m in sorted(room.members.items())
        ],
        "free_seats": room.free_seats(),
        "asking": [{"seat": s, "name": p.name} for s, p in sorted(room.home.pending.items())]
        if room.home
        else [],
        "tournament": room.tournament,
        "finished": finished,
        "home": {"name": room.home.name, "listed": room.home.listed, "ended": room.home.ended}
        if room.home
        else None,
    }


class Registry:
    """Rooms and tournaments by id, their locks (a tournament's tables share its lock), the token
    index (token digest -> (room, seat), every room, and the same room by room), the lobby's line of
    each table as last stored, and the clock's work lists."""

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}
        self._tourneys: dict[str, Tourney] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._digests: dict[str, tuple[str, int]] = {}
        self._held: dict[str, dict[str, tuple[str, int]]] = {}
        self._lobby: dict[str, dict[str, Any]] = {}
        self._ticking: set[str] = set()  # tables with a player to act: the clock's only work
        self._with_bots: set[str] = set()  # home games with a host's bot: the bots' only work
        self._quiet_since: dict[str, float] = {}  # home games that may leave memory, since when

    # What others read: the containers themselves, typed read-only (no copy on the hot path); only the
    # methods below change them, and only the hub calls those (the layout test checks both).
    @property
    def rooms(self) -> Mapping[str, Room]:
        return self._rooms

    @property
    def tourneys(self) -> Mapping[str, Tourney]:
        return self._tourneys

    @property
    def locks(self) -> Mapping[str, asyncio.Lock]:
        """Each table's lock; a tournament's tables share the tournament's."""
        return self._locks

    @property
    def digests(self) -> Mapping[str, tuple[str, int]]:
        """Token digest -> (table, seat)."""
        return self._digests

    @property
    def tokens(self) -> Mapping[str, tuple[str, int]]:
        """0.1's name for `digests`; warns, and goes in 0.3."""
        warnings.warn(
            "Registry.tokens is now Registry.digests; tokens goes in 0.3", DeprecationWarning, stacklevel=2
        )
        return self._digests

    @property
    def lobby(self) -> Mapping[str, dict[str, Any]]:
        """Each table's lobby line, as last stored."""
        return self._lobby

    @property
    def ticking(self) -> AbstractSet[str]:
        return self._ticking

    @property
    def with_bots(self) -> AbstractSet[str]:
        return self._with_bots

    @property
    def quiet_since(self) -> Mapping[str, float]:
        return self._quiet_since

    def serves(self, ident: str) -> bool:
        """Whether table or tournament `ident` is served here."""
        return ident in self.rooms or ident in self.tourneys

    def room(self, ident: str) -> Room:
        room = self.rooms.get(ident)
        if room is None:
            raise NotFoundError(f"no table {ident!r}")
        return room

    def add(self, room: Room) -> None:
        """Serve `room` here: a tournament's table under the tournament's lock when that is served
        here, any other with a lock of its own (kept if it had one)."""
        self._rooms[room.id] = room
        shared = self._locks.get(room.tournament) if room.tournament is not None else None
        if shared is not None:
            self._locks[room.id] = shared
        else:
            self._locks.setdefault(room.id, asyncio.Lock())
        self.index_digests(room)

    def add_tourney(self, tourney: Tourney) -> None:
        """Serve `tourney` here, with a lock its tables share (those served already move under it)."""
        self._tourneys[tourney.id] = tourney
        lock = self._locks.setdefault(tourney.id, asyncio.Lock())
        for table in tourney.rooms:
            if table in self._rooms:
                self._locks[table] = lock

    def remove_tourney(self, ident: str) -> Tourney | None:
        """Tournament `ident` is no longer served here (its tables go one by one: `remove`)."""
        return self._tourneys.pop(ident, None)

    def list_in_lobby(self, room: Room) -> None:
        """The lobby's line for `room`, as it is now (called once its state is stored)."""
        self._lobby[room.id] = self.summary(room)

    def not_quiet(self, ident: str) -> None:
        """Someone came to table `ident`: it is not quiet (until `track` finds it so again)."""
        self._quiet_since.pop(ident, None)

    def stop_ticking(self, ident: str) -> None:
        """Table `ident` needs the clock no more (it left memory)."""
        self._ticking.discard(ident)

    def index_digests(self, room: Room) -> None:
        """Keep the token index in step with the room's seats (a look at the room's own tokens only)."""
        held = {member.digest: (room.id, seat) for seat, member in room.members.items()}
        old = self._held.get(room.id, {})
        if held != old:
            for digest, where in old.items():
                if self._digests.get(digest) == where:  # not since taken by another table (a moved player)
                    del self._digests[digest]
            self._digests.update(held)
            self._held[room.id] = held

    def remove(self, ident: str) -> None:
        """Table `ident` is no longer served here: out of the lobby, its tokens out of the index."""
        self._rooms.pop(ident, None)
        self._lobby.pop(ident, None)
        for digest in self._held.pop(ident, {}):
            self._digests.pop(digest, None)

    def forget(self, ident: str) -> None:
        """Table `ident` leaves memory (it stays stored): its lock and work lists go too."""
        self.remove(ident)
        self._quiet_since.pop(ident, None)
        self._locks.pop(ident, None)
        self._ticking.discard(ident)
        self._with_bots.discard(ident)

    def summary(self, room: Room) -> dict[str, Any]:
        """The lobby's line for a table; a tournament's table says whether the tournament is over."""
        tourney = self._tourneys.get(room.tournament) if room.tournament is not None else None
        return table_summary(room, finished=tourney is not None and tourney.status is Status.FINISHED)

    def track(self, room: Room, connected: bool) -> None:
        """Keep the clock's and the bots' work lists, and the quiet home games, in step with `room`
        (`connected`: whether anyone has a connection open to it)."""
        ident, now = room.id, time.monotonic()
        (self._ticking.add if room.actor_seat() is not None else self._ticking.discard)(ident)
        has_bots = room.home is not None and bool(room.home.bots)
        (self._with_bots.add if has_bots else self._with_bots.discard)(ident)
        if is_quiet(room) and not connected:
            self._quiet_since.setdefault(ident, now)
        else:
            self._quiet_since.pop(ident, None)

    def open_games(self) -> int:
        """Home games served here that are not over."""
        return sum(1 for room in self._rooms.values() if room.home is not None and not room.home.ended)
