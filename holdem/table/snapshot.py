"""Versioned JSON snapshots of a hand: the set-up, the deck order and the actions.

Restoring replays every action through `Hand.act`, so a restored hand is exactly the hand
that was saved (same state, same future cards) and a damaged snapshot cannot build an
impossible state. `undo` is a replay without the last action.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import attrs

from holdem.cards.card import CARDS
from holdem.cards.deck import Deck, RandomSource
from holdem.errors import HoldemError, SnapshotError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.positions import dealing_order
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand
from holdem.table.table import Seat, Table

__all__ = [
    "FORMAT",
    "TABLE_FORMAT",
    "VERSION",
    "from_dict",
    "from_json",
    "replay",
    "table_from_json",
    "table_to_json",
    "to_dict",
    "to_json",
    "undo",
]

FORMAT = "holdem/hand"
VERSION = 1


@functools.lru_cache(maxsize=64)
def _stakes_dict(stakes: Stakes) -> dict[str, Any]:
    """Stakes as JSON-ready data (cached per value: read only, by json.dumps)."""
    return {
        "small_blind": stakes.small_blind,
        "big_blind": stakes.big_blind,
        "ante": stakes.ante,
        "big_blind_ante": stakes.big_blind_ante,
        "straddles": list(stakes.straddles),
        "structure": stakes.structure.value,
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
    }


def _stakes(s: dict[str, Any]) -> Stakes:
    return Stakes(
        s["small_blind"], s["big_blind"], ante=s["ante"], big_blind_ante=s["big_blind_ante"],
        straddles=tuple(s["straddles"]), structure=Structure(s["structure"]),
        small_bet=s["small_bet"], big_bet=s["big_bet"],
    )  # fmt: skip


@functools.lru_cache(maxsize=64)
def _rules_dict(rules: Rules) -> dict[str, Any]:
    """Rules as JSON-ready data (cached per value: read only, by json.dumps)."""
    return {field.name: getattr(rules, field.name) for field in attrs.fields(Rules)}


def to_dict(hand: Hand) -> dict[str, Any]:
    """The hand as plain JSON-ready data."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "stakes": _stakes_dict(hand.stakes),
        "rules": _rules_dict(hand.rules),
        "starting_stacks": list(hand.starting_stacks),
        "blinds": list(hand.declared_blinds),
        "dead": list(hand.declared_dead),
        "first_to_act": hand.opener,
        "dead_button": hand.button is None,
        "big_blind_player": hand.big_blind_player,
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
    dead: list[int] | None = None,
    first_to_act: int | None = None,
    dead_button: bool = False,
    big_blind_player: int | None = None,
) -> Hand:
    """A hand started from this set-up with these actions applied, each checked by the rules."""
    hand = Hand.start(
        stacks, stakes, rules=rules, deck=deck, blinds=blinds, dead=dead, first_to_act=first_to_act,
        dead_button=dead_button, big_blind_player=big_blind_player,
    )  # fmt: skip
    for player, action in actions:
        hand.act(action, player)
    return hand


def undo(hand: Hand) -> Hand:
    """A new hand equal to `hand` before its last action (the same hand if none was taken)."""
    return hand.rewound(max(len(hand.history) - 1, 0))


def _check_header(data: Any, kind: str) -> None:
    if not isinstance(data, dict) or data.get("format") != kind:
        raise SnapshotError(f"not a {kind} snapshot")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise SnapshotError(f"unsupported snapshot version {version!r} (this library reads {VERSION})")


def _parse(text: Any) -> Any:
    """JSON text to data; anything that is not JSON text is a `SnapshotError`."""
    if not isinstance(text, str | bytes | bytearray):
        raise SnapshotError(f"a snapshot is JSON text, got {type(text).__name__}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SnapshotError(f"not JSON: {error}") from None
    except (RecursionError, UnicodeDecodeError, ValueError):
        raise SnapshotError("not JSON: nested too deeply or not text") from None


def from_dict(data: Any) -> Hand:
    """Restore a hand from `to_dict` data; `SnapshotError` names what is wrong."""
    _check_header(data, FORMAT)
    try:
        stakes, rules = _stakes(data["stakes"]), Rules(**data["rules"])
        deck = _deck(data["deck"])
        actions = [(p, _action(kind, amount)) for p, kind, amount in data["actions"]]
        return replay(
            data["starting_stacks"],
            stakes,
            rules,
            deck,
            data["blinds"],
            actions,
            data["dead"],
            data["first_to_act"],
            data.get("dead_button", False),
            data.get("big_blind_player"),  # snapshots before 0.13 have none: the default position
        )
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
    return Deck._of(tuple(CARDS[i] for i in indices))  # checked above: distinct cards


def from_json(text: str) -> Hand:
    """Restore a hand from `to_json` text."""
    return from_dict(_parse(text))


TABLE_FORMAT = "holdem/table"


def table_to_json(table: Table) -> str:
    """A table (seats, button, blinds, eliminations and the hand in progress) as JSON."""
    return json.dumps(
        {
            "format": TABLE_FORMAT,
            "version": VERSION,
            "size": table.size,
            "stakes": _stakes_dict(table.stakes),
            "rules": _rules_dict(table.rules),
            "button_rule": table.button_rule,
            "seats": [attrs.asdict(seat) if seat is not None else None for seat in table.seats],
            "button": table.button,
            "small_blind_seat": table.small_blind_seat,
            "big_blind_seat": table.big_blind_seat,
            "eliminated": table.eliminated,
            "hand_seats": list(table.hand_seats),
            "hand": to_dict(table.hand) if table.hand is not None else None,
        },
        separators=(",", ":"),
    )


def table_from_json(text: str, *, rng: RandomSource | None = None) -> Table:
    """Restore a table saved by `table_to_json` (random sources are not saved: pass a new `rng`).

    Every field is checked, so a damaged snapshot is a `SnapshotError` naming the field.
    """
    data = _parse(text)
    _check_header(data, TABLE_FORMAT)
    try:
        table = Table(
            data["size"],
            _stakes(data["stakes"]),
            rules=Rules(**data["rules"]),
            button=data["button_rule"],
            rng=rng,
        )
        seats = data["seats"]
        if not isinstance(seats, list) or len(seats) != table.size:
            raise SnapshotError(f"seats must list the {table.size} seats of the table")
        table.seats = [_seat(seat, k) if seat is not None else None for k, seat in enumerate(seats)]
        for name in ("button", "small_blind_seat", "big_blind_seat"):
            seat = data[name]
            if seat is not None and (type(seat) is not int or not 0 <= seat < table.size):
                raise SnapshotError(f"{name} must be a seat 0..{table.size - 1} or null, got {seat!r}")
        table.button, table.small_blind_seat = data["button"], data["small_blind_seat"]
        table.big_blind_seat = data["big_blind_seat"]
        eliminated = data["eliminated"]
        if not isinstance(eliminated, list) or not all(isinstance(e, str) for e in eliminated):
            raise SnapshotError(f"eliminated must be a list of names, got {eliminated!r}")
        table.eliminated = eliminated
        hand_seats = data["hand_seats"]
        if not isinstance(hand_seats, list) or not all(
            type(s) is int and 0 <= s < table.size for s in hand_seats
        ):
            raise SnapshotError(f"hand_seats must be seats 0..{table.size - 1}, got {hand_seats!r}")
        if len(set(hand_seats)) != len(hand_seats):
            raise SnapshotError(f"hand_seats names a seat twice: {hand_seats!r}")
        table.hand_seats = tuple(hand_seats)
        table.hand = from_dict(data["hand"]) if data["hand"] is not None else None
        if table.hand is not None:
            _check_hand_seats(table, table.hand)
    except SnapshotError:
        raise
    except (HoldemError, KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"cannot restore the table: {type(error).__name__}: {error}") from None
    return table


def _check_hand_seats(table: Table, hand: Hand) -> None:
    """The hand in progress agrees with its table: one player per occupied seat, in dealing order
    from the button, each starting with the chips their seat holds (the table gives the seats
    their final stacks at `end_hand`, so any difference would create or destroy chips)."""
    seats = table.hand_seats
    if len(hand.stacks) != len(seats):
        raise SnapshotError(f"the hand has {len(hand.stacks)} players but hand_seats {list(seats)!r}")
    empty = [s for s in seats if table.seats[s] is None]
    if empty:
        raise SnapshotError(f"hand_seats names empty seats {empty!r}")
    if table.button is None or list(seats) != dealing_order(seats, table.button, table.size):
        raise SnapshotError(
            f"hand_seats {list(seats)!r} are not in dealing order from the button {table.button!r}"
        )
    stacks = [table._place(s).stack for s in seats]
    if stacks != list(hand.starting_stacks):
        raise SnapshotError(
            f"the hand's starting stacks {list(hand.starting_stacks)!r} are not the seats' stacks {stacks!r}"
        )


def _seat(data: Any, k: int) -> Seat:
    """One seat of a table snapshot, every field checked."""
    if not isinstance(data, dict) or set(data) != {f.name for f in attrs.fields(Seat)}:
        raise SnapshotError(f"seat {k} must have the fields of a Seat, got {data!r}")
    if not isinstance(data["name"], str):
        raise SnapshotError(f"seat {k}: name must be text, got {data['name']!r}")
    if type(data["stack"]) is not int or data["stack"] < 0:
        raise SnapshotError(f"seat {k}: stack must be a non-negative whole number, got {data['stack']!r}")
    for name, value in data.items():
        if name not in ("name", "stack") and not isinstance(value, bool):
            raise SnapshotError(f"seat {k}: {name} must be true or false, got {value!r}")
    return Seat(**data)
