"""A bot's life at a table: its hooks, and each decision, with every failure a fault, never a crash.

The life cycle is the same wherever a bot plays (`holdem.bots.match`, `holdem.bots.session.play_table`,
tournaments, ``holdem play``, the ACPC client, ``holdem join``, `holdem.env`):

1. ``set_random(rng)`` once, after the bot is made and before its first hand, with a random source
   of its own seeded from the match's, session's or tournament's seed;
2. ``meet(names)`` before each hand the bot is dealt into: a name for each player of the hand in
   dealing order (the bot's own included), the same name for the same player from hand to hand
   and a new one for a new player in a seat (a match names its bots, a table its seats' players);
3. ``start_hand(view)`` for each hand the bot is dealt into, once the forced bets are posted and the
   hole cards dealt, before the hand's first decision (whoever makes it);
4. ``act(view)`` at each of its turns;
5. ``end_hand(view, result)`` when that hand is over: the view as the hand ended (cards shown
   included) and its `HandResult` (all of it public: payouts, pots, winners, cards shown).

The four hooks are optional; `Hooks` finds them once and calls them guarded. When a bot raises,
answers with no or an illegal action, or runs over its time, the player checks if that is free
and folds otherwise; a failing hook changes nothing. Either way the fault is returned as
(reason, traceback) for the caller to count.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable

from holdem.bots import Bot
from holdem.errors import IllegalActionError
from holdem.hand.actions import Action, check_or_fold
from holdem.hand.events import HandResult
from holdem.hand.state import Hand
from holdem.hand.views import SeatView, view

__all__ = ["Hooks", "apply_answer", "decide", "fallback", "guarded", "raised"]

_clock = time.perf_counter


def fallback(hand: Hand) -> Action:
    """What a faulty bot does instead: check if it is free, else fold."""
    return check_or_fold(hand.legal_actions())


def guarded(method: Callable[..., object], *args: object) -> tuple[str, str | None] | None:
    """Call a bot's hook; a failure is returned as (reason, traceback) instead of raised."""
    try:
        method(*args)
    except Exception as error:
        reason = f"{getattr(method, '__name__', 'hook')} raised {type(error).__name__}: {error}"
        return reason, traceback.format_exc()
    return None


Fault = tuple[str, str | None]
"""A failure: (reason, traceback or None)."""


class Hooks:
    """A bot's optional life-cycle hooks, found once; each call is guarded (a failure is returned as
    a fault, never raised). A missing hook is no call and no fault."""

    __slots__ = ("end_hand", "meet", "set_random", "start_hand")

    def __init__(self, bot: object) -> None:
        self.set_random: Callable[..., object] | None = _hook(bot, "set_random")
        self.meet: Callable[..., object] | None = _hook(bot, "meet")
        self.start_hand: Callable[..., object] | None = _hook(bot, "start_hand")
        self.end_hand: Callable[..., object] | None = _hook(bot, "end_hand")

    def seed(self, rng: random.Random) -> Fault | None:
        """Step 1: give the bot its random source."""
        return None if self.set_random is None else guarded(self.set_random, rng)

    def meet_players(self, names: tuple[str, ...]) -> Fault | None:
        """Step 2: the names of the players dealt in, in dealing order."""
        return None if self.meet is None else guarded(self.meet, names)

    def start(self, hand: Hand, player: int) -> Fault | None:
        """Step 3: `hand`, which the bot plays as `player`, begins (its view is built only if asked for)."""
        return None if self.start_hand is None else guarded(self.start_hand, view(hand, player))

    def end(self, hand: Hand, player: int) -> Fault | None:
        """Step 5: `hand`, complete, is over."""
        if self.end_hand is None:
            return None
        assert hand.result is not None
        return guarded(self.end_hand, view(hand, player), hand.result)

    def start_seen(self, seen: SeatView) -> Fault | None:
        """Step 3 where only the view is known (a bot playing over the network)."""
        return None if self.start_hand is None else guarded(self.start_hand, seen)

    def end_seen(self, seen: SeatView, result: HandResult) -> Fault | None:
        """Step 5 where only the view and the result are known."""
        return None if self.end_hand is None else guarded(self.end_hand, seen, result)


def _hook(bot: object, name: str) -> Callable[..., object] | None:
    hook = getattr(bot, name, None)
    return hook if callable(hook) else None


def decide(
    bot: Bot, hand: Hand, time_limit: float | None = None
) -> tuple[float, tuple[str, str | None] | None]:
    """Ask `bot` to act for the player to act and apply its action; on a fault (it raised, returned
    no or an illegal action, or took longer than `time_limit`) check or fold instead.

    Returns the seconds the bot took (building its view not included) and the fault as
    (reason, traceback), or None.
    """
    p = hand.actor
    assert p is not None
    seen = view(hand, p)
    start = _clock()
    try:
        action = bot.act(seen)
    except Exception as error:
        elapsed = _clock() - start
        return elapsed, raised(hand, p, error)
    elapsed = _clock() - start
    return elapsed, apply_answer(hand, p, action, elapsed, time_limit)


def raised(hand: Hand, p: int, error: Exception) -> tuple[str, str | None]:
    """The fault of a bot that raised `error` (being handled), after checking or folding for it."""
    hand.act(fallback(hand), p)
    return f"act raised {type(error).__name__}: {error}", traceback.format_exc()


def apply_answer(
    hand: Hand, p: int, action: object, elapsed: float, time_limit: float | None
) -> tuple[str, str | None] | None:
    """Apply a bot's answer for player `p`, or check or fold instead; returns the fault, if any."""
    if not isinstance(action, Action):
        reason = f"act returned {action!r}, not an Action"
    elif time_limit is not None and elapsed > time_limit:
        reason = f"took {elapsed:.3f}s, over the {time_limit}s limit"
    else:
        try:
            hand.act(action, p)
        except IllegalActionError as error:
            reason = f"illegal action {action}: {error}"
        else:
            return None
    hand.act(fallback(hand), p)
    return reason, None
