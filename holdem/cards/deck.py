"""The deck: 52 cards, shuffled by an injected random source, dealt from the top."""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Iterable, Sequence
from typing import Protocol

from holdem.cards.card import CARDS, Card, parse_cards
from holdem.errors import DuplicateCardError, EmptyDeckError, InvalidCardError

__all__ = ["Deck", "RandomSource", "derive_seed"]

_SPANS = [tuple((i, 52 - i) for i in range(count)) for count in range(53)]
"""For drawing `count` cards: each position and how many cards are left to draw it from."""


def derive_seed(*parts: int) -> int:
    """A seed made from integers (a match's seed and a hand's number, a series' seed and a run's),
    the same in every process: hashes of int tuples do not vary between runs as str hashes do. Matches
    and tournaments seed each hand or run this way, so their results do not depend on the workers."""
    return hash(parts) & ((1 << 62) - 1)


class RandomSource(Protocol):
    """What a deck needs of a random source (`random.Random` and `secrets.SystemRandom` fit)."""

    def shuffle(self, x: list[Card], /) -> None: ...

    def random(self) -> float: ...


class Deck:
    """A deck dealt from the top; `shuffled` with an injected source, or `stacked` in a given order."""

    __slots__ = ("_cards", "_next", "burned")

    def __init__(self, cards: Iterable[Card]) -> None:
        order = tuple(cards)
        for card in order:
            if not isinstance(card, Card):
                raise InvalidCardError(f"a deck holds cards, got {card!r}")
        if len(set(order)) != len(order):
            twice = next(c for c in order if order.count(c) > 1)
            raise DuplicateCardError(f"card {twice} appears twice in the deck")
        self._set(order)

    def _set(self, order: tuple[Card, ...]) -> None:
        self._cards = order
        self._next = 0
        self.burned: list[Card] = []

    @classmethod
    def _of(cls, order: tuple[Card, ...]) -> Deck:
        """A deck from cards known to be distinct (the named constructors), unchecked."""
        deck = object.__new__(cls)
        deck._set(order)
        return deck

    @classmethod
    def shuffled(cls, rng: RandomSource | None = None) -> Deck:
        """All 52 cards in random order; the default source is cryptographically secure."""
        cards = list(CARDS)
        (rng or secrets.SystemRandom()).shuffle(cards)
        return cls._of(tuple(cards))

    @classmethod
    def sampled(cls, rng: RandomSource | None, count: int) -> Deck:
        """The first `count` cards of a random shuffle, drawn without shuffling all 52.

        A partial Fisher-Yates shuffle on ``rng.random()`` (53-bit floats: the bias of scaling
        is below 2**-47 per card); with no `rng`, on 64-bit words read from the system's CSPRNG in
        one call (a call a card cost more than the rest of a hand's set-up).
        """
        if not 0 <= count <= 52:
            raise InvalidCardError(f"cannot draw {count!r} cards from 52")
        cards = list(CARDS)
        if rng is None:  # the system's CSPRNG, read once: 64 bits a card (bias below 2**-58)
            words = memoryview(os.urandom(8 * count)).cast("Q")
            for i in range(count):
                j = i + ((words[i] * (52 - i)) >> 64)
                cards[i], cards[j] = cards[j], cards[i]
            return cls._of(tuple(cards[:count]))
        draw = rng.random
        for i, span in _SPANS[count]:
            j = i + int(draw() * span)
            cards[i], cards[j] = cards[j], cards[i]
        return cls._of(tuple(cards[:count]))

    @classmethod
    def standard(cls) -> Deck:
        """All 52 cards in order (2c 2d … As); shuffle with `shuffled` for play."""
        return cls._of(tuple(CARDS))

    @classmethod
    def stacked(cls, cards: str | Iterable[Card | str]) -> Deck:
        """A deck whose top cards are `cards` in this order (for tests and replays).

        The cards must be distinct; the rest of the 52 follow in standard order.
        """
        top = parse_cards(cards)
        rest = [c for c in CARDS if c not in set(top)]
        return cls((*top, *rest))

    @classmethod
    def for_hand(
        cls,
        holes: Sequence[Sequence[Card | None]],
        board: Sequence[Card | None] = (),
        again: Sequence[Card | None] = (),
    ) -> Deck:
        """A deck that deals a hand these hole cards (per player, in dealing order) and this board,
        with burns between streets, then `again`: the streets of a second run-out (5, 2 or 1 cards,
        rule 32); None stands for a card nobody knows (an unused one is put there).
        Raises `DuplicateCardError` when a card is given twice."""
        known = [c for c in (*(c for hole in holes for c in hole), *board, *again) if c is not None]
        if len(set(known)) != len(known):
            twice = next(c for c in known if known.count(c) > 1)
            raise DuplicateCardError(f"card {twice} is dealt twice")
        used = set(known)
        spare = iter([c for c in CARDS if c not in used])
        n = len(holes)
        order = [holes[i][k] or next(spare) for k in range(2) for i in range(n)]
        padded = [*board, *[None] * (5 - len(board))]
        for street in ((0, 3), (3, 4), (4, 5)):
            order.append(next(spare))  # the burn
            order += [c or next(spare) for c in padded[street[0] : street[1]]]
        first = 5 - len(again)  # where on the board the second run-out starts
        for start, end in ((0, 3), (3, 4), (4, 5)):
            if start >= first:  # the second run-out's burn, then its street
                order.append(next(spare))
                order += [c or next(spare) for c in again[start - first : end - first]]
        return cls._of((*order, *spare))

    def copy(self) -> Deck:
        """A new deck of the same cards in the same order, none dealt (to deal the same hand again)."""
        return Deck._of(self._cards)

    @property
    def order(self) -> tuple[Card, ...]:
        """Every card of this deck in dealing order, dealt ones included (for snapshots)."""
        return self._cards

    @property
    def position(self) -> int:
        """How many cards have been dealt or burned."""
        return self._next

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return len(self._cards) - self._next

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        """Take `count` cards from the top."""
        if count < 0:
            raise InvalidCardError(f"cannot deal {count!r} cards")
        if count > self.remaining:
            raise EmptyDeckError(f"cannot deal {count} cards, {self.remaining} left")
        cards = self._cards[self._next : self._next + count]
        self._next += count
        return cards

    def burn(self) -> Card:
        """Take the top card face down (kept in `burned`)."""
        (card,) = self.deal(1)
        self.burned.append(card)
        return card

    def burn_and_deal(self, count: int) -> tuple[Card, ...]:
        """Burn the top card, then take `count` cards (dealing a street in one step)."""
        start = self._next
        if count + 1 > len(self._cards) - start:
            raise EmptyDeckError(f"cannot burn and deal {count} cards, {self.remaining} left")
        self.burned.append(self._cards[start])
        self._next = start + 1 + count
        return self._cards[start + 1 : start + 1 + count]

    def peek(self, count: int = 1) -> tuple[Card, ...]:
        """Deprecated (unused; goes in 0.3): the next `count` cards without dealing them."""
        warnings.warn("Deck.peek is deprecated and goes in holdem 0.3", DeprecationWarning, stacklevel=2)
        return self._cards[self._next : self._next + count]

    def __len__(self) -> int:
        return self.remaining

    def __repr__(self) -> str:
        return f"Deck({self.remaining} cards left)"
