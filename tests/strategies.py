"""Hypothesis strategies shared by the tests: cards, hands, stacks."""

from __future__ import annotations

import os

from hypothesis import strategies as st

from holdem.cards import CARDS, Card

card_indices = st.integers(min_value=0, max_value=51)
cards = st.sampled_from(CARDS)


def hands(min_size: int = 5, max_size: int = 7) -> st.SearchStrategy[list[Card]]:
    """Lists of distinct cards."""
    return st.lists(cards, min_size=min_size, max_size=max_size, unique=True)


def suit_permutations() -> st.SearchStrategy[list[int]]:
    """A permutation of the four suits."""
    return st.permutations([0, 1, 2, 3])


SCALE = float(os.environ.get("HOLDEM_EXAMPLES_SCALE", "1"))
"""Multiplies every property test's example count: HOLDEM_EXAMPLES_SCALE=20 for a long bug hunt."""


def examples(count: int) -> int:
    """`count` Hypothesis examples, scaled by HOLDEM_EXAMPLES_SCALE."""
    return max(1, int(count * SCALE))
