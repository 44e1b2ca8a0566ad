"""One decision: a bot is shown its view and its answer is applied, or a fault recorded instead.

A bot's failure never stops play: when it raises, answers with no or an illegal action, or runs
over its time, the player checks if that is free and folds otherwise, and the fault is returned
as (reason, traceback). Matches, sessions, tournaments, environments and the ACPC client all
decide this way.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable

from holdem.actions import Action
from holdem.bots import Bot
from holdem.errors import IllegalActionError
from holdem.hand import Hand
from holdem.views import view

__all__ = ["apply_answer", "decide", "fallback", "guarded", "raised"]

_clock = time.perf_counter


def fallback(hand: Hand) -> Action:
    """What a faulty bot does instead: check if it is free, else fold."""
    legal = hand.legal_actions()
    return Action.check() if legal is not None and legal.can_check else Action.fold()


def guarded(method: Callable[..., object], *args: object) -> tuple[str, str | None] | None:
    """Call a bot's hook; a failure is returned as (reason, traceback) instead of raised."""
    try:
        method(*args)
    except Exception as error:
        reason = f"{getattr(method, '__name__', 'hook')} raised {type(error).__name__}: {error}"
        return reason, traceback.format_exc()
    return None


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
