"""What a hand is made of, as values: its phases, its events and its result."""

from __future__ import annotations

from enum import IntEnum, unique

import attrs

from holdem.actions import Action
from holdem.cards import Card
from holdem.pots import Pot

__all__ = ["Event", "HandResult", "LogEntry", "Phase"]


@unique
class Phase(IntEnum):
    """Where a hand stands."""

    PREFLOP = 0
    """Hole cards dealt, blinds posted, first betting round."""
    FLOP = 1
    """Three board cards, second betting round."""
    TURN = 2
    """Fourth board card, third betting round."""
    RIVER = 3
    """Fifth board card, last betting round."""
    SHOWDOWN = 4
    """Betting is over; hands are compared (passed through within one transition)."""
    COMPLETE = 5
    """Pots awarded; the hand accepts no more actions."""


@attrs.frozen
class Event:
    """Something that happened, for broadcasting: `kind` plus the player and data it concerns."""

    kind: str
    player: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int | None = None
    action: Action | None = None
    phase: Phase | None = None


@attrs.frozen
class HandResult:
    """How a hand ended: payouts (chips won from the pots), final stacks, pots and their winners."""

    payouts: tuple[int, ...]
    final_stacks: tuple[int, ...]
    pots: tuple[Pot, ...]
    winners: tuple[tuple[int, ...], ...]
    shown: tuple[tuple[Card, ...] | None, ...]
    rake: int
    payoffs: tuple[int, ...]
    """Net chips won or lost by each player: final stack minus starting stack."""


LogEntry = tuple[str, int | None, tuple[Card, ...], int | None, Action | None, Phase]
"""An event as the hand records it: (kind, player, cards, amount, action, phase)."""
