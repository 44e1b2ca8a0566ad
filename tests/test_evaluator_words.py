"""What the evaluator says: its refusals word for word, a hand's repr, and the order of the best five
(the wheel's ace last)."""

from __future__ import annotations

import pytest

from holdem.cards.evaluator import evaluate, strength
from holdem.errors import CardCountError, InvalidCardError


def test_a_hand_of_eight_cards_is_refused_by_evaluate_and_by_strength() -> None:
    with pytest.raises(InvalidCardError) as raised:
        evaluate("As Kd Qh Jc Ts 2d 3c 4h")
    assert str(raised.value) == "a hand needs 5 to 7 cards, got 8: As Kd Qh Jc Ts 2d 3c 4h"
    eight_clubs = [0, 4, 8, 12, 16, 20, 24, 28]  # 2c to 9c: a flush, but eight cards
    with pytest.raises(InvalidCardError) as raised:
        strength(eight_clubs)
    assert str(raised.value) == f"strength needs 5 to 7 distinct cards, got {eight_clubs}"


def test_good_cards_too_few_are_a_card_count_error_not_a_bad_card() -> None:
    """Two good cards are not a hand: the error says how many and which, by its own name (still an
    `InvalidCardError` and a `ValueError`, as before it had one)."""
    with pytest.raises(CardCountError) as raised:
        evaluate("Ah Kh")
    assert str(raised.value) == "a hand needs 5 to 7 cards, got 2: Ah Kh"
    assert isinstance(raised.value, InvalidCardError) and isinstance(raised.value, ValueError)


def test_a_hands_repr_names_it_and_shows_its_best_five_in_order() -> None:
    """Rank groups largest first, then rank, then suit (spades, hearts, diamonds, clubs)."""
    assert (
        repr(evaluate("Kh Ks Kd 5c 5d 2s 2c"))
        == "HandRank('Full House, Kings full of Fives', Ks Kh Kd 5d 5c)"
    )


def test_the_wheel_is_shown_five_high_with_its_ace_last() -> None:
    assert [str(c) for c in evaluate("Ah 2d 3c 4s 5h").best_five] == ["5h", "4s", "3c", "2d", "Ah"]
    assert repr(evaluate("Ah 2d 3c 4s 5h")) == "HandRank('Straight, Five high', 5h 4s 3c 2d Ah)"
