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
from holdem.decide import decide
from holdem.errors import TableError
from holdem.hand import Hand
from holdem.match import Fault
from holdem.table import Table

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
    """
    seated = {s: p for s, p in enumerate(table.seats) if p is not None}
    if set(bots) != set(seated):
        raise TableError(f"bots are given for seats {sorted(bots)} but players sit in {sorted(seated)}")
    if rebuy is not None and (type(rebuy) is not int or rebuy <= 0):
        raise TableError(f"rebuy must be a positive whole number of chips, got {rebuy!r}")
    if table.hand is not None and not table.hand.is_complete:
        raise TableError("a hand is in progress; finish it before playing the table")
    rng = rng or random.Random()
    players = {s: load_bot(spec) for s, spec in bots.items()}
    for bot in players.values():
        set_random = getattr(bot, "set_random", None)
        if set_random is not None:
            set_random(random.Random(rng.getrandbits(64)))
    start = {s: p.stack for s, p in seated.items()}
    dealt = dict.fromkeys(seated, 0)
    rebuys = dict.fromkeys(seated, 0)
    faults: list[Fault] = []
    played = 0
    while played < hands:
        if sum(1 for p in table.seats if p is not None and p.stack > 0 and not p.sitting_out) < 2:
            break
        hand = table.start_hand()
        for p, s in enumerate(table.hand_seats):
            dealt[s] += 1
            hook = getattr(players[s], "start_hand", None)
            if hook is not None:
                hook(hand.view(p))
        while hand.actor is not None:
            s = table.hand_seats[hand.actor]
            _, fault = decide(players[s], hand, time_limit)
            if fault is not None:
                faults.append(Fault(played, s, *fault))
        assert hand.result is not None
        for p, s in enumerate(table.hand_seats):
            hook = getattr(players[s], "end_hand", None)
            if hook is not None:
                hook(hand.view(p), hand.result)
        table.end_hand()
        played += 1
        if on_hand is not None:
            on_hand(hand)
        for s, place in enumerate(table.seats):
            if place is not None and place.stack == 0:
                if rebuy is None:
                    table.leave(s)
                else:
                    table.add_chips(s, rebuy)
                    rebuys[s] += 1
    results = []
    for s, place in seated.items():
        now = table.seats[s]
        stack = now.stack if now is not None and now.name == place.name else 0
        results.append(
            SeatResult(
                seat=s, name=place.name, bot=bot_name(bots[s]), hands=dealt[s],
                net=stack - start[s] - rebuys[s] * (rebuy or 0), rebuys=rebuys[s], busted=stack == 0,
            )
        )  # fmt: skip
    return SessionResult(hands=played, seats=tuple(results), faults=tuple(faults))
