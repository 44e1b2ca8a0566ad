"""One hand's state machine and its parts: the stakes and rules (`stakes`), actions and what is
legal (`actions`), pots (`pots`), the events a hand records (`events`), seat order (`positions`),
a seat's view (`views`), posting (`posting`), betting (`betting`), run-outs (`runout`), the
showdown (`showdown`), the checks of an action (`checks`), the `Hand` itself with its one
transition function (`state`) and its invariants (`invariants`), and who entered a pot by choice
(`voluntary`: VPIP, PFR and a walk, defined once for statistics, matches and reads)."""

from __future__ import annotations

from typing import Any

from holdem.hand.events import HandResult, Phase
from holdem.hand.state import Hand

__all__ = ["Hand", "HandResult", "Phase"]


def __getattr__(name: str) -> Any:
    """0.1"s names this package does not hold, with a warning naming where they are (`holdem._moved`)."""
    from holdem._moved import moved_name

    return moved_name("holdem.hand", name)
