"""The WebSocket messages: the ``state`` each seat or spectator is sent, and the requests clients send.

A state message is built from the room for one seat (None: a spectator) and holds only what that
seat may see: its own hole cards, the board, and cards shown down (rule 19). The hand's log is the
public log with seats for players; hole cards appear in it only as the seat's own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from typing import Any

from holdem.errors import HoldemError, RequestError
from holdem.hand.actions import Action
from holdem.hand.views import view
from holdem.server import Message
from holdem.server.handlog import hand_log
from holdem.server.room import Room, person_id

__all__ = [
    "ALIVE_TEXT", "MESSAGE_LIMIT", "PONG_TEXT", "Request", "error_message", "finished_message",
    "moved_message", "parse_json", "parse_request", "state_message", "waiting_message",
]  # fmt: skip

MESSAGE_LIMIT = 64 * 1024
"""Longest message a client may send, in bytes (UTF-8)."""

Request = tuple[str, dict[str, Any]]
"""A checked client request: its type and its fields."""

_ACTIONS = {"fold": Action.fold(), "check": Action.check(), "call": Action.call()}


def state_message(
    room: Room, seat: int | None, now: float, *, with_view: bool = False, away: Collection[int] = ()
) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of the room now; `with_view` adds, while the seat is in
    a hand, its `SeatView` as `to_dict` writes it (``"view"``), the very view a local bot is given.
    `away`: the seats whose players have no connection open (marked away)."""
    table, hand = room.table, room.table.hand
    dealt = table.hand_seats if hand is not None else ()
    player = dealt.index(seat) if seat is not None and seat in dealt else None
    message: dict[str, Any] = {
        "type": Message.STATE,
        "table": room.id,
        "tournament": room.tournament,
        "seat": seat,
        "hand": room.number,
        "config": room.config.to_dict(),
        "seats": _seats(room, dealt),
        "phase": None,
        "board": [],
        "pot": 0,
        "button": table.button,
        "actor": None,
        "steps": 0,
        "hole": [],
        "legal": None,
        "clock": None,
        "log": [],
        "last_hand": room.last_hand.public() if room.last_hand is not None else None,
        "chat": room.chat.recent(CHAT_SENT),
        "home": _home(room),
        "away": sorted(away),
    }
    if seat is not None and seat in room.members:
        message["bank"] = round(room.members[seat].bank, 3)
        least, most = room.buy_in_range(room.held(seat))
        offer = {"least": least, "most": most, "have": room.held(seat)}
        message["rebuy"] = offer if most >= least else None  # none at or above the table's most
    member = room.members.get(seat) if seat is not None else None
    if with_view and room.last_hand is not None and member is not None:
        seen = room.last_hand.view_for(seat, member.digest)  # its own view of the last hand, as it ended
        if seen is not None:
            message["last_view"] = seen.to_dict()
    if hand is not None:
        message |= _hand_fields(room, player, dealt, now, with_view, away)
    return message


CHAT_SENT = 30
"""Chat messages sent with each state (the newest)."""


def _home(room: Room) -> dict[str, Any] | None:
    """A home game's public state: its name, paused, ended, the next blinds, who asks for a seat, the
    bots, whether everyone may see the players' statistics."""
    home = room.home
    if home is None:
        return None
    return {
        "name": home.name,
        "paused": home.paused,
        "ended": home.ended,
        "next_blinds": list(home.blinds) if home.blinds is not None else None,
        "pending": [{"seat": s, "name": p.name, "buy_in": p.buy_in} for s, p in sorted(home.pending.items())],
        "bots": sorted(home.bots),
        "stats": home.stats,
    }


def finished_message(tourney: Any, digest: str, rooms: Mapping[str, Room]) -> dict[str, Any]:
    """`Tourney.finish_of`'s message for an entrant who is out, with, for a bot's `end_hand`, the
    entrant's own view of the hand that ended it and that hand's result, where its table still is."""
    message: dict[str, Any] = tourney.finish_of(digest)
    for ident in tourney.rooms:
        room = rooms.get(ident)
        if room is None or room.last_hand is None:
            continue
        last = room.last_hand
        for end in last.ends.values():
            if end.name == message["name"]:
                message |= {"last_view": end.view.to_dict(), "last_result": last.result.to_dict(),
                            "last_table": ident, "last_number": last.number}  # fmt: skip
    return message


def _seats(room: Room, dealt: tuple[int, ...]) -> list[dict[str, Any] | None]:
    """Each seat as everyone sees it: the member's name and person (`person_id`), stack, pending
    chips, and, while dealt in, the hand's stack, bet, fold and forced bet (None for an empty seat)."""
    table, hand = room.table, room.table.hand
    seats: list[dict[str, Any] | None] = []
    for s in range(room.config.seats):
        member, place = room.members.get(s), table.seats[s]
        if member is None:
            seats.append(None)
            continue
        entry: dict[str, Any] = {
            "name": member.name,
            "person": person_id(member.digest),
            "stack": place.stack if place is not None else 0,
            "pending": member.joining + member.rebuy,
            "bet": 0,
            "in_hand": False,
            "folded": False,
            "sitting_out": place is not None and place.sitting_out,
            "joining": place is None,
            # a cash table's newcomer or returning player, not dealt in until the big blind comes (rule 3)
            "waiting": room.tournament is None and place is not None and place.waiting and s not in dealt,
            "leaving": member.leaving,
            "blind": None,
        }
        if hand is not None and s in dealt:
            k = dealt.index(s)
            role = _blind_role(room, s, hand.declared_blinds[k], hand.declared_dead[k])
            entry |= {"stack": hand.stacks[k], "bet": hand.bets[k], "in_hand": True, "folded": hand.folded[k],
                      "blind": role}  # fmt: skip
        seats.append(entry)
    return seats


def _hand_fields(
    room: Room, player: int | None, dealt: tuple[int, ...], now: float, with_view: bool, away: Collection[int]
) -> dict[str, Any]:
    """The hand in progress as `player` (None: not dealt in) may see it: the board, pot, actor and
    step, their own cards, the log with only their own hole cards, the clock, their view and, on
    their turn (unless the host has paused the game), the legal actions."""
    hand = room.table.hand
    assert hand is not None
    fields: dict[str, Any] = {
        "phase": hand.phase.name.lower(),
        "board": [str(card) for card in hand.board],
        "pot": hand.pot,
        "actor": room.actor_seat(),
        "steps": len(hand.history),
        "dealt": list(dealt),
        "hole": [str(card) for card in hand.holes[player]] if player is not None else [],
        "log": hand_log(hand, dealt, player),
    }
    clock = room.clock(now, away)
    if clock is not None:
        fields["clock"] = {"seat": clock[0], "seconds": round(clock[1], 3), "bank": round(clock[2], 3)}
    if with_view and player is not None:
        fields["view"] = view(hand, player).to_dict()
    legal = hand.legal_actions()
    paused = room.home is not None and room.home.paused  # nobody is asked to act while the host pauses
    if legal is not None and player == legal.player and not paused:
        fields["legal"] = {
            "fold": legal.can_fold,
            "check": legal.can_check,
            "call": legal.to_call if legal.can_call else 0,
            "raise": {"min": legal.min_raise_to, "max": legal.max_raise_to} if legal.can_raise else None,
        }
    return fields


def _blind_role(room: Room, seat: int, blind: int, dead: int) -> str | None:
    """What the seat's forced bet is, in words a player reads at the table (rules 1-3)."""
    table = room.table
    if not blind:
        return None
    if seat == table.big_blind_seat:
        role = "big blind"
    elif seat in table.straddle_seats():
        role = "straddle"
    elif seat == table.small_blind_seat:
        role = "button and small blind (heads-up)" if seat == table.button else "small blind"
    else:
        role = "big blind to come in"  # a new or returning player's post (rule 3)
    return role + (" and a dead small blind" if dead else "")


def error_message(message: str) -> str:
    return json.dumps({"type": Message.ERROR, "message": message})


ALIVE_TEXT = json.dumps({"type": Message.ALIVE}, separators=(",", ":"))
"""A sign of life, to a connection opened with ``alive=1`` after a quiet spell (`connection.ALIVE`)."""
PONG_TEXT = json.dumps({"type": Message.PONG})
"""The answer to a ``ping``."""


def moved_message(table: str, seat: int | None) -> str:
    """To a tournament entrant: your seat is now at `table` (a table was broken or balanced)."""
    return json.dumps({"type": Message.MOVED, "table": table, "seat": seat})


def waiting_message(tourney: str, status: str) -> str:
    """To an entrant with no seat yet (or no more): where the tournament stands."""
    return json.dumps({"type": Message.WAITING, "tournament": tourney, "status": status})


class _Constant(str):
    """NaN, Infinity or -Infinity as written: JavaScript's extensions, which JSON does not have."""


def parse_json(text: str | bytes) -> Any:
    """A JSON document with finite numbers only: NaN, Infinity and numbers beyond a double's range
    are refused naming the field (`RequestError`)."""
    try:
        data = json.loads(text, parse_constant=_Constant)
    except (ValueError, RecursionError):
        raise RequestError("malformed JSON") from None
    _check_finite(data, "")
    return data


def _check_finite(value: Any, where: str) -> None:
    if isinstance(value, _Constant) or (isinstance(value, float) and not math.isfinite(value)):
        shown = value if isinstance(value, _Constant) else "a number beyond a double's range"
        raise RequestError(f"{where or 'the message'} must be a finite number, got {shown}")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_finite(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            _check_finite(item, f"{where}[{k}]")


def parse_request(text: str | bytes) -> Request:
    """A client's message, checked; `RequestError` names what is wrong with it."""
    if len(text) > MESSAGE_LIMIT or (
        isinstance(text, str) and len(text.encode("utf-8", "replace")) > MESSAGE_LIMIT
    ):
        raise RequestError(f"message over {MESSAGE_LIMIT // 1024} KiB")
    data = parse_json(text)
    if not isinstance(data, dict):
        raise RequestError(f"a message is a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "act":
        action = data.get("action")
        if action == "raise":
            amount = data.get("amount")
            if type(amount) is not int:
                raise RequestError(f"a raise needs amount, the raise-to total in chips, got {amount!r}")
            try:
                data["action"] = Action.raise_to(amount)
            except HoldemError as error:
                raise RequestError(str(error)) from None
        elif isinstance(action, str) and action in _ACTIONS:
            data["action"] = _ACTIONS[action]
        else:
            raise RequestError(f"action must be fold, check, call or raise, got {action!r}")
        return "act", data
    if kind in _KINDS:
        return kind, data
    raise RequestError(f"unknown message type {kind!r}; known: act, {', '.join(_KINDS)}")


_KINDS = ("sit_out", "sit_in", "rebuy", "chat", "show", "ping", "state")
