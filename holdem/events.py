"""What a hand is made of, as values: its phases, its events and its result."""

from __future__ import annotations

from enum import IntEnum, unique
from typing import Any

import attrs

from holdem.actions import Action
from holdem.cards import Card
from holdem.pots import Pot

__all__ = ["Event", "HandResult", "LogEntry", "Phase", "action_dict"]


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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: cards as text (``"As"``), the phase and action kind by name."""
        return {
            "kind": self.kind,
            "player": self.player,
            "cards": [str(card) for card in self.cards],
            "amount": self.amount,
            "action": action_dict(self.action),
            "phase": self.phase.name.lower() if self.phase is not None else None,
        }


def action_dict(action: Action | None) -> dict[str, Any] | None:
    """An action as JSON-ready data: ``{"kind": "raise", "amount": 6}``."""
    return None if action is None else {"kind": action.kind.value, "amount": action.amount}


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
