"""A tournament hosted by the server: registration, its tables as rooms, and its director (rules 22-31).

A `Tourney` is plain state with no I/O, as a `Room` is. Its director is `holdem.tournament.run`'s on
live tables: the same seat draw (rule 22), breaking and balancing (rules 24, 25), places and prizes
(rules 28, 29), hand-for-hand on the bubble (rule 27); levels change as hands start (rule 23).
Players are moved only between hands: when a table must be broken or balanced, or on the bubble,
each table that finishes a hand waits until every table has finished its hand, then the director
settles, moves and deals them all together.

Levels follow the tournament's own clock, which runs while a process serves the tournament and
stops while none does: after a restart it resumes from the minute stored with the last change.
A sit-and-go starts when `entrants` have registered. A scheduled tournament (`start_at`, a Unix
time) starts then with whoever registered (at most `entrants`; with fewer than two it is cancelled and
the buy-ins refunded). Registration may stay open after the start until the end of level
`late_until_level`: a late entrant is seated at the shortest table when it is between hands, and the
players out before registration closes take their places when it does, the earliest the lowest.
"""

from __future__ import annotations

import hmac
import json
import random
import secrets
import time
import warnings
from collections import ChainMap
from collections.abc import Mapping, MutableMapping
from enum import StrEnum
from typing import Any, cast

import attrs

from holdem.console.fields import Field, check_object, read_fields
from holdem.errors import HoldemError, RefusedError, RequestError
from holdem.server import Message
from holdem.server.change import Change, LedgerRow
from holdem.server.config import TableConfig, check_lookalike, player_name
from holdem.server.room import Member, Room, token_digest
from holdem.table.table import Table
from holdem.tournament.payouts import payout_shares, prizes
from holdem.tournament.run import draw_seats, place_busts, rebalance, seated
from holdem.tournament.structure import SHIPPED, BlindStructure, load_structure, structure

__all__ = ["FORMAT", "Moves", "Status", "Tourney", "TourneyConfig", "tourney_config"]

FORMAT = "holdem/tournament"
_KEYS = ("structure", "seats", "entrants", "buy_in", "shares", "action_seconds", "time_bank_seconds",
         "start_at", "late_until_level")  # fmt: skip


@attrs.frozen
class TourneyConfig:
    """The structure (levels, starting stack), seats per table, the field (a sit-and-go starts when it
    is full), the buy-in, the prize shares by place, and each decision's clock."""

    structure: BlindStructure
    seats: int = 9
    entrants: int = 9
    buy_in: int = 100
    shares: tuple[float, ...] = ()
    action_seconds: float = 20.0
    time_bank_seconds: float = 60.0
    start_at: float | None = None
    late_until_level: int = 0

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=False) | {
            "structure": self.structure.to_dict(),
            "shares": list(self.shares),
        }


_DEFAULT = {name: field.default for name, field in attrs.fields_dict(TourneyConfig).items()}
_FIELDS = {
    "seats": Field("whole", _DEFAULT["seats"], 2, 10),
    "entrants": Field("whole", _DEFAULT["entrants"], 2, 1000),
    "buy_in": Field("whole", _DEFAULT["buy_in"], 0, 10**9),
    "action_seconds": Field("seconds", _DEFAULT["action_seconds"]),
    "time_bank_seconds": Field("seconds", _DEFAULT["time_bank_seconds"]),
}
"""The tournament's plain settings, each with its kind, default and bounds (`holdem.console.fields`);
the structure, shares, start and late registration are checked below."""


_LAST_TIME = 253_402_300_799  # 9999-12-31 23:59:59 UTC
_LONGEST_LEVEL = 10_080.0  # minutes: a week


def _check_levels(chosen: BlindStructure) -> None:
    """A structure's levels last at most a week each (its chips are within `CHIP_LIMIT` already)."""
    for k, level in enumerate(chosen.levels, start=1):
        if level.duration > _LONGEST_LEVEL:
            raise RequestError(f"level {k}: duration must be at most {_LONGEST_LEVEL:,.0f} minutes")


def tourney_config(data: Any) -> TourneyConfig:
    """The settings of ``POST /api/tournaments`` (missing fields take their defaults). `structure` is a
    shipped name or ``{"starting_stack": N, "levels": [...]}`` as a structure file holds."""
    data = check_object(data, "tournament settings", _KEYS, RequestError)
    raw = data.get("structure", "turbo")
    try:
        if isinstance(raw, str):
            if raw not in SHIPPED:
                raise RequestError(
                    f"unknown structure {raw!r}: give one of {', '.join(SHIPPED)}, or its levels"
                )
            chosen = load_structure(raw)
        elif isinstance(raw, dict):
            stack: Any = raw.get("starting_stack")  # checked by `structure`
            chosen = structure(str(raw.get("name", "custom")), stack, raw.get("levels", ()))
        else:
            raise RequestError(f"structure must be a name or an object, got {raw!r}")
    except RequestError:
        raise
    except HoldemError as error:
        raise RequestError(str(error)) from None
    _check_levels(chosen)
    values: dict[str, Any] = {"structure": chosen, **read_fields(data, _FIELDS, RequestError)}
    values["action_seconds"], values["time_bank_seconds"] = (
        float(values["action_seconds"]), float(values["time_bank_seconds"]))  # fmt: skip
    shares = data.get("shares", list(payout_shares(values["entrants"])))
    if (
        not isinstance(shares, list)
        or not shares
        or len(shares) > values["entrants"]
        or not all(isinstance(x, int | float) and not isinstance(x, bool) and 0 < x <= 1e6 for x in shares)
    ):
        raise RequestError(
            f"shares must be 1 to {values['entrants']} numbers above 0, at most 1,000,000, got {shares!r}"
        )
    values["shares"] = tuple(float(x) for x in shares)
    try:  # every prize the field could win, computed once here rather than failing later
        prizes(values["buy_in"] * values["entrants"], values["shares"])
    except HoldemError as error:
        raise RequestError(f"shares: {error}") from None
    start_at = data.get("start_at")
    if start_at is not None and (
        isinstance(start_at, bool) or not isinstance(start_at, int | float) or not 0 <= start_at <= _LAST_TIME
    ):
        raise RequestError(
            f"start_at must be a Unix time in seconds (before the year 10000), got {start_at!r}"
        )
    values["start_at"] = None if start_at is None else float(start_at)
    late = data.get("late_until_level", 0)
    if type(late) is not int or not 0 <= late <= 1000:
        raise RequestError(f"late_until_level must be a level number from 0 (none) to 1,000, got {late!r}")
    values["late_until_level"] = late
    return TourneyConfig(**values)


@attrs.define
class Moves:
    """What the director changed besides the table it was called for: other tables (with any hands
    they finished), and the tournament's own ledger rows (buy-ins, prizes)."""

    rooms: dict[str, Change] = attrs.Factory(dict)
    ledger: list[LedgerRow] = attrs.Factory(list)
    new: list[Room] = attrs.Factory(list)  # tables made for late entrants

    def touch(self, room: Room, change: Change | None = None) -> None:
        held = self.rooms.setdefault(room.id, Change())
        if change is not None:
            held.hands += change.hands
            held.ledger += change.ledger


class Status(StrEnum):
    """Where a tournament stands; stored and sent as its string."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


_OPEN = (Status.REGISTERING, Status.RUNNING)


class Tourney:
    """A tournament: its entrants (with their tokens' digests), its tables (rooms), places and prizes."""

    def __init__(self, ident: str, config: TourneyConfig) -> None:
        self.id = ident
        self.config = config
        self.entrants: list[str] = []
        self.digests: dict[str, str] = {}  # name -> the digest of the entrant's token
        self.status = Status.REGISTERING
        self.rooms: list[str] = []  # the tables in play, in table order (the last is broken first)
        self.place: dict[str, int] = {}
        self.prize: dict[str, int] = {}
        self.prizes: tuple[int, ...] = ()
        self.minutes = 0.0  # minutes on the tournament clock at `since` (a monotonic time in seconds)
        self.since = 0.0
        self.waiting = False  # tables wait for each other: a move is due, or hand-for-hand (rule 27)
        self.round_busted: list[tuple[str, int]] = []  # hand-for-hand: players out in this round
        self.ledger_seq = 0
        self.late: list[str] = []  # late entrants waiting for a seat
        self.early: list[list[tuple[str, int]]] = []  # players out while registration is open, by hand
        self.open = True  # registration
        self.made = 0  # tables made so far (a late entrant may need a new one)

    # ------------------------------------------------------------ reading
    def clock(self, now: float) -> float:
        """Minutes on the tournament clock."""
        return self.minutes + (now - self.since) / 60 if self.status is Status.RUNNING else self.minutes

    def left(self) -> int:
        """Players still in (late entrants waiting for a seat included)."""
        return len(self.entrants) - len(self.place) - sum(len(group) for group in self.early)

    def summary(self, now: float) -> dict[str, Any]:
        """What the lobby shows: the field, the level and the clock, places and prizes."""
        structure_ = self.config.structure
        minutes = self.clock(now)
        level = structure_.level_at(minutes)
        ends = (
            sum(lv.duration for lv in structure_.levels[: level + 1])
            if level < len(structure_.levels)
            else None
        )
        stakes = structure_.level(level)
        return {
            "id": self.id,
            "status": self.status,
            "registration": "open" if self.open and self.status in _OPEN else "closed",
            "config": self.config.to_dict(),
            "entrants": len(self.entrants),
            "left": self.left(),
            "tables": list(self.rooms),
            "level": level + 1,
            "blinds": [stakes.small_blind, stakes.big_blind, stakes.ante],
            "minutes": round(minutes, 3),
            "next_level_in": None if ends is None else round(ends - minutes, 3),
            "prizes": list(self.prizes)
            or prizes(self.config.buy_in * self.config.entrants, self.config.shares),
            "results": sorted(
                ({"name": n, "place": p, "prize": self.prize[n]} for n, p in self.place.items()),
                key=lambda r: (r["place"], r["name"]),
            ),
        }

    def entrant(self, digest: str) -> str | None:
        """The entrant whose token has this digest (compared in constant time), or None."""
        found = None
        for name, held in self.digests.items():
            if hmac.compare_digest(held, digest):
                found = name
        return found

    def finish_of(self, digest: str) -> dict[str, Any]:
        """The message for an entrant who is out (by their token's digest): place, prize, the field."""
        name = self.entrant(digest)
        place = self.place.get(name) if name is not None else None
        prize = self.prize.get(name, 0) if name is not None else 0
        return {"type": Message.FINISHED, "tournament": self.id, "name": name, "place": place, "prize": prize,
                "entrants": len(self.entrants)}  # fmt: skip

    # ------------------------------------------------------------ requests
    def register(self, name: Any, now: float) -> tuple[str, list[Room], list[LedgerRow]]:
        """Enter the tournament; returns the token, the tables made if this entry filled the field
        (the tournament starts), and the buy-in's ledger row."""
        self.close_registration(now)
        if not self.open or self.status not in _OPEN:
            raise RefusedError(f"tournament {self.id} is {self.status}: registration is closed")
        if len(self.entrants) >= self.config.entrants:
            raise RefusedError(f"tournament {self.id} is full ({self.config.entrants} entrants)")
        name = player_name(name)
        held = [entrant for entrant in self.digests if entrant.casefold() == name.casefold()]
        if held:  # names are compared without case
            raise RefusedError(f"{held[0]!r} is already registered")
        check_lookalike(name, self.digests, "in this tournament")
        token = f"{self.id}.{secrets.token_urlsafe(32)}"
        self.entrants.append(name)
        self.digests[name] = token_digest(token)
        self.ledger_seq += 1
        ledger = [LedgerRow(self.ledger_seq, 0, -1, name, "buy_in", self.config.buy_in, self.digests[name])]
        if self.status is Status.RUNNING:  # late: seated at the shortest table once it is between hands
            self.late.append(name)
            self.prizes = prizes(self.config.buy_in * len(self.entrants), self.config.shares)
            return token, [], ledger
        full = self.config.start_at is None and len(self.entrants) == self.config.entrants
        rooms = self._start(now) if full else []
        return token, rooms, ledger

    def due(self, now: float) -> bool:
        """Whether a scheduled tournament should start (or be cancelled) now."""
        return (
            self.status is Status.REGISTERING
            and self.config.start_at is not None
            and time.time() >= self.config.start_at
        )

    def start_now(self, now: float) -> tuple[list[Room], list[LedgerRow]]:
        """Start a scheduled tournament: its tables, or with fewer than two entrants, cancelled (refunds)."""
        if len(self.entrants) >= 2:
            return self._start(now), []
        self.status, self.open = Status.CANCELLED, False
        refunds = []
        for name in self.entrants:
            self.ledger_seq += 1
            refunds.append(
                LedgerRow(self.ledger_seq, 0, -1, name, "refund", self.config.buy_in, self.digests[name])
            )
        return [], refunds

    def close_registration(self, now: float) -> None:
        """Close late registration once its last level is over (`late_until_level`)."""
        if self.open and self.status is Status.RUNNING:
            if self.config.structure.level_at(self.clock(now)) >= self.config.late_until_level:
                self._close()
        elif self.status not in _OPEN:
            self.open = False

    def _close(self) -> None:
        """Registration is closed: the players out so far take their places in the field as it stands,
        the earliest out the lowest (rules 28, 29 within each hand)."""
        self.open = False
        field, gone = len(self.entrants), 0
        for group in self.early:
            place_busts(group, field - gone, self.prizes, self.entrants, self.place, self.prize)
            gone += len(group)
        self.early = []

    def _start(self, now: float) -> list[Room]:
        """Rule 22: draw the seats at new tables (`deal` deals their first hands)."""
        structure_ = self.config.structure
        self.prizes = prizes(self.config.buy_in * len(self.entrants), self.config.shares)
        first = structure_.levels[0]
        tables = draw_seats(self.entrants, self.config.seats, first.stakes(), structure_.starting_stack,
                            random.SystemRandom(), None)  # fmt: skip
        rooms = [self._table(table) for table in tables]
        self.rooms = [room.id for room in rooms]
        self.status, self.minutes, self.since = Status.RUNNING, 0.0, now
        self.open = self.config.late_until_level > 0
        self._seat_members({room.id: room for room in rooms})
        return rooms

    # ------------------------------------------------------------ the director
    def after(self, room: Room, change: Change, rooms: Mapping[str, Room], now: float) -> Moves:
        """The director's work after a change at one of the tournament's tables: places for the
        players out, then breaking, balancing and dealing."""
        moves = Moves()
        if self.status is Status.RUNNING and change.hands and room.table.hand is None:
            self._out(room)
            self.deal(rooms, now, moves)
        return moves

    def _out(self, room: Room) -> None:
        """Rules 28-29 for the players a hand at `room` busted (on the bubble, with the whole round's)."""
        busted = room.take_busted()
        if self.open and busted:  # placed when registration closes
            self.early.append(busted)
        elif self.waiting and len(self.rooms) > 1:
            self.round_busted += busted
        elif busted:
            place_busts(busted, self.left(), self.prizes, self.entrants, self.place, self.prize)

    def deal(self, rooms: Mapping[str, Room], now: float, moves: Moves) -> None:
        """Deal the next hand wherever the director may (also after a restart), into `moves`."""
        if self.status is not Status.RUNNING:
            return
        self.close_registration(now)
        # The tables made here go in front of the server's, never into them (a ChainMap writes only
        # to its first map; the cast is for its typing, which wants every map writable).
        rooms = ChainMap({}, cast("MutableMapping[str, Room]", rooms))
        self._seat_late(rooms, moves)
        tables = [rooms[r] for r in self.rooms]
        if not self.waiting and len(tables) > 1:
            counts = [seated(r.table) for r in tables]
            due = self.left() <= (len(tables) - 1) * self.config.seats or max(counts) - min(counts) >= 2
            self.waiting = due or self.left() == len(self.prizes) + 1  # rules 24, 25, 27
        if self.waiting:
            if any(r.table.hand is not None for r in tables):
                return  # the others finish their hands first
            if self.round_busted:
                place_busts(
                    self.round_busted, self.left(), self.prizes, self.entrants, self.place, self.prize
                )
            self.round_busted, self.waiting = [], False
            if self.left() > 1:
                broken = rebalance(
                    [r.table for r in tables], self.left(), self.config.seats, random.SystemRandom()
                )
                for gone in tables[len(tables) - broken :]:
                    gone.break_up()
                    moves.touch(gone)
                tables = tables[: len(tables) - broken]
                self.rooms = [r.id for r in tables]
                self._seat_members(rooms)
                for table_room in tables:
                    moves.touch(table_room)
                self.waiting = len(tables) > 1 and self.left() == len(self.prizes) + 1  # still the bubble
        if self.left() <= 1:
            self._finish(now, moves)
            return
        level = self.config.structure.level(self.config.structure.level_at(self.clock(now)))
        again = False
        for table_room in tables:
            if table_room.table.hand is None:
                dealt = Change()
                if table_room.deal(now, level.stakes(), dealt):
                    moves.touch(table_room, dealt)
                    if dealt.hands:  # decided by the blinds alone
                        self._out(table_room)
                        again = True
        if again:
            self.deal(rooms, now, moves)

    def _seat_late(self, rooms: MutableMapping[str, Room], moves: Moves) -> None:
        """Seat late entrants at the shortest table between hands, on a random open seat; a new table
        when every table is full (balancing then fills it)."""
        draw = random.SystemRandom()
        while self.late:
            tables = [rooms[r] for r in self.rooms]
            counts = {r.id: seated(r.table) for r in tables}
            if all(counts[r.id] == self.config.seats for r in tables):
                room = self._new_table()
                rooms[room.id] = room
                moves.new.append(room)
                tables.append(room)
                counts[room.id] = 0
            idle = [r for r in tables if r.table.hand is None and counts[r.id] < self.config.seats]
            if not idle:
                return  # the tables with room are in a hand: at the next hand's end
            room = min(idle, key=lambda r: (counts[r.id], self.rooms.index(r.id)))
            seat = draw.choice([s for s, p in enumerate(room.table.seats) if p is None])
            room.table.sit(seat, self.late.pop(0), self.config.structure.starting_stack)
            self._seat_members(rooms)
            moves.touch(room)

    def _new_table(self) -> Room:
        room = self._table(Table(self.config.seats, self.config.structure.levels[0].stakes(), button="dead"))
        self.rooms.append(room.id)
        return room

    def _table(self, table: Table) -> Room:
        """The next table of the tournament, as a room (its settings name the first level's blinds; each
        hand is dealt at the level then in force)."""
        first = self.config.structure.levels[0]
        big = max(first.big_blind, 1)
        stack = max(self.config.structure.starting_stack, big)
        self.made += 1
        config = TableConfig(self.config.seats, max(first.small_blind, 1), big, 0, stack, stack,
                             self.config.action_seconds, self.config.time_bank_seconds)  # fmt: skip
        return Room(f"{self.id}-{self.made}", config, self.id, table)

    def _finish(self, now: float, moves: Moves) -> None:
        """The last player left wins; the prizes are paid into the ledger."""
        if self.open:
            self._close()
        winners = [name for name in self.entrants if name not in self.place]
        if winners:
            place_busts([(winners[0], 1)], 1, self.prizes, self.entrants, self.place, self.prize)
        self.minutes, self.since, self.status = self.clock(now), now, Status.FINISHED
        for name in self.entrants:
            if self.prize.get(name):
                self.ledger_seq += 1
                row = LedgerRow(self.ledger_seq, 0, -1, name, "prize", self.prize[name], self.digests[name])
                moves.ledger.append(row)

    def _seat_members(self, rooms: Mapping[str, Room]) -> None:
        """Give each table's members the players seated there, with their tokens (a player who moved
        gets a fresh time bank)."""
        for ident in self.rooms:
            room = rooms[ident]
            kept = {s: m for s, m in room.members.items() if room.table.seats[s] is not None
                    and room.table.seats[s].name == m.name}  # type: ignore[union-attr]  # fmt: skip
            room.seat_members(
                {
                    s: kept.get(s) or Member(p.name, self.digests[p.name], self.config.time_bank_seconds)
                    for s, p in enumerate(room.table.seats)
                    if p is not None
                }
            )

    # ------------------------------------------------------------ storing
    @property
    def tokens(self) -> dict[str, str]:
        """0.1's name for `digests`; warns, and goes in 0.3."""
        warnings.warn(
            "Tourney.tokens is now Tourney.digests; tokens goes in 0.3", DeprecationWarning, stacklevel=2
        )
        return self.digests

    def to_dict(self, now: float) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "id": self.id,
            "config": self.config.to_dict(),
            "entrants": self.entrants,
            "tokens": self.digests,  # the stored key of 0.1 (digests), read by older processes too
            "status": self.status,
            "rooms": self.rooms,
            "place": self.place,
            "prize": self.prize,
            "prizes": list(self.prizes),
            "minutes": self.clock(now),
            "waiting": self.waiting,
            "round_busted": [list(b) for b in self.round_busted],
            "ledger_seq": self.ledger_seq,
            "late": self.late,
            "early": [[list(b) for b in group] for group in self.early],
            "open": self.open,
            "made": self.made,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], now: float) -> Tourney:
        """A tournament stored by `to_dict`; its clock resumes from the stored minute."""
        tourney = cls(data["id"], tourney_config(data["config"]))
        tourney.entrants, tourney.digests, tourney.status = (
            data["entrants"],
            data["tokens"],
            Status(data["status"]),
        )
        tourney.rooms, tourney.place, tourney.prize = data["rooms"], data["place"], data["prize"]
        tourney.prizes = tuple(data["prizes"])
        tourney.minutes, tourney.since = data["minutes"], now
        tourney.waiting = data["waiting"]
        tourney.round_busted = [(str(n), int(s)) for n, s in data["round_busted"]]
        tourney.ledger_seq = data["ledger_seq"]
        tourney.late, tourney.open, tourney.made = data["late"], data["open"], data["made"]
        tourney.early = [[(str(n), int(k)) for n, k in group] for group in data["early"]]
        return tourney

    def to_json(self, now: float) -> str:
        return json.dumps(self.to_dict(now), separators=(",", ":"))
