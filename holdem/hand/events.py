"""What a hand is made of, as values: its phases, its events and its result."""

from __future__ import annotations

import warnings
from enum import IntEnum, StrEnum, unique
from typing import Any, Final

import attrs

from holdem.cards.card import Card
from holdem.hand.actions import Action
from holdem.hand.pots import Pot

__all__ = [
    "ACTION",
    "AMOUNT",
    "BOARD_AT",
    "DEALT",
    "KIND",
    "NEXT_STREET",
    "PHASE",
    "PLAYER",
    "Event",
    "EventKind",
    "HandResult",
    "LogEntry",
    "Phase",
    "action_dict",
]  # fmt: skip


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


BOARD_AT = {Phase.PREFLOP: 0, Phase.FLOP: 3, Phase.TURN: 4, Phase.RIVER: 5}
"""The board's size during each betting round: the one definition of how many cards each street deals."""
NEXT_STREET = {
    street: (following, BOARD_AT[following] - BOARD_AT[street])
    for street, following in zip(tuple(BOARD_AT)[:-1], tuple(BOARD_AT)[1:], strict=True)
}
"""The street after each betting round but the river, and how many board cards it deals."""


class EventKind(StrEnum):
    """What a log entry or `Event` records; each is its lower-case string, as stored and sent."""

    ANTE = "ante"
    """A player posted an ante (or the big blind's ante)."""
    BLIND = "blind"
    """A player posted a blind, a straddle or a missed blind."""
    HOLE = "hole"
    """A player was dealt hole cards (the cards only in that player's view)."""
    ACTION = "action"
    """A player acted."""
    BOARD = "board"
    """Board cards were dealt (a street, or a second run's)."""
    UNCALLED = "uncalled"
    """An uncalled bet went back to the player who made it."""
    SHOW = "show"
    """A player showed their cards."""
    MUCK = "muck"
    """A player mucked their cards without showing."""
    WIN = "win"
    """A player won chips from a pot."""


@attrs.frozen
class Event:
    """Something that happened, for broadcasting: `kind` plus the player and data it concerns."""

    kind: EventKind
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (all of it public: what every player at the table saw at the end)."""
        return {
            "payouts": list(self.payouts),
            "final_stacks": list(self.final_stacks),
            "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in self.pots],
            "winners": [list(w) for w in self.winners],
            "shown": [None if cards is None else [str(c) for c in cards] for cards in self.shown],
            "rake": self.rake,
            "payoffs": list(self.payoffs),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        """The result `to_dict` wrote (raises `KeyError`, `TypeError` or `ValueError` on anything else)."""
        return cls(
            tuple(data["payouts"]), tuple(data["final_stacks"]),
            tuple(Pot(pot["amount"], tuple(pot["eligible"])) for pot in data["pots"]),
            tuple(tuple(w) for w in data["winners"]),
            tuple(None if cards is None else tuple(map(Card.from_str, cards)) for cards in data["shown"]),
            data["rake"], tuple(data["payoffs"]),
        )  # fmt: skip


LogEntry = tuple[EventKind, int | None, tuple[Card, ...], int | None, Action | None, Phase]
"""An event as the hand records it: (kind, player, cards, amount, action, phase); read a field by its
name, ``entry[PHASE]``. The log is plain tuples because a hand writes a dozen a hand on the hot path:
a NamedTuple costs 330 ns to make against 35-50 ns (about 5% of a 6-max hand), measured 2026-11-27."""
KIND: Final = 0
"""Where each field of a `LogEntry` is: its `EventKind`,"""
PLAYER: Final = 1
"""the player it concerns (or None),"""
DEALT: Final = 2
"""the cards dealt or shown (named so, not CARDS: `holdem.CARDS` is the 52 cards),"""
AMOUNT: Final = 3
"""the chips posted, returned or won,"""
ACTION: Final = 4
"""the action taken (or None),"""
PHASE: Final = 5
"""and the betting round it happened in."""


def __getattr__(name: str) -> Any:
    """``CARDS``, the log field's name in 0.1 (it clashed with `holdem.CARDS`), until 0.3."""
    if name != "CARDS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        "holdem.hand.events.CARDS is now DEALT (holdem.CARDS is the 52 cards); the old name goes in 0.3",
        DeprecationWarning,
        stacklevel=2,
    )
    return DEALT
