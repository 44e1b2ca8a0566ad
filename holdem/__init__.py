"""holdem: a Texas Hold'em engine — cards, a fast exact evaluator, equity, the hand state machine.

The folders follow the design: `holdem.cards` (the cards and their evaluation), `holdem.hand` (one
hand's state machine on them), `holdem.formats` (PHH, PokerStars), `holdem.table`, `holdem.bots`
(bots and matches), then what is built on those: `tournament`, `pushfold`, `vector`, `acpc`,
`env`, `learn`, `server`, and the command line. The names users reach for first are here.

Batch evaluation and equity need NumPy and are imported on first use, so ``import holdem``
stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holdem import _moved, errors
from holdem.cards.card import CARDS, Card, Rank, Suit, format_cards, parse_card, parse_cards
from holdem.cards.deck import Deck
from holdem.cards.evaluator import HandCategory, HandRank, best_hands, compare_hands, evaluate, strength
from holdem.errors import *  # noqa: F403  # every error, named once: in holdem.errors.__all__
from holdem.hand.actions import Action, ActionKind, LegalActions
from holdem.hand.events import HandResult, Phase
from holdem.hand.pots import Pot
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand
from holdem.hand.views import SeatView
from holdem.table.table import Seat, Table

if TYPE_CHECKING:
    from holdem.cards.batch import evaluate_many
    from holdem.cards.odds import EquityResult, PlayerEquity, equity
    from holdem.cards.ranges import parse_range

__version__ = "0.2.0"

__all__ = [
    "CARDS",
    "Action",
    "ActionKind",
    "Card",
    "Deck",
    "EquityResult",
    "Hand",
    "HandCategory",
    "HandRank",
    "HandResult",
    "LegalActions",
    "Phase",
    "PlayerEquity",
    "Pot",
    "Rank",
    "Rules",
    "Seat",
    "SeatView",
    "Stakes",
    "Structure",
    "Suit",
    "Table",
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
__all__ += errors.__all__

_LAZY = {
    "evaluate_many": "holdem.cards.batch",
    "equity": "holdem.cards.odds",
    "EquityResult": "holdem.cards.odds",
    "PlayerEquity": "holdem.cards.odds",
    "parse_range": "holdem.cards.ranges",
}


_moved.install()  # 0.1's module paths, for one minor version, with a warning


def __getattr__(name: str) -> Any:
    """Import the NumPy-backed parts on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'holdem' has no attribute {name!r}")
