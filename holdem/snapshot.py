"""Versioned JSON snapshots of a hand: the set-up, the deck order and the actions.

Restoring replays every action through `Hand.act`, so a restored hand is exactly the hand
that was saved (same state, same future cards) and a damaged snapshot cannot build an
impossible state. `undo` is a replay without the last action.
"""

from __future__ import annotations

import json
from typing import Any

from holdem.actions import Action, ActionKind
from holdem.cards import CARDS
from holdem.deck import Deck
from holdem.errors import HoldemError, SnapshotError
from holdem.hand import Hand
from holdem.stakes import Rules, Stakes, Structure

__all__ = ["FORMAT", "VERSION", "from_dict", "from_json", "replay", "to_dict", "to_json", "undo"]

FORMAT = "holdem/hand"
VERSION = 1


def to_dict(hand: Hand) -> dict[str, Any]:
    """The hand as plain JSON-ready data."""
    stakes, rules = hand.stakes, hand.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "stakes": {
            "small_blind": stakes.small_blind,
            "big_blind": stakes.big_blind,
            "ante": stakes.ante,
            "big_blind_ante": stakes.big_blind_ante,
            "straddles": list(stakes.straddles),
            "structure": stakes.structure.value,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
        },
        "rules": {
            "short_all_in_reopens": rules.short_all_in_reopens,
            "big_blind_ante_order": rules.big_blind_ante_order,
            "forbid_free_fold": rules.forbid_free_fold,
            "rake_percent": rules.rake_percent,
            "rake_cap": rules.rake_cap,
            "muck_losers": rules.muck_losers,
        },
        "starting_stacks": list(hand.starting_stacks),
        "blinds": list(hand.declared_blinds),
        "deck": [card.index for card in hand.deck.order],
        "actions": [[player, action.kind, action.amount] for player, action in hand.history],
    }


def to_json(hand: Hand) -> str:
    """The hand as a JSON document (`from_json` restores it)."""
    return json.dumps(to_dict(hand), separators=(",", ":"))


def replay(
    stacks: list[int],
    stakes: Stakes,
    rules: Rules,
    deck: Deck,
    blinds: list[int],
    actions: list[tuple[int, Action]],
) -> Hand:
    """A hand started from this set-up with these actions applied, each checked by the rules."""
    hand = Hand.start(stacks, stakes, rules=rules, deck=deck, blinds=blinds)
    for player, action in actions:
        hand.act(action, player)
    return hand


def undo(hand: Hand) -> Hand:
    """A new hand equal to `hand` before its last action (the same hand if none was taken)."""
    return replay(
        list(hand.starting_stacks),
        hand.stakes,
        hand.rules,
        Deck(hand.deck.order),
        list(hand.declared_blinds),
        hand.history[:-1],
    )


def from_dict(data: Any) -> Hand:
    """Restore a hand from `to_dict` data; `SnapshotError` names what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError(f"not a {FORMAT} snapshot")
    if data.get("version") != VERSION:
        raise SnapshotError(
            f"unsupported snapshot version {data.get('version')!r} (this library reads {VERSION})"
        )
    try:
        s, r = data["stakes"], data["rules"]
        stakes = Stakes(
            s["small_blind"], s["big_blind"], ante=s["ante"], big_blind_ante=s["big_blind_ante"],
            straddles=tuple(s["straddles"]), structure=Structure(s["structure"]),
            small_bet=s["small_bet"], big_bet=s["big_bet"],
        )  # fmt: skip
        rules = Rules(**r)
        deck = _deck(data["deck"])
        actions = [(p, _action(kind, amount)) for p, kind, amount in data["actions"]]
        return replay(data["starting_stacks"], stakes, rules, deck, data["blinds"], actions)
    except SnapshotError:
        raise
    except (HoldemError, KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"cannot restore the snapshot: {type(error).__name__}: {error}") from None


_SIMPLE = {"fold": Action.fold(), "check": Action.check(), "call": Action.call()}


def _action(kind: str, amount: Any) -> Action:
    if kind == ActionKind.RAISE:
        return Action.raise_to(amount)
    if kind not in _SIMPLE or amount is not None:
        raise SnapshotError(f"bad action {[kind, amount]!r}")
    return _SIMPLE[kind]


def _deck(indices: Any) -> Deck:
    if not isinstance(indices, list) or not all(type(i) is int and 0 <= i < 52 for i in indices):
        raise SnapshotError("deck must be a list of card indices 0..51")
    if len(set(indices)) != len(indices):
        raise SnapshotError("a card appears twice in the deck")
    return Deck([CARDS[i] for i in indices])


def from_json(text: str) -> Hand:
    """Restore a hand from `to_json` text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SnapshotError(f"not JSON: {error}") from None
    return from_dict(data)
