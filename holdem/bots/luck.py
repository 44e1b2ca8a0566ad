"""All-in adjusted results: a hand whose betting ended before the river with two or more players
left is credited at their exact equity in the pots instead of at the cards that came.

Once nobody can bet any more, what is left is luck: the rest of the board. Replacing each
player's winnings from the pots by their average over every possible rest of the board (the
cards not in the live hands, on the board or in the folded hands count once each) removes that
luck and keeps the expectation: the adjusted result of a hand has the same expected value as
the raw one, with less variance. Rake is taken in proportion. Hands settled on the river, or won
without a showdown, are left as they are.
"""

from __future__ import annotations

from holdem.cards.odds import all_in_values
from holdem.hand.events import BOARD_AT, KIND, PHASE, EventKind, Phase
from holdem.hand.state import Hand

__all__ = ["all_in_adjusted"]


def all_in_adjusted(hand: Hand) -> list[float] | None:
    """Each player's adjusted chips won or lost in a complete `hand`, or None when the hand does
    not qualify (settled on the river, or by everybody else folding)."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not complete")
    live = [p for p, folded in enumerate(hand.folded) if not folded]
    if len(live) < 2:
        return None
    last = next(
        (entry[PHASE] for entry in reversed(hand.log) if entry[KIND] == EventKind.ACTION), Phase.PREFLOP
    )
    if last is Phase.RIVER:  # settled on the river: nothing left to run
        return None
    index = {p: i for i, p in enumerate(live)}
    pots = [(pot.amount, [index[p] for p in pot.eligible]) for pot in result.pots]
    dead = [card for p, folded in enumerate(hand.folded) if folded for card in hand.holes[p]]
    holes = [(hand.holes[p][0], hand.holes[p][1]) for p in live]
    won = all_in_values(holes, hand.board[: BOARD_AT[last]], pots, dead)
    in_pots = sum(pot.amount for pot in result.pots)
    kept = sum(result.payouts) / in_pots if in_pots else 1.0  # what is left after the rake
    adjusted = [float(x) for x in result.payoffs]
    for p, i in index.items():
        adjusted[p] += won[i] * kept - result.payouts[p]
    return adjusted
