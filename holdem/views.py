"""What one player may know: the per-seat view of a hand (never another player's unshown cards)."""

from __future__ import annotations

import attrs

from holdem.actions import Action, LegalActions
from holdem.cards import Card
from holdem.hand import Event, Hand, Phase

__all__ = ["SeatView", "view"]


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
    events: tuple[Event, ...]

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def is_my_turn(self) -> bool:
        return self.actor == self.player


def view(hand: Hand, player: int) -> SeatView:
    """The view of `player` (0-based, dealing order)."""
    n = len(hand.stacks)
    if not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"no player {player!r} in a hand of {n}")
    shown = hand.result.shown if hand.result is not None else (None,) * n
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
        events=tuple(hand.events(player)),
    )
