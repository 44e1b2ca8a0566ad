"""Who put chips in the pot by choice before the flop: the one definition of VPIP, PFR and a walk.

`holdem stats` (from what a history states), a match's report (from its hands' histories) and the
bots' reads (from a seat's public log) each pass their hand's actions before the flop here, so the
three count the same thing. A walk is a hand folded to a blind that never acted: that player had
no chance to put money in by choice, so the hand is not one of their chances of VPIP or PFR.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from holdem.hand.actions import ActionKind

__all__ = ["Kinded", "entered"]

_CALL, _RAISE = ActionKind.CALL, ActionKind.RAISE


class Kinded(Protocol):
    """What `entered` reads of an action: its kind (an `Action`, or anything with a `kind`)."""

    @property
    def kind(self) -> ActionKind: ...


def entered(
    preflop: Iterable[tuple[int, Kinded]], players: int, flop: bool
) -> tuple[set[int], set[int], int]:
    """Who called or raised (VPIP), who raised (PFR), and the player who had a walk (-1: none), by
    player in dealing order. `preflop` is each action before the flop as (player, action), in order;
    `flop` whether the hand reached it. A blind is no action: it is posted, not chosen. A walk is a
    hand folded to the one player who never acted, with nobody in. (A match calls this for every
    hand: one pass and a plain tuple, about as fast as the counting it replaced.)

    >>> from holdem.hand.actions import Action
    >>> entered([(0, Action.fold()), (1, Action.raise_to(6)), (2, Action.fold())], players=3, flop=False)
    ({1}, {1}, -1)
    >>> entered([(0, Action.fold()), (1, Action.fold())], players=3, flop=False)  # folded to the big blind
    (set(), set(), 2)
    """
    vpip: set[int] = set()
    pfr: set[int] = set()
    passive: set[int] = set()  # who checked or folded: everybody who acted, when nobody came in
    for player, action in preflop:
        kind = action.kind
        if kind is _CALL or kind is _RAISE:
            vpip.add(player)
            if kind is _RAISE:
                pfr.add(player)
        else:
            passive.add(player)
    walk = -1
    if not vpip and not flop and len(passive) == players - 1:
        walk = next(p for p in range(players) if p not in passive)
    return vpip, pfr, walk
