"""holdem: a Texas Hold'em engine — cards, a fast exact evaluator, equity, the hand state machine.

Batch evaluation and equity need NumPy and are imported on first use, so ``import holdem``
stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holdem.actions import Action, ActionKind, LegalActions
from holdem.cards import CARDS, Card, Rank, Suit, format_cards, parse_card, parse_cards
from holdem.deck import Deck
from holdem.errors import (
    BotLoadError,
    DuplicateCardError,
    EmptyDeckError,
    HandOverError,
    HoldemError,
    IllegalActionError,
    ImpossibleSpotError,
    InvalidAmountError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHistoryError,
    InvalidPlayerError,
    InvalidRangeError,
    NotYourTurnError,
    SnapshotError,
    TableError,
)
from holdem.evaluator import HandCategory, HandRank, best_hands, compare_hands, evaluate, strength
from holdem.hand import Hand, HandResult, Phase
from holdem.pots import Pot
from holdem.stakes import Rules, Stakes, Structure
from holdem.table import Seat, Table
from holdem.views import SeatView

if TYPE_CHECKING:
    from holdem.batch import evaluate_many
    from holdem.odds import EquityResult, PlayerEquity, equity
    from holdem.ranges import parse_range

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "Action",
    "ActionKind",
    "BotLoadError",
    "Card",
    "Deck",
    "DuplicateCardError",
    "EmptyDeckError",
    "EquityResult",
    "Hand",
    "HandCategory",
    "HandOverError",
    "HandRank",
    "HandResult",
    "HoldemError",
    "IllegalActionError",
    "ImpossibleSpotError",
    "InvalidAmountError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidHistoryError",
    "InvalidPlayerError",
    "InvalidRangeError",
    "LegalActions",
    "NotYourTurnError",
    "Phase",
    "PlayerEquity",
    "Pot",
    "Rank",
    "Rules",
    "Seat",
    "SeatView",
    "SnapshotError",
    "Stakes",
    "Structure",
    "Suit",
    "Table",
    "TableError",
    "best_hands",
    "compare_hands",
    "equity",
    "evaluate",
    "evaluate_many",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_range",
    "strength",
]

_LAZY = {
    "evaluate_many": "holdem.batch",
    "equity": "holdem.odds",
    "EquityResult": "holdem.odds",
    "PlayerEquity": "holdem.odds",
    "parse_range": "holdem.ranges",
}


def __getattr__(name: str) -> Any:
    """Import the NumPy-backed parts on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'holdem' has no attribute {name!r}")
