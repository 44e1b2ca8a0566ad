"""A table played by bots for many hands: the loop users would otherwise write themselves.

`play_table` deals hand after hand at a `Table` whose seats are taken, asks each seat's bot to
act (a faulty bot checks or folds, as in a match), and after each hand either tops broke players
back up (`rebuy`, for cash tables) or lets them go (tournaments bust them out by themselves).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import attrs

from holdem.bots import BotSpec, bot_name, load_bot
from holdem.bots.decide import Hooks, decide
from holdem.bots.match import Fault
from holdem.errors import TableError
from holdem.hand.state import Hand
from holdem.table.table import Seat, Table

__all__ = ["SeatResult", "SessionResult", "play_table"]


@attrs.frozen
class SeatResult:
    """One seat: its bot, hands dealt, chips won net of rebuys, rebuys, and whether it went broke."""

    seat: int
    name: str
    bot: str
    hands: int
    net: int
    rebuys: int
    busted: bool


@attrs.frozen
class SessionResult:
    """Hands played, each seat's result, and every fault (hand number, seat as `bot`, reason)."""

    hands: int
    seats: tuple[SeatResult, ...]
    faults: tuple[Fault, ...]


def play_table(
    table: Table,
    bots: Mapping[int, BotSpec],
    hands: int,
    *,
    rebuy: int | None = None,
    rng: random.Random | None = None,
    time_limit: float | None = None,
    on_hand: Callable[[Hand], None] | None = None,
) -> SessionResult:
    """Play up to `hands` hands at `table`, each seat played by `bots[seat]`; returns the session.

    `rebuy`: the stack a broke player is topped back up to after each hand (None: broke players
    leave). Stops early when fewer than two players can play. `on_hand` sees each finished hand.
    Each bot lives the life cycle of `holdem.bots.decide`; every failure is a fault of the session.
    """
    seated = {s: p for s, p in enumerate(table.seats) if p is not None}
    _check(table, bots, seated, rebuy)
    session = _Session(table, bots, rebuy, time_limit, rng or random.Random())
    while session.played < hands and _can_deal(table):
        hand = session.play_hand()
        if on_hand is not None:
            on_hand(hand)
        session.rebuy_or_leave()
    return session.result(seated)


def _check(
    table: Table, bots: Mapping[int, BotSpec], seated: Mapping[int, object], rebuy: int | None
) -> None:
    """Refuse a session that cannot be played: bots for other seats, a bad rebuy, a hand in progress."""
    if set(bots) != set(seated):
        raise TableError(f"bots are given for seats {sorted(bots)} but players sit in {sorted(seated)}")
    if rebuy is not None and (type(rebuy) is not int or rebuy <= 0):
        raise TableError(f"rebuy must be a positive whole number of chips, got {rebuy!r}")
    if rebuy is not None and table.button_rule == "dead":
        raise TableError(
            "rebuy needs a cash table, Table(..., button='moving'): at this dead-button (tournament)"
            " table a player with no chips leaves it before they could buy again"
        )
    if table.hand is not None and not table.hand.is_complete:
        raise TableError("a hand is in progress; finish it before playing the table")


def _name(seat: Seat | None) -> str:
    assert seat is not None  # every seat dealt in is taken
    return seat.name


def _can_deal(table: Table) -> bool:
    """Whether two or more players have chips and are not sitting out."""
    return sum(1 for p in table.seats if p is not None and p.stack > 0 and not p.sitting_out) >= 2


class _Session:
    """The bots of a session, each seeded once, and what it counts: hands, rebuys, faults."""

    def __init__(
        self, table: Table, bots: Mapping[int, BotSpec], rebuy: int | None, time_limit: float | None,
        rng: random.Random,
    ) -> None:  # fmt: skip
        self.table, self.specs, self.rebuy, self.time_limit = table, bots, rebuy, time_limit
        self.players = {s: load_bot(spec) for s, spec in bots.items()}
        self.hooks = {s: Hooks(bot) for s, bot in self.players.items()}
        self.start = {s: p.stack for s, p in enumerate(table.seats) if p is not None}
        self.dealt, self.rebuys = dict.fromkeys(self.start, 0), dict.fromkeys(self.start, 0)
        self.faults: list[Fault] = []
        self.played = 0
        for s, hooks in self.hooks.items():
            if hooks.set_random is not None:  # a source drawn only for a bot that takes one
                self._fault(s, hooks.seed(random.Random(rng.getrandbits(64))))

    def _fault(self, seat: int, found: tuple[str, str | None] | None) -> None:
        if found is not None:
            self.faults.append(Fault(self.played, seat, *found))

    def play_hand(self) -> Hand:
        """Deal a hand and play it out: each bot told it begins, asked at its turns, told it ended."""
        table, hooks = self.table, self.hooks
        hand = table.start_hand()
        seats = table.hand_seats
        names = tuple(_name(table.seats[s]) for s in seats)
        for s in seats:
            self._fault(s, hooks[s].meet_players(names))
        for p, s in enumerate(seats):
            self.dealt[s] += 1
            self._fault(s, hooks[s].start(hand, p))
        while hand.actor is not None:
            s = seats[hand.actor]
            self._fault(s, decide(self.players[s], hand, self.time_limit)[1])
        for p, s in enumerate(seats):
            self._fault(s, hooks[s].end(hand, p))
        table.end_hand()
        self.played += 1
        return hand

    def rebuy_or_leave(self) -> None:
        """Top each broke player back up to the rebuy, or without one let them go."""
        for s, place in enumerate(self.table.seats):
            if place is not None and place.stack == 0:
                if self.rebuy is None:
                    self.table.leave(s)
                else:
                    self.table.add_chips(s, self.rebuy)
                    self.rebuys[s] += 1

    def result(self, seated: Mapping[int, Seat]) -> SessionResult:
        """Each seat's net (rebuys taken off) and the session's faults."""
        results = []
        for s, place in seated.items():
            now = self.table.seats[s]
            stack = now.stack if now is not None and now.name == place.name else 0
            results.append(
                SeatResult(
                    seat=s, name=place.name, bot=bot_name(self.specs[s]), hands=self.dealt[s],
                    net=stack - self.start[s] - self.rebuys[s] * (self.rebuy or 0), rebuys=self.rebuys[s],
                    busted=stack == 0,
                )
            )  # fmt: skip
        return SessionResult(hands=self.played, seats=tuple(results), faults=tuple(self.faults))
