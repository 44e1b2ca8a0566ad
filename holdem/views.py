"""What one player may know: the per-seat view of a hand (never another player's unshown cards)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from holdem.actions import Action, LegalActions
from holdem.cards import Card
from holdem.errors import InvalidPlayerError
from holdem.events import Event, LogEntry, Phase, action_dict
from holdem.positions import position_names
from holdem.stakes import Stakes

__all__ = ["HandState", "SeatView", "redacted_log", "view"]


class HandState(Protocol):
    """What a view reads of a hand. `holdem.hand.Hand` has all of it; views need nothing else, so
    this module does not depend on the hand's."""

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

    @property
    def stakes(self) -> Stakes: ...

    @property
    def shown(self) -> Sequence[tuple[Card, ...] | None] | None: ...

    @property
    def pot(self) -> int: ...

    def legal_actions(self) -> LegalActions | None: ...


@attrs.frozen
class SeatView:
    """A hand as `player` sees it: own hole cards, the public state, and, on their turn, the legal actions.

    `shown` holds the cards shown down at showdown (None for the others); `events` is the event
    stream redacted for this player.
    """

    player: int
    phase: Phase
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    pot: int
    folded: tuple[bool, ...]
    actor: int | None
    legal: LegalActions | None
    big_blind: int
    history: tuple[tuple[int, Action], ...]
    shown: tuple[tuple[Card, ...] | None, ...]
    button: int | None
    """The player on the button (the last player; None when the button is dead)."""
    position: str
    """This player's position by dealing order: SB, BB, UTG, …, CO, BTN (heads-up: BB, BTN)."""
    log: tuple[LogEntry, ...] = attrs.field(repr=False)
    """The event log, already redacted for `player` (other players' hole cards removed)."""

    @functools.cached_property
    def events(self) -> tuple[Event, ...]:
        """The events this player may see, built on first use."""
        return tuple(Event(*entry) for entry in self.log)

    @property
    def players(self) -> int:
        return len(self.stacks)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for servers and bots in other languages (cards as text, e.g. ``"As"``)."""
        legal = self.legal
        return {
            "player": self.player,
            "position": self.position,
            "button": self.button,
            "phase": self.phase.name.lower(),
            "hole": [str(card) for card in self.hole],
            "board": [str(card) for card in self.board],
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "pot": self.pot,
            "folded": list(self.folded),
            "actor": self.actor,
            "big_blind": self.big_blind,
            "legal": None if legal is None else legal._asdict(),
            "history": [[player, action_dict(action)] for player, action in self.history],
            "shown": [None if cards is None else [str(card) for card in cards] for cards in self.shown],
            "events": [event.to_dict() for event in self.events],
        }

    @property
    def is_my_turn(self) -> bool:
        return self.actor == self.player


def view(hand: HandState, player: int) -> SeatView:
    """The view of `player` (0-based, dealing order)."""
    n = len(hand.stacks)
    if type(player) is not int or not 0 <= player < n:
        raise InvalidPlayerError(f"no player {player!r} in a hand of {n} (players 0..{n - 1})")
    shown = tuple(hand.shown) if hand.shown is not None else (None,) * n
    return SeatView(
        player=player,
        phase=hand.phase,
        hole=tuple(hand.holes[player]),
        board=tuple(hand.board),
        stacks=tuple(hand.stacks),
        bets=tuple(hand.bets),
        pot=hand.pot,
        folded=tuple(hand.folded),
        actor=hand.actor,
        legal=hand.legal_actions() if hand.actor == player else None,
        big_blind=hand.stakes.big_blind,
        history=tuple(hand.history),
        shown=shown,
        button=hand.button,
        position=position_names(n)[player],
        log=redacted_log(hand, player),
    )


def redacted_log(hand: HandState, seat: int | None) -> tuple[LogEntry, ...]:
    """The hand's log as `seat` may see it: every other player's hole cards removed (None: a spectator)."""
    log = list(hand.log)
    start = hand.hole_events_at
    for j in range(len(hand.stacks)):
        if j != seat:
            log[start + j] = ("hole", j, (), None, None, Phase.PREFLOP)
    return tuple(log)
