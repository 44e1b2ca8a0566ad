"""The evaluator: exact counts, named hands, and agreement of every path."""

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from holdem import (
    CARDS,
    Card,
    HandCategory,
    InvalidCardError,
    best_hands,
    compare_hands,
    evaluate,
    evaluate_many,
    parse_cards,
    strength,
)
from holdem.cards import _tables
from holdem.cards.batch import combinations, strength_counts
from holdem.cards.evaluator import strengths_on
from tests.strategies import examples, hands, suit_permutations

CATEGORY_NAMES = {c.name.lower(): c for c in HandCategory}


def published_counts(data_dir: Path) -> dict[HandCategory, tuple[int, int, int, int]]:
    """(5-card count, classes, 7-card count, classes) per category from evaluator-counts.txt."""
    counts = {}
    for line in (data_dir / "evaluator-counts.txt").read_text().splitlines():
        parts = line.split()
        if parts and parts[0] in CATEGORY_NAMES:
            counts[CATEGORY_NAMES[parts[0]]] = tuple(map(int, parts[1:5]))
    return counts


def test_all_five_card_hands_match_published_counts(data_dir: Path) -> None:
    """All 2,598,960 five-card hands: counts and distinct strengths per category as published."""
    values = evaluate_many(combinations(52, 5))
    per_category = Counter(HandCategory.of(int(v)) for v in np.unique(values))
    hits = np.bincount(values, minlength=7463)
    for category, (count5, classes5, _, _) in published_counts(data_dir).items():
        start = _tables.CATEGORY_STARTS[category]
        end = _tables.CATEGORY_STARTS[category + 1] if category < 8 else 7463
        assert (count5, classes5) == (int(hits[start:end].sum()), per_category[category])
    assert 7462 == len(np.unique(values))


def test_all_seven_card_hands_match_published_counts(data_dir: Path) -> None:
    """All 133,784,560 seven-card hands through evaluate_many: counts and classes per category."""
    hits = strength_counts(7)
    for category, (_, _, count7, classes7) in published_counts(data_dir).items():
        start = _tables.CATEGORY_STARTS[category]
        end = _tables.CATEGORY_STARTS[category + 1] if category < 8 else 7463
        assert (count7, classes7) == (int(hits[start:end].sum()), int((hits[start:end] > 0).sum()))
    assert (133_784_560, 4824) == (int(hits.sum()), int((hits > 0).sum()))


def test_shipped_tables_match_a_fresh_build() -> None:
    """holdem/cards/tables.bin is what scripts/gen_tables.py builds today."""
    assert _tables.load() == _tables.build()


@pytest.mark.parametrize(
    ("cards", "name", "described"),
    [
        ("As Kd Qh Jc Ts 2d 3c", "Straight", "Straight, Ace high"),
        ("Ah 2d 3c 4s 5h Kc Kd", "Straight", "Straight, Five high"),
        ("Ah 2h 3h 4h 5h Kc Kd", "Straight Flush", "Straight Flush, Five high"),
        ("Ah Kh Qh Jh Th 9h 8h", "Royal Flush", "Royal Flush"),
        ("Kh Ks Kd 5c 5d 2s 2c", "Full House", "Full House, Kings full of Fives"),
        ("Ac Ad 7h 7s 3c 3d 9s", "Two Pair", "Two Pair, Aces and Sevens"),
        ("2c 3c 4c 5c 7c 9c Jc", "Flush", "Flush, Jack high"),
        ("9s 9h 9d 9c 2s", "Four of a Kind", "Four of a Kind, Nines"),
        ("8s 8h 8d Ac 2s 3d 4h", "Three of a Kind", "Three of a Kind, Eights"),
        ("Js Jh 2d 5c 8s Kd", "One Pair", "One Pair, Jacks"),
        ("As Jh 2d 5c 8s Kd 3h", "High Card", "High Card, Ace high"),
    ],
)
def test_named_hands(cards: str, name: str, described: str) -> None:
    """Known hands get the right name and description."""
    rank = evaluate(cards)
    assert (name, described) == (rank.name, rank.describe())


def test_wheel_is_the_lowest_straight() -> None:
    """A-2-3-4-5 loses to 2-3-4-5-6; the steel wheel is the lowest straight flush."""
    assert -1 == compare_hands("Ah 2d 3c 4s 5h", "2d 3c 4s 5h 6c")
    assert evaluate("Ah 2h 3h 4h 5h").strength == _tables.CATEGORY_STARTS[HandCategory.STRAIGHT_FLUSH]


def test_best_five_may_be_the_last_five_cards() -> None:
    """The best five is found wherever it lies, including the last five of seven."""
    rank = evaluate("2c 3d Ah Kh Qh Jh Th")
    assert set(parse_cards("Ah Kh Qh Jh Th")) == set(rank.best_five)


def test_evaluate_rejects_bad_input() -> None:
    """Too few or too many cards, or repeated ones, raise InvalidCardError."""
    for bad in ("As Kd Qh Jc", "As Kd Qh Jc Ts 2d 3c 4h", "As As Qh Jc Ts"):
        with pytest.raises(InvalidCardError):
            evaluate(bad)


def test_best_hands_returns_all_winners_in_input_order() -> None:
    """best_hands keeps ties and input order (the classic exercise)."""
    hands = ["4S 5S 7H 8D JC", "2S 4H 6S 4D JH", "4H 5H 7S 8C JD", "2C 3C 4C 5C 6D"]
    assert ["2S 4H 6S 4D JH"] == best_hands(hands[:3])
    assert ["4S 5S 7H 8D JC", "4H 5H 7S 8C JD"] == best_hands([hands[0], hands[2]])


@given(hand=hands(), perm=suit_permutations())
def test_strength_is_invariant_under_suit_permutation(hand: list[Card], perm: list[int]) -> None:
    """Renaming suits never changes a hand's strength."""
    permuted = [CARDS[4 * c.rank + perm[c.suit]] for c in hand]
    assert evaluate(hand) == evaluate(permuted)


@given(hand=hands())
def test_best_five_is_a_subset_with_the_same_value(hand: list[Card]) -> None:
    """best_five comes from the input and is worth exactly as much as the whole hand."""
    rank = evaluate(hand)
    assert set(rank.best_five) <= set(hand)
    assert rank == evaluate(rank.best_five)


@given(hand=hands())
def test_every_path_agrees(hand: list[Card]) -> None:
    """evaluate, strength and evaluate_many give the same strength."""
    indices = [c.index for c in hand]
    assert evaluate(hand).strength == strength(indices) == int(evaluate_many(np.array([indices]))[0])


@given(hand=hands(7, 7))
def test_seven_card_strength_is_the_best_of_its_fives(hand: list[Card]) -> None:
    """The seven-card strength is the maximum over all 21 five-card combinations."""
    indices = [c.index for c in hand]
    assert max(strength(five) for five in itertools.combinations(indices, 5)) == strength(indices)


@given(cards=hands(9, 15))
def test_a_showdown_evaluates_each_holding_as_strength_does(cards: list[Card]) -> None:
    """`strengths_on` (one board, several holdings; flushes included) equals `strength` of each."""
    indices = [c.index for c in cards]
    board, rest = indices[:5], indices[5:]
    holes = [rest[k : k + 2] for k in range(0, len(rest) - 1, 2)]
    assert strengths_on(board, holes) == [strength([*hole, *board]) for hole in holes]


def test_evaluate_many_rejects_bad_arrays() -> None:
    """Wrong shapes, dtypes or card indices are clear errors."""
    for bad in (np.zeros((3, 4), dtype=int), np.zeros((2, 7)), np.full((1, 5), 52)):
        with pytest.raises(InvalidCardError):
            evaluate_many(bad)


@given(first=hands(5, 7), second=hands(5, 7))
@settings(max_examples=examples(300), deadline=None)
def test_hand_ranks_are_ordered_as_their_strengths(first: list[Card], second: list[Card]) -> None:
    """HandRank sorts and compares by strength; ties compare equal, whatever the cards."""
    a, b = evaluate(first), evaluate(second)
    assert (a < b, a == b, a > b, a <= b, a >= b) == (
        a.strength < b.strength, a.strength == b.strength, a.strength > b.strength,
        a.strength <= b.strength, a.strength >= b.strength,
    )  # fmt: skip
    assert sorted([a, b], key=lambda rank: rank.strength) == sorted([a, b])


def test_equal_hands_with_different_cards_compare_equal() -> None:
    wheel_spades, wheel_mixed = evaluate("As 2s 3d 4c 5h"), evaluate("Ad 2c 3h 4s 5d")
    assert wheel_spades == wheel_mixed and not wheel_spades < wheel_mixed
    assert max(evaluate("KsKdQh2c3d"), evaluate("AsAh7c8d9h")).name == "One Pair"
    assert sorted([evaluate("AsKsQsJsTs"), evaluate("2c3d4h5s7d")])[0].name == "High Card"


def test_best_hands_evaluates_each_hand_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """best_hands finds the maximum once, not once per hand."""
    import builtins

    import holdem.cards.evaluator

    calls = 0
    real_max = builtins.max

    def counting_max(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return real_max(*args, **kwargs)

    monkeypatch.setattr(holdem.cards.evaluator, "max", counting_max, raising=False)
    hands = ["4S 5S 7H 8D JC", "2S 4C 7S 9H 10H", "3S 4S 5D 6H JH", "4D 5S 6S 8D 3C"] * 5
    assert ["4S 5S 7H 8D JC"] * 5 == holdem.cards.evaluator.best_hands(hands)
    assert 1 == calls


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("As Ad 7h 7s 3c", "Ac Ah 7d 7c 3d", 0),  # the same two pair and kicker, other suits: a tie
        ("As Ks Qs Js 9s", "Ah Kh Qh Jh 9h", 0),  # flushes of the same ranks tie; suits never rank
        ("As Ad 7h 7s 4c", "Ac Ah 7d 7c 3d", 1),  # the kicker decides
        ("Ac Ah 7d 7c 3d", "As Ad 7h 7s 4c", -1),
    ],
)
def test_compare_hands_is_0_for_a_tie_and_signs_a_win_or_a_loss(a: str, b: str, expected: int) -> None:
    assert expected == compare_hands(a, b)
