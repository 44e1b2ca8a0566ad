"""What one player may know: the per-seat view of a hand (never another player's unshown cards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from holdem.actions import Action, LegalActions
from holdem.cards import Card
from holdem.errors import InvalidPlayerError
from holdem.events import Event, LogEntry, Phase, action_dict
from holdem.positions import position_names
from holdem.stakes import Stakes

__all__ = ["HandState", "SeatView", "redacted_log", "view", "views"]


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


class SeatView(NamedTuple):
    """A hand as `player` sees it: own hole cards, the public state, and, on their turn, the legal actions.

    An immutable value (a named tuple, cheap to build for every decision). `shown` holds the cards
    shown down at showdown (None for the others); `button` is the player on the button (the last
    player; None when the button is dead); `position` is this player's position by dealing order
    (SB, BB, UTG, …, CO, BTN; heads-up BB, BTN); `public_log` is the hand's event log as everybody
    sees it, and `log` and `events` add this player's own hole cards to it.
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
    shown: tuple[tuple[Card, ...] | None, ...]
    button: int | None
    position: str
    history: tuple[tuple[int, Action], ...]
    public_log: tuple[LogEntry, ...]
    hole_events_at: int

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """The event log as this player may see it (their own hole cards, nobody else's)."""
        return _with_own_cards(self.public_log, self.hole_events_at, self.player, self.hole)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events this player may see (built on each use: keep the result if you need it often)."""
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
    stacks = tuple(hand.stacks)
    n = len(stacks)
    if type(player) is not int or not 0 <= player < n:
        raise InvalidPlayerError(f"no player {player!r} in a hand of {n} (players 0..{n - 1})")
    actor, shown = hand.actor, hand.shown
    return _new(
        SeatView,
        (
            player,
            hand.phase,
            hand.holes[player],
            tuple(hand.board),
            stacks,
            tuple(hand.bets),
            hand.pot,
            tuple(hand.folded),
            actor,
            hand.legal_actions() if actor == player else None,
            hand.stakes.big_blind,
            _NOBODY[n] if shown is None else tuple(shown),
            hand.button,
            _POSITIONS[n][player],
            tuple(hand.history),
            tuple(hand.log),
            hand.hole_events_at,
        ),
    )  # SeatView(...), without the generated __new__'s overhead


def views(hand: HandState) -> list[SeatView]:
    """Every player's view at once (the public parts built once and shared)."""
    n = len(hand.stacks)
    shown = tuple(hand.shown) if hand.shown is not None else _NOBODY[n]
    actor, holes, positions, phase = hand.actor, hand.holes, _POSITIONS[n], hand.phase
    board, stacks, bets, pot = tuple(hand.board), tuple(hand.stacks), tuple(hand.bets), hand.pot
    folded, big_blind, button = tuple(hand.folded), hand.stakes.big_blind, hand.button
    history, log, start = tuple(hand.history), tuple(hand.log), hand.hole_events_at
    legal = hand.legal_actions()
    public = (board, stacks, bets, pot, folded, actor)
    rest = (big_blind, shown, button)
    return [
        _new(
            SeatView,
            (
                p,
                phase,
                holes[p],
                *public,
                legal if actor == p else None,
                *rest,
                positions[p],
                history,
                log,
                start,
            ),
        )
        for p in range(n)
    ]


_new = tuple.__new__
_NOBODY = [(None,) * n for n in range(11)]
_POSITIONS = [position_names(n) if n >= 2 else () for n in range(11)]


def redacted_log(hand: HandState, seat: int | None) -> tuple[LogEntry, ...]:
    """The hand's log as `seat` may see it: their own hole cards and nobody else's (None: a spectator)."""
    if seat is None:
        return tuple(hand.log)
    return _with_own_cards(hand.log, hand.hole_events_at, seat, hand.holes[seat])


def _with_own_cards(
    log: Sequence[LogEntry], start: int, player: int, hole: tuple[Card, ...]
) -> tuple[LogEntry, ...]:
    """The public `log` with `player`'s hole-card event (at `start + player`) showing their cards."""
    entries = list(log)
    if start + player < len(entries):
        entries[start + player] = ("hole", player, hole, None, None, Phase.PREFLOP)
    return tuple(entries)
