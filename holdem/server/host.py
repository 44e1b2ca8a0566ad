"""A home game's requests (`holdem.server.hosting` holds its state): a game made from the lobby, seats
asked for and granted, the host's controls, chat, showing a hand after it ends, and the settle-up.

Each function either raises `RequestError` having changed nothing or changes the room and returns
the `Change` to store, as the room's own methods do.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from holdem.bots import BUILT_IN
from holdem.server.config import RequestError, TableConfig, table_config
from holdem.server.hosting import Home, Seeker
from holdem.server.room import Change, LedgerRow, Room, token_digest
from holdem.table.settleup import settle_up

__all__ = [
    "CHAT_KEPT",
    "CHAT_LIMIT",
    "CHAT_RATE",
    "COMMANDS",
    "ask",
    "command",
    "is_host",
    "new_game",
    "say",
    "settlement",
    "show",
]

CHAT_LIMIT = 200
"""Longest chat message, in characters."""
CHAT_KEPT = 50
"""Chat messages kept with the table (the oldest go first)."""
CHAT_RATE = (5, 10.0)
"""At most this many chat messages from one seat in this many seconds."""
COMMANDS = ("approve", "decline", "pause", "resume", "blinds", "remove", "end", "bot", "stats")
"""What the host can do."""


GAME_NAME = 40
"""The longest name a host may give a game, in characters."""


def new_game(config: TableConfig, name: Any = "", listed: Any = False) -> tuple[Room, str]:
    """A hosted table with `config`, and its host token (a token for this table alone). `name` (up to
    `GAME_NAME` printable characters) is what the lobby shows; `listed`: whether it lists the game."""
    if not isinstance(name, str) or len(name.strip()) > GAME_NAME or not name.strip().isprintable():
        raise RequestError(f"a game's name is up to {GAME_NAME} printable characters, got {name!r:.50}")
    if type(listed) is not bool:
        raise RequestError(f"listed must be true or false, got {listed!r:.20}")
    room = Room(secrets.token_hex(4), config)
    token = room.new_token()
    room.home = Home(token_digest(token), name=name.strip(), listed=listed)
    return room, token


def is_host(room: Room, digest: str) -> bool:
    """Whether `digest` is the digest of the table's host token (compared in constant time)."""
    return room.home is not None and hmac.compare_digest(room.home.host_digest, digest)


def ask(
    room: Room, name: Any, buy_in: Any, seat: Any, host: bool, now: float
) -> tuple[int, str, bool, Change]:
    """Ask for a seat: (seat, token, whether it waits for the host, change). At a table without a
    host, or asked with the host's token, the player sits at once."""
    name, seat = room.check_join(name, buy_in, seat)
    token = room.new_token()
    if room.home is None or host:
        return seat, token, False, room.admit(seat, name, buy_in, token_digest(token), now)
    room.home.pending[seat] = Seeker(name, buy_in, token_digest(token))
    return seat, token, True, Change()


def command(room: Room, data: dict[str, Any], now: float) -> Change:
    """Carry out one of the host's `COMMANDS` (``{"command": ..., ...}``)."""
    home = room.home
    if home is None:
        raise RequestError("this table has no host", 409)
    kind = data.get("command")
    if kind not in COMMANDS:
        raise RequestError(f"unknown command {kind!r}; known: {', '.join(COMMANDS)}")
    if home.ended:
        raise RequestError("this game has ended", 409)
    if kind in ("approve", "decline"):
        seat = _seat(room, data, home.pending, "asking for")
        seeker = home.pending.pop(seat)
        if kind == "decline":
            return Change()
        return room.admit(seat, seeker.name, seeker.buy_in, seeker.digest, now)
    if kind in ("pause", "resume"):
        if home.paused == (kind == "pause"):
            raise RequestError(f"the game is already {'paused' if home.paused else 'running'}")
        home.paused = kind == "pause"
        room.turn_started = now  # the player to act gets a fresh decision clock; the bank is kept
        return room.resume(now) or Change()
    if kind == "blinds":
        return _blinds(room, home, data, now)
    if kind == "remove":
        seat = _seat(room, data, room.members, "held by")
        home.bots.pop(seat, None)
        return room.leave(seat, now)  # now, or when the hand in progress ends; the chips to the ledger
    if kind == "bot":
        return _seat_bot(room, home, data, now)
    if kind == "stats":
        return _show_stats(home, data)
    return _end(room, home, now)


def _seat(room: Room, data: dict[str, Any], held: dict[int, Any], what: str) -> int:
    seat = data.get("seat")
    if type(seat) is not int or seat not in held:
        raise RequestError(f"seat must be a seat {what} a player, got {seat!r}")
    return seat


def _blinds(room: Room, home: Home, data: dict[str, Any], now: float) -> Change:
    """New blinds (and ante) from the next hand, checked as a new table's settings are."""
    unknown = sorted(set(data) - {"command", "small_blind", "big_blind", "ante"})
    if unknown:
        raise RequestError(f"unknown fields {unknown}; known: small_blind, big_blind, ante")
    wanted = {"small_blind": data.get("small_blind"), "big_blind": data.get("big_blind"),
              "ante": data.get("ante", room.config.ante)}  # fmt: skip
    config = table_config(room.config.to_dict() | wanted)
    home.blinds = (config.small_blind, config.big_blind, config.ante)
    return room.resume(now) or Change()


def _show_stats(home: Home, data: dict[str, Any]) -> Change:
    """Let everyone with the link see the players' statistics (``"on": true``), or only the host."""
    unknown = sorted(set(data) - {"command", "on"})
    if unknown:
        raise RequestError(f"unknown fields {unknown}; known: on")
    on = data.get("on")
    if type(on) is not bool:
        raise RequestError(f"on must be true or false, got {on!r:.20}")
    home.stats = on
    return Change()


def _seat_bot(room: Room, home: Home, data: dict[str, Any], now: float) -> Change:
    """Seat one of the built-in bots (by name only: a web page loads no code) in a free seat."""
    spec = data.get("bot")
    if spec not in BUILT_IN or spec == "scripted":
        known = ", ".join(name for name in BUILT_IN if name != "scripted")
        raise RequestError(f"bot must be one of {known}; got {spec!r}")
    taken = {m.name.casefold() for m in room.members.values()} | {
        s.name.casefold() for s in home.pending.values()
    }
    names = (f"{spec} bot" + (f" {k}" if k > 1 else "") for k in range(1, 12))
    name = next(n for n in names if n.casefold() not in taken)
    buy_in = data.get("buy_in", room.config.max_buy_in)
    name, seat = room.check_join(name, buy_in, data.get("seat"))
    change = room.admit(seat, name, buy_in, token_digest(room.new_token()), now)
    home.bots[seat] = str(spec)
    return change


def _end(room: Room, home: Home, now: float) -> Change:
    """End the game: requests declined, everyone cashed out now or when the hand in progress ends."""
    home.ended, home.paused = True, False
    home.pending.clear()
    change = Change()
    for seat in list(room.members):
        left = room.leave(seat, now)
        change.ledger += left.ledger
    return change


def say(room: Room, seat: int, text: Any, now: float) -> Change:
    """A chat message from the player in `seat`: 1 to `CHAT_LIMIT` printable characters, at most
    `CHAT_RATE` messages in its window. Kept as text: the page shows it as text, never markup."""
    member = room.members.get(seat)
    if member is None:
        raise RequestError("only a seated player can chat")
    if not isinstance(text, str) or not text.strip() or len(text.strip()) > CHAT_LIMIT:
        raise RequestError(f"a chat message is 1 to {CHAT_LIMIT} characters, got {text!r:.40}")
    if not all(c.isprintable() for c in text.strip()):
        raise RequestError("a chat message is printable characters only (no control characters)")
    count, window = CHAT_RATE
    recent = [t for t in room.spoken.get(seat, []) if now - t < window]
    if len(recent) >= count:
        raise RequestError(f"chat: at most {count} messages in {window:g} seconds")
    room.spoken[seat] = [*recent, now]
    return _post(room, {"seat": seat, "name": member.name, "text": text.strip()})


def show(room: Room, seat: int, number: Any) -> Change:
    """The player in `seat` shows their cards of the hand just finished (they won without a showdown,
    or mucked): everyone sees them, in the chat and with the last hand."""
    last, member = room.last_hand, room.members.get(seat)
    if last is None or type(number) is not int or number != last.number:
        raise RequestError(f"only the last hand's cards can be shown, hand {last and last.number}")
    seen = last.view_for(seat, member.digest if member is not None else None)
    if member is None or seen is None:
        raise RequestError(f"you were not dealt into hand {number}")
    if seat in last.shown:
        raise RequestError(f"your cards of hand {number} are shown already")
    cards = [str(card) for card in seen.hole]
    last.shown[seat] = tuple(cards)
    return _post(
        room, {"seat": seat, "name": member.name, "text": f"shows {' '.join(cards)}", "cards": cards}
    )


def _post(room: Room, entry: dict[str, Any]) -> Change:
    room.chat_seq += 1
    room.chat = [*room.chat[-(CHAT_KEPT - 1) :], {"n": room.chat_seq} | entry]
    return Change()


def settlement(room: Room, rows: list[LedgerRow]) -> dict[str, Any]:
    """Each player's buy-ins, cash-outs, chips on the table and net, from the stored ledger, and the
    fewest payments that settle them. A player dealt into the hand in progress counts the chips they
    had when it began (the pot is nobody's yet)."""
    players: dict[str, dict[str, Any]] = {}
    for row in rows:
        blank = {"name": row.name, "bought": 0, "cashed": 0, "on_table": 0}
        entry = players.setdefault(row.name.casefold(), blank)
        entry["cashed" if row.kind == "cash_out" else "bought"] += row.chips
    for seat, member in room.members.items():  # each bought in, so each has a row
        players[member.name.casefold()]["on_table"] += room.held(seat)
    for entry in players.values():
        entry["net"] = entry["cashed"] + entry["on_table"] - entry["bought"]
    payments = settle_up({e["name"]: e["net"] for e in players.values()})
    ended = room.home is not None and room.home.ended
    return {
        "table": room.id,
        "ended": ended,
        # Final once the game has ended and the last hand with it: everyone has cashed out.
        "final": ended and not room.members,
        "players": sorted(players.values(), key=lambda e: (-e["net"], e["name"].casefold())),
        "payments": [{"from": p.payer, "to": p.payee, "chips": p.chips} for p in payments],
    }
