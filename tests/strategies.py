"""Hypothesis strategies shared by the tests: cards, hands, stacks."""

from __future__ import annotations

import os
import random
from typing import Any

import attrs
from hypothesis import strategies as st

from holdem.cards.card import CARDS, Card
from holdem.hand.actions import Action
from holdem.hand.state import Hand
from holdem.hand.views import SeatView

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


def random_action(hand: Hand, rng: random.Random) -> Action:
    """A legal action for the player to act: fold (if allowed), check or call, or a raise of random size."""
    legal = hand.legal_actions()
    assert legal is not None
    options = [Action.fold()] if legal.can_fold else []  # not when checking is free under forbid_free_fold
    options.append(Action.check() if legal.can_check else Action.call())
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        options.append(Action.raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to)))
    return rng.choice(options)


def cards_in(value: Any) -> set[Card]:
    """Every card reachable from a value (attrs classes, tuples, lists, named tuples)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, SeatView):  # every field, and the events built from them
        return cards_in(tuple(value)) | cards_in(value.events)
    if attrs.has(type(value)):
        return set().union(*(cards_in(getattr(value, f.name)) for f in attrs.fields(type(value))))
    if isinstance(value, (tuple, list)):
        return set().union(set(), *(cards_in(v) for v in value))
    return set()
