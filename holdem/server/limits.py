"""What anyone may create on a server: who may make home games, how many each address may make or ask
to sit at in a window of time, and how many may be open at once.

Plain state with no I/O: the hub asks `Limits.game_allowed`, then counts the request against its
address's window (`Limits.take` in one process; with ``--cluster``, `Storage.take` in the database
every process shares, so a client meets one limit whichever process it reaches), and either goes on
or gets a `RequestError` (429 or 403) that changed nothing. The addresses are those the ASGI server
reports: the client's own, or behind a proxy named by ``holdem serve --forwarded-allow-ips`` (the
shipped nginx file), the address that proxy writes in ``X-Forwarded-For``; a header from anyone
else is ignored.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

import attrs

from holdem.errors import RequestError

__all__ = ["GAME_MAKERS", "Limits", "Window", "too_many"]

GameMakers = Literal["anyone", "admin", "nobody"]
GAME_MAKERS: tuple[GameMakers, ...] = ("anyone", "admin", "nobody")
"""Who may make a home game from the lobby: anyone (the default, as on PokerNow), only a request
with the admin token, or nobody."""


@attrs.frozen
class Window:
    """At most `count` in any `seconds`."""

    count: int = attrs.field(validator=attrs.validators.ge(1))
    seconds: float = attrs.field(validator=attrs.validators.gt(0))


@attrs.define
class Limits:
    """The server's limits on what requests create, and the recent requests of each address.

    Defaults a public server can live with: 5 games an address in 10 minutes, 200 home games open
    at once, 20 requests for a seat an address a minute."""

    makers: GameMakers = attrs.field(default="anyone", validator=attrs.validators.in_(GAME_MAKERS))
    games: Window = Window(5, 600.0)
    open_games: int = attrs.field(default=200, validator=attrs.validators.ge(0))
    seats: Window = Window(20, 60.0)
    _recent: dict[tuple[str, str], deque[float]] = attrs.field(factory=dict, init=False, repr=False)

    def check_game(self, address: str, admin: bool, open_now: int, now: float) -> None:
        """Refuse a new home game from `address` (`admin`: asked with the admin token) when the
        switch, the cap or the address's window says so; otherwise count it."""
        if self.game_allowed(admin, open_now):
            self.take("game", address, self.games, now)

    def game_allowed(self, admin: bool, open_now: int) -> bool:
        """Refuse a new home game by the switch or the cap; whether the address's window applies
        (not to the admin)."""
        if admin:
            return False
        if self.makers != "anyone":
            who = "the admin" if self.makers == "admin" else "nobody"
            raise RequestError(f"on this server {who} may make games (holdem serve --games)", 403)
        if open_now >= self.open_games:
            raise RequestError(
                f"this server has {self.open_games} games open, its most: try again later", 429
            )
        return True

    def check_seat(self, address: str, now: float) -> None:
        """Refuse a request for a seat from `address` past its window; otherwise count it."""
        self.take("seat", address, self.seats, now)

    def take(self, kind: str, address: str, window: Window, now: float) -> None:
        """Count a `kind` of request from `address` against `window`, or refuse it (429)."""
        times = self._recent.setdefault((kind, address), deque())
        while times and now - times[0] >= window.seconds:
            times.popleft()
        if len(times) >= window.count:
            raise too_many(kind, window, window.seconds - (now - times[0]))
        times.append(now)
        if len(self._recent) > 100_000:  # forget the addresses that have been quiet longest
            self._forget(now)

    def _forget(self, now: float) -> None:
        longest = max(self.games.seconds, self.seats.seconds)
        for key in [k for k, t in self._recent.items() if not t or now - t[-1] >= longest]:
            del self._recent[key]


def too_many(kind: str, window: Window, wait: float) -> RequestError:
    """The refusal of a `kind` of request past `window`, saying when to try again."""
    return RequestError(
        f"too many {kind}s from your address: at most {window.count} in {window.seconds:g} s;"
        f" try again in {max(wait, 0):.0f} s",
        429,
    )
