"""A home game: the table a host made from the lobby, and everything the host does with it.

The host holds a token for this table alone (only its digest is kept). Players who ask for a seat
wait in `pending` until the host approves or declines them. `paused` freezes the table: no action
is taken, the clock stands still and no hand is dealt. `blinds` are the stakes from the next hand.
`ended`: every player is cashed out when the hand in progress ends and no hand is dealt again.
`bots` are the built-in bots the host seated, by seat; `players` every token that held a seat, with
its name, so that a player who has left can still download the hands they were in. `name` is the name
the host gave the game, and `listed` whether the lobby lists it (not unless the host chose to: the
link is the invitation). `stats`: whether everyone with the link may see the players' statistics.

`Home.command` carries out the host's `COMMANDS` on the room it hosts: each raises `RequestError`
having changed nothing, or changes the room and returns the `Change` to store, as the room's own
methods do.
"""

from __future__ import annotations

import hmac
import warnings
from typing import Any, Protocol

import attrs

from holdem.bots import BUILT_IN
from holdem.console.fields import check_object
from holdem.errors import RefusedError, RequestError
from holdem.server.change import Change
from holdem.server.config import TableConfig, table_config

__all__ = ["COMMANDS", "GAME_NAME", "Home", "Seeker"]

COMMANDS = ("approve", "decline", "pause", "resume", "blinds", "remove", "end", "bot", "stats")
"""What the host can do."""
GAME_NAME = 40
"""The longest name a host may give a game, in characters."""


class HostedRoom(Protocol):
    """What a home game's commands use of the room it hosts (`holdem.server.room.Room`)."""

    config: TableConfig

    @property
    def members(self) -> dict[int, Any]: ...
    def fresh_clock(self, now: float) -> None: ...
    def admit(self, seat: int, name: str, buy_in: int, digest: str, now: float) -> Change: ...
    def leave(self, seat: int, now: float) -> Change: ...
    def resume(self, now: float) -> Change | None: ...
    def check_join(self, name: Any, buy_in: Any, seat: Any) -> tuple[str, int]: ...
    def new_digest(self) -> str: ...


@attrs.frozen
class Seeker:
    """A player asking for a seat: their name, buy-in and their token's digest."""

    name: str
    buy_in: int
    digest: str


@attrs.define
class Home:
    """A hosted table's host, requests, pause, next blinds, end, bots and past players."""

    host_digest: str  # of the host's token
    pending: dict[int, Seeker] = attrs.Factory(dict)
    paused: bool = False
    blinds: tuple[int, int, int] | None = None  # (small blind, big blind, ante) from the next hand
    ended: bool = False
    bots: dict[int, str] = attrs.Factory(dict)
    players: dict[str, str] = attrs.Factory(dict)  # token digest -> name, everyone who held a seat
    name: str = ""
    listed: bool = False
    stats: bool = False
    bot_digests: set[str] = attrs.Factory(set)  # the digests of every bot the host seated, gone or not

    @classmethod
    def open(cls, host_digest: str, name: Any = "", listed: Any = False) -> Home:
        """A new game's home, its `name` (up to `GAME_NAME` printable characters) and `listed` checked."""
        if not isinstance(name, str) or len(name.strip()) > GAME_NAME or not name.strip().isprintable():
            raise RequestError(f"a game's name is up to {GAME_NAME} printable characters, got {name!r:.50}")
        if type(listed) is not bool:
            raise RequestError(f"listed must be true or false, got {listed!r:.20}")
        return cls(host_digest, name=name.strip(), listed=listed)

    def is_host(self, digest: str) -> bool:
        """Whether `digest` is the digest of the host token (compared in constant time)."""
        return hmac.compare_digest(self.host_digest, digest)

    def add_seeker(self, seat: int, seeker: Seeker) -> None:
        """Someone asks for `seat`: they wait for the host's answer."""
        self.pending[seat] = seeker

    def note_player(self, digest: str, name: str) -> None:
        """A player was seated here (the settle-up names each person by their last name here)."""
        self.players[digest] = name

    def take_blinds(self) -> tuple[int, int, int] | None:
        """The host's new blinds (small, big, ante), once, for the next hand; None when unchanged."""
        blinds, self.blinds = self.blinds, None
        return blinds

    def command(self, room: HostedRoom, data: dict[str, Any], now: float) -> Change:
        """Carry out one of the host's `COMMANDS` (``{"command": ..., ...}``) on `room`."""
        kind = data.get("command")
        if kind not in COMMANDS:
            raise RequestError(f"unknown command {kind!r}; known: {', '.join(COMMANDS)}")
        if self.ended:
            raise RefusedError("this game has ended")
        if kind in ("approve", "decline"):
            seat = _seat(data, self.pending, "asking for")
            seeker = self.pending.pop(seat)
            if kind == "decline":
                return Change()
            return room.admit(seat, seeker.name, seeker.buy_in, seeker.digest, now)
        if kind in ("pause", "resume"):
            return self._pause(room, kind == "pause", now) or Change()
        if kind == "blinds":
            return self._blinds(room, data, now) or Change()
        if kind == "remove":
            seat = _seat(data, room.members, "held by")
            self.bots.pop(seat, None)
            return room.leave(seat, now)  # now, or when the hand in progress ends; the chips to the ledger
        if kind == "bot":
            return self._seat_bot(room, data, now)
        if kind == "stats":
            self._show_stats(data)
            return Change()
        return self._end(room, now)

    def _pause(self, room: HostedRoom, pause: bool, now: float) -> Change | None:
        if self.paused == pause:
            raise RequestError(f"the game is already {'paused' if self.paused else 'running'}")
        self.paused = pause
        room.fresh_clock(now)
        return room.resume(now)

    def _blinds(self, room: HostedRoom, data: dict[str, Any], now: float) -> Change | None:
        """New blinds (and ante) from the next hand, checked as a new table's settings are."""
        check_object(_but_command(data), "fields", ("small_blind", "big_blind", "ante"), RequestError)
        wanted = {"small_blind": data.get("small_blind"), "big_blind": data.get("big_blind"),
                  "ante": data.get("ante", room.config.ante)}  # fmt: skip
        config = table_config(room.config.to_dict() | wanted)
        self.blinds = (config.small_blind, config.big_blind, config.ante)
        return room.resume(now)

    def _show_stats(self, data: dict[str, Any]) -> None:
        """Let everyone with the link see the players' statistics (``"on": true``), or only the host."""
        check_object(_but_command(data), "fields", ("on",), RequestError)
        on = data.get("on")
        if type(on) is not bool:
            raise RequestError(f"on must be true or false, got {on!r:.20}")
        self.stats = on

    def _seat_bot(self, room: HostedRoom, data: dict[str, Any], now: float) -> Change:
        """Seat one of the built-in bots (by name only: a web page loads no code) in a free seat."""
        spec = data.get("bot")
        if spec not in BUILT_IN or spec == "scripted":
            known = ", ".join(name for name in BUILT_IN if name != "scripted")
            raise RequestError(f"bot must be one of {known}; got {spec!r}")
        taken = {m.name.casefold() for m in room.members.values()} | {
            s.name.casefold() for s in self.pending.values()
        }
        names = (f"{spec} bot" + (f" {k}" if k > 1 else "") for k in range(1, 12))
        name = next(n for n in names if n.casefold() not in taken)
        buy_in = data.get("buy_in", room.config.max_buy_in)
        name, seat = room.check_join(name, buy_in, data.get("seat"))
        digest = room.new_digest()
        change = room.admit(seat, name, buy_in, digest, now)
        self.bots[seat] = str(spec)
        self.bot_digests.add(digest)  # its chips are the host's: the settle-up shows them so
        return change

    def _end(self, room: HostedRoom, now: float) -> Change:
        """End the game: requests declined, everyone cashed out now or when the hand in progress ends."""
        self.ended, self.paused = True, False
        self.pending.clear()
        change = Change()
        for seat in list(room.members):
            change.ledger += room.leave(seat, now).ledger
        return change

    @property
    def bot_tokens(self) -> set[str]:
        """0.1's name for `bot_digests`; warns, and goes in 0.3."""
        warnings.warn(
            "Home.bot_tokens is now Home.bot_digests; bot_tokens goes in 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.bot_digests

    def to_dict(self) -> dict[str, Any]:
        return {
            "host": self.host_digest,  # the stored keys are those rooms have always been stored with
            "pending": {
                str(s): {"name": p.name, "buy_in": p.buy_in, "token": p.digest}
                for s, p in self.pending.items()
            },
            "paused": self.paused,
            "blinds": list(self.blinds) if self.blinds is not None else None,
            "ended": self.ended,
            "bots": {str(s): spec for s, spec in self.bots.items()},
            "players": self.players,
            "name": self.name,
            "listed": self.listed,
            "stats": self.stats,
            "bot_tokens": sorted(self.bot_digests),  # the stored key of 0.1, read by older processes too
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Home:
        blinds, pending = data.get("blinds"), data.get("pending", {})
        return cls(
            data["host"],
            {int(s): Seeker(p["name"], p["buy_in"], p["token"]) for s, p in pending.items()},
            bool(data.get("paused", False)),
            (blinds[0], blinds[1], blinds[2]) if blinds is not None else None,
            bool(data.get("ended", False)),
            {int(s): str(spec) for s, spec in data.get("bots", {}).items()},
            dict(data.get("players", {})),
            str(data.get("name", "")),
            bool(data.get("listed", False)),
            bool(data.get("stats", False)),
            set(data.get("bot_tokens", ())),
        )


def _seat(data: dict[str, Any], held: dict[int, Any], what: str) -> int:
    seat = data.get("seat")
    if type(seat) is not int or seat not in held:
        raise RequestError(f"seat must be a seat {what} a player, got {seat!r}")
    return seat


def _but_command(data: dict[str, Any]) -> dict[str, Any]:
    """A host's command's fields, its name aside."""
    return {name: value for name, value in data.items() if name != "command"}
