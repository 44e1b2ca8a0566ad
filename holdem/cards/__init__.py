"""The cards and their evaluation: `Card` and its parser (`card`), the deck (`deck`), the lookup
tables (`_tables`), the best five of seven (`evaluator`), many hands at once (`batch`), hand
ranges (`ranges`) and equity (`odds`). The hand's state machine sits on these and nothing here
knows of hands."""

from __future__ import annotations

from holdem.cards.card import (
    CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)

__all__ = [
    "CARDS",
    "RANK_CHARS",
    "SUIT_CHARS",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]
