"""Cards: the value, its text form, and the parser."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem import (
    CARDS,
    Card,
    Deck,
    DuplicateCardError,
    InvalidCardError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from tests.strategies import cards, hands


def test_card_is_an_ordered_hashable_value() -> None:
    """Cards compare by rank then suit, hash, and print as two characters."""
    ace, ten = Card(Rank.ACE, Suit.SPADES), Card(Rank.TEN, Suit.DIAMONDS)
    assert (str(ace), str(ten)) == ("As", "Td")
    assert ten < ace
    assert len({ace, Card(12, 3)}) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AsKd", "AsKd"),
        ("As Kd", "AsKd"),
        ("as,kd", "AsKd"),
        ("10h", "Th"),
        ("Th", "Th"),
        ("A♠ K♥ Q♦ J♣", "AsKhQdJc"),
        ("A♤ K♡ Q♢ J♧", "AsKhQdJc"),
        ("10H", "Th"),
        ("ACE ♤", "As"),
        ("K ♡", "Kh"),
        ("queen of hearts, two of clubs", "Qh2c"),
    ],
)
def test_parse_cards_accepts_pasted_notations(text: str, expected: str) -> None:
    """Every notation a user pastes parses to the same cards."""
    assert expected == format_cards(parse_cards(text))


@pytest.mark.parametrize(("text", "token"), [("AsXz", "AsXz"), ("As 1h", "1h"), ("Kd, Zz", "Zz"), ("A", "A")])
def test_bad_card_error_quotes_the_token(text: str, token: str) -> None:
    """A bad card raises InvalidCardError (a ValueError) quoting the bad token."""
    with pytest.raises(InvalidCardError, match=repr(token)) as info:
        parse_cards(text)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("items", [[5], ["As", None], [b"As"]])
def test_non_card_items_are_rejected(items: list[object]) -> None:
    """An iterable of things that are neither text nor cards is an InvalidCardError, not a TypeError."""
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_cards(items)  # type: ignore[arg-type]


def test_duplicate_cards_are_rejected() -> None:
    """Where cards must be distinct, a repeat is a clear error."""
    with pytest.raises(DuplicateCardError, match="'As' appears twice"):
        parse_cards("As Kd as")
    assert 2 == len(parse_cards("As As", distinct=False))


@given(hand=st.lists(cards, max_size=7))
def test_format_parse_round_trip(hand: list[Card]) -> None:
    """format_cards and parse_cards round-trip, with or without separators."""
    assert tuple(hand) == parse_cards(format_cards(hand), distinct=False)
    assert tuple(hand) == parse_cards(format_cards(hand, " "), distinct=False)


def test_card_index_round_trip() -> None:
    """Card.from_index inverts Card.index for all 52 cards."""
    assert list(CARDS) == [Card.from_index(c.index) for c in CARDS]
    with pytest.raises(InvalidCardError):
        Card.from_index(52)


def test_seeded_deck_deals_reproducibly() -> None:
    """The same seed deals the same cards; all 52 are distinct."""
    first = Deck.shuffled(random.Random(7)).deal(52)
    assert first == Deck.shuffled(random.Random(7)).deal(52)
    assert len(set(first)) == 52


def test_stacked_deck_deals_in_order_and_burns() -> None:
    """A stacked deck deals its given cards first; burned cards are kept aside."""
    deck = Deck.stacked("AsKd 2c 7h")
    assert parse_cards("AsKd") == deck.deal(2)
    assert Card.from_str("2c") == deck.burn()
    assert [Card.from_str("2c")] == deck.burned
    assert 49 == deck.remaining


@given(hand=hands(1, 10))
def test_stacked_deck_rejects_duplicates(hand: list[Card]) -> None:
    """A stacked deck with a repeated card is an error."""
    with pytest.raises(DuplicateCardError):
        Deck.stacked([*hand, hand[0]])


def test_deck_cannot_overdeal() -> None:
    """Dealing more than is left is an error that deals nothing."""
    deck = Deck.standard()
    deck.deal(50)
    with pytest.raises(Exception, match="2 left"):
        deck.deal(3)
    assert 2 == deck.remaining


@pytest.mark.parametrize("rng", [None, random.Random(3)], ids=["system CSPRNG", "seeded"])
def test_a_sampled_deck_deals_every_card_equally_often_in_every_place(rng: random.Random | None) -> None:
    """Chi-square over 20,800 decks of 8 cards, each of 8 places against 52 equally likely cards:
    a wrong bound in the partial shuffle (a card never reaching a place, or the top one favoured)
    fails it; a fair deck fails by chance about once in a million runs."""
    draws = 20_800
    counts = [[0] * 52 for _ in range(8)]
    for _ in range(draws):
        for place, card in enumerate(Deck.sampled(rng, 8).deal(8)):
            counts[place][card.index] += 1
    expected = draws / 52
    for row in counts:
        chi2 = sum((c - expected) ** 2 / expected for c in row)
        assert chi2 < 110, chi2  # 51 degrees of freedom: P(chi2 > 110) < 1e-6
    assert len({Deck.sampled(rng, 8).deal(8) for _ in range(20)}) == 20
