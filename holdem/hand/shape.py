"""What the modules below the state machine read of a hand: one `HandState` protocol.

`holdem.hand.state.Hand` has all of it. The checks (`checks`) and the views (`views`) are typed
against this protocol rather than `Hand`, so that they need not import the state machine above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from holdem.cards.card import Card
from holdem.hand.actions import Action, LegalActions
from holdem.hand.betting import BettingRound
from holdem.hand.events import LogEntry, Phase
from holdem.hand.stakes import Rules, Stakes

__all__ = ["HandState"]


class HandState(Protocol):
    """A hand as the checks and the views read it."""

    phase: Phase
    holes: list[tuple[Card, ...]]
    board: list[Card]
    stacks: list[int]
    bets: list[int]
    folded: list[bool]
    actor: int | None
    history: list[tuple[int, Action]]
    log: list[LogEntry]
    hole_events_at: int
    button: int | None
    starting_stacks: tuple[int, ...]
    declared_blinds: tuple[int, ...]
    round: BettingRound
    rules: Rules

    @property
    def stakes(self) -> Stakes: ...

    @property
    def shown(self) -> Sequence[tuple[Card, ...] | None] | None: ...

    @property
    def pot(self) -> int: ...

    def legal_actions(self) -> LegalActions | None: ...

    def rewound(self, actions: int) -> HandState: ...
