"""A table's chat: the last `CHAT_KEPT` lines, numbered, and each seat's recent messages for the rate
limit. A line is kept as text (the page shows it as text, never markup); a player showing their cards
of the hand just finished is a line too, with the cards."""

from __future__ import annotations

from typing import Any

import attrs

from holdem.errors import RequestError

__all__ = ["CHAT_KEPT", "CHAT_LIMIT", "CHAT_RATE", "Chat", "ChatLine"]

CHAT_LIMIT = 200
"""Longest chat message, in characters."""
CHAT_KEPT = 50
"""Chat messages kept with the table (the oldest go first)."""
CHAT_RATE = (5, 10.0)
"""At most this many chat messages from one seat in this many seconds."""


@attrs.frozen
class ChatLine:
    """One line: its number, the seat, name and person (`holdem.server.room.person_id`) of who wrote
    it, the text, and the cards shown (if any). The person tells a different Ann from the one seated."""

    n: int
    seat: int
    name: str
    text: str
    cards: tuple[str, ...] | None = None
    person: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The line as the page and the store read it (no "cards" key unless cards were shown)."""
        data: dict[str, Any] = {
            "n": self.n, "seat": self.seat, "name": self.name, "person": self.person, "text": self.text
        }  # fmt: skip
        return data if self.cards is None else data | {"cards": list(self.cards)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatLine:
        cards = data.get("cards")
        cards = None if cards is None else tuple(cards)
        return cls(data["n"], data["seat"], data["name"], data["text"], cards, data.get("person", ""))


@attrs.define
class Chat:
    """The lines kept, the last line's number, and each seat's recent message times (not stored)."""

    lines: list[ChatLine] = attrs.Factory(list)
    seq: int = 0
    spoken: dict[int, list[float]] = attrs.field(factory=dict, eq=False)  # not stored: not compared

    def say(self, seat: int, name: str, text: Any, now: float, person: str = "") -> None:
        """A message from the player in `seat`: 1 to `CHAT_LIMIT` printable characters, at most
        `CHAT_RATE` messages in its window (`RequestError` otherwise, and nothing kept)."""
        if not isinstance(text, str) or not text.strip() or len(text.strip()) > CHAT_LIMIT:
            raise RequestError(f"a chat message is 1 to {CHAT_LIMIT} characters, got {text!r:.40}")
        if not all(c.isprintable() for c in text.strip()):
            raise RequestError("a chat message is printable characters only (no control characters)")
        count, window = CHAT_RATE
        recent = [t for t in self.spoken.get(seat, []) if now - t < window]
        if len(recent) >= count:
            raise RequestError(f"chat: at most {count} messages in {window:g} seconds")
        self.spoken[seat] = [*recent, now]
        self.post(seat, name, text.strip(), person=person)

    def post(
        self, seat: int, name: str, text: str, cards: tuple[str, ...] | None = None, person: str = ""
    ) -> None:
        """Keep a line, numbered after the last; the oldest beyond `CHAT_KEPT` go."""
        self.seq += 1
        line = ChatLine(self.seq, seat, name, text, cards, person)
        self.lines = [*self.lines[-(CHAT_KEPT - 1) :], line]

    def recent(self, count: int) -> list[dict[str, Any]]:
        """The last `count` lines as JSON."""
        return [line.to_dict() for line in self.lines[-count:]]

    def to_dict(self) -> dict[str, Any]:
        """The stored form: the keys rooms have always been stored with."""
        return {"chat": [line.to_dict() for line in self.lines], "chat_seq": self.seq}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chat:
        return cls([ChatLine.from_dict(line) for line in data.get("chat", [])], data.get("chat_seq", 0))
