"""Running it twice (rule 32): the rest of the board dealt a second time after an all-in.

When the rules allow it (`Rules.run_twice`) and the betting ended before the river with every
player in the hand but one at most all-in, the cards still to come are dealt twice: the first
run-out as usual, then, from the same deck, a burn and the missing cards street by street again.
`holdem.hand.showdown.settle` then splits each pot between the two boards.
"""

from __future__ import annotations

from collections.abc import Sequence

from holdem.cards.card import Card
from holdem.cards.deck import Deck
from holdem.hand.events import BOARD_AT, KIND, NEXT_STREET, PHASE, EventKind, LogEntry

__all__ = ["run_again", "runs_from"]

_LOG_ACTION, _LOG_BOARD = EventKind.ACTION, EventKind.BOARD
# (log kinds bound once: a global costs 30 ns where EventKind.X costs 100 ns, per entry of every hand)


def runs_from(log: Sequence[LogEntry]) -> int:
    """How many board cards were out when the betting ended: during the round of the last action
    (none when nobody acted, every player all-in from the blinds)."""
    for entry in reversed(log):
        if entry[KIND] == _LOG_ACTION:
            return BOARD_AT[entry[PHASE]]
    return 0


def run_again(deck: Deck, board: Sequence[Card], log: list[LogEntry]) -> list[Card]:
    """Deal the second run-out: the board as it was when the betting ended, then a burn and the
    missing cards of each street from `deck`, each street logged as a ``board`` entry after the
    first run's. The second board, or an empty list when the betting ended on the river."""
    dealt = runs_from(log)
    if dealt >= 5:
        return []
    again = list(board[:dealt])
    for street, _ in NEXT_STREET.values():
        size = BOARD_AT[street]
        if size > dealt:
            cards = deck.burn_and_deal(size - len(again))
            again.extend(cards)
            log.append((_LOG_BOARD, None, cards, None, None, street))
    return again
