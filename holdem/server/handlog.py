"""A hand's log as the server sends it: JSON events by seat, with the chips each call and raise put in."""

from __future__ import annotations

from typing import Any

from holdem.hand.events import DEALT, KIND, EventKind
from holdem.hand.views import chips_put_in, redacted_log

__all__ = ["hand_log", "log_entry"]


def hand_log(hand: Any, seats: tuple[int, ...], player: int | None = None) -> list[dict[str, Any]]:
    """A hand's log as `player` may see it (their own hole cards and those shown; None: as everyone
    may), by seat, with the chips each call and raise put in."""
    paid = {k: {"chips": chips, "all_in": all_in} for k, (chips, all_in) in chips_put_in(hand).items()}
    return [
        log_entry(entry, seats) | paid.get(k, {})
        for k, entry in enumerate(redacted_log(hand, player))
        if entry[KIND] != EventKind.HOLE or entry[DEALT]
    ]


def log_entry(entry: Any, dealt: tuple[int, ...]) -> dict[str, Any]:
    """One event of a hand's log as JSON, with seats for players."""
    kind, player, cards, amount, action, phase = entry
    return {
        "kind": kind,
        "seat": dealt[player] if player is not None else None,
        "cards": [str(card) for card in cards],
        "amount": amount,
        "action": None if action is None else action.kind.value,
        "to": None if action is None else action.amount,
        "phase": phase.name.lower(),
    }
