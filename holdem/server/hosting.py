"""A home game's own state: the table its host made from the lobby (`holdem.server.host` has the
commands). Plain data, stored with the room.

The host holds a token for this table alone (only its digest is kept). Players who ask for a seat
wait in `pending` until the host approves or declines them. `paused` freezes the table: no action
is taken, the clock stands still and no hand is dealt. `blinds` are the stakes from the next hand.
`ended`: every player is cashed out when the hand in progress ends and no hand is dealt again.
`bots` are the built-in bots the host seated, by seat; `players` every token that held a seat, with
its name, so that a player who has left can still download the hands they were in. `name` is the name
the host gave the game, and `listed` whether the lobby lists it (not unless the host chose to: the
link is the invitation).
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["Home", "Seeker"]


@attrs.define
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
    stats: bool = False  # whether everyone with the link may see the players' statistics

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
        )
