"""Cards: the `Card` value, its two-character form, and a forgiving parser."""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum, unique

import attrs

from holdem.errors import DuplicateCardError, InvalidCardError

__all__ = ["CARDS", "Card", "Rank", "Suit", "format_cards", "parse_card", "parse_cards"]

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"


@unique
class Rank(IntEnum):
    """A card rank; deuce is lowest, ace highest (the ace also plays low in the wheel)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-character form: ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self]


@unique
class Suit(IntEnum):
    """A card suit; the order (clubs < diamonds < hearts < spades) only breaks sorting ties."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-character form: ``c``, ``d``, ``h``, ``s``."""
        return SUIT_CHARS[self]


@attrs.frozen(order=True, repr=False)
class Card:
    """A playing card: an immutable, hashable value ordered by rank, then suit.

    `index` (``4 * rank + suit``, 0–51) is the integer form the fast paths use.
    """

    rank: Rank = attrs.field(converter=Rank)
    suit: Suit = attrs.field(converter=Suit)
    index: int = attrs.field(init=False, eq=False, order=False, repr=False)
    """The card as an integer 0–51 (``4 * rank + suit``), stored for the fast paths."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "index", 4 * self.rank + self.suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card whose integer form is `index` (0–51)."""
        if not isinstance(index, int) or not 0 <= index < 52:
            raise InvalidCardError(f"card index {index!r} is not in 0..51")
        return CARDS[index]

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse exactly one card, in any notation `parse_cards` accepts."""
        return parse_card(text)

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(Rank(i >> 2), Suit(i & 3)) for i in range(52))
"""All 52 cards, indexed by `Card.index`."""

_RANK_WORDS = {
    "ace": 12, "king": 11, "queen": 10, "jack": 9, "ten": 8, "nine": 7, "eight": 6,
    "seven": 5, "six": 4, "five": 3, "four": 2, "three": 1, "two": 0, "deuce": 0, "10": 8,
}  # fmt: skip
_SUIT_WORDS = {"club": 0, "diamond": 1, "heart": 2, "spade": 3}
_SUIT_SYMBOLS = {"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3}

_CARD_RE = re.compile(
    r"(?P<rank>ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two|deuce|10|[2-9tjqka])"
    r"\s*(?:of\s+)?"
    r"(?P<suit>(?:club|diamond|heart|spade)s?|[cdhs♣♧♦♢♥♡♠♤])",
)
_SEPARATORS = re.compile(r"[\s,;]*")


def _bad_token(text: str, start: int) -> str:
    """The whitespace/comma-delimited token of `text` that covers position `start`."""
    left = max(text.rfind(sep, 0, start + 1) for sep in " ,;\t\n") + 1
    ends = [i for i in (text.find(sep, start) for sep in " ,;\t\n") if i != -1]
    token = text[left : min(ends, default=len(text))]
    return token or text[start:]


def parse_cards(text: str | Iterable[str | Card], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse the cards in `text`, in any notation people paste.

    Accepts ``AsKd``, ``As Kd``, ``as,kd``, ``10h``/``Th``, suit symbols (``♠♥♦♣``, ``♤♡♢♧``)
    and word forms (``ACE ♤``, ``K ♡``, ``queen of hearts``). An iterable of strings or cards is
    parsed item by item. With `distinct` (the default) a repeated card is an error.
    """
    if not isinstance(text, str):
        cards: list[Card] = []
        for item in text:
            if not isinstance(item, (str, Card)):
                raise InvalidCardError(f"not a card: {item!r}")
            cards.extend((item,) if isinstance(item, Card) else parse_cards(item, distinct=False))
        return _checked(tuple(cards), distinct)
    lowered = text.lower()
    cards = []
    pos = 0
    for match in _CARD_RE.finditer(lowered):
        if not _SEPARATORS.fullmatch(lowered, pos, match.start()):
            break
        cards.append(CARDS[4 * _rank_of(match["rank"]) + _suit_of(match["suit"])])
        pos = match.end()
    rest = _SEPARATORS.match(lowered, pos)
    end = rest.end() if rest else pos
    if end < len(lowered):
        raise InvalidCardError(f"invalid card {_bad_token(text, end)!r} in {text!r}")
    return _checked(tuple(cards), distinct)


def _rank_of(word: str) -> int:
    return _RANK_WORDS[word] if word in _RANK_WORDS else RANK_CHARS.index(word.upper())


def _suit_of(word: str) -> int:
    if word in _SUIT_SYMBOLS:
        return _SUIT_SYMBOLS[word]
    if len(word) == 1:
        return SUIT_CHARS.index(word)
    return _SUIT_WORDS[word.rstrip("s")]


def _checked(cards: tuple[Card, ...], distinct: bool) -> tuple[Card, ...]:
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise DuplicateCardError(f"card {str(card)!r} appears twice")
            seen.add(card)
    return cards


def parse_card(text: str) -> Card:
    """Parse exactly one card."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise InvalidCardError(f"expected one card, got {len(cards)} in {text!r}")
    return cards[0]


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """The two-character forms of `cards`, joined by `sep` (round-trips through `parse_cards`)."""
    return sep.join(map(str, cards))
