"""The invariants of a hand, checked from outside it: for tests, fuzzing and debugging embedders."""

from __future__ import annotations

from holdem.errors import InvariantError
from holdem.hand.events import Phase
from holdem.hand.runout import runs_from
from holdem.hand.state import Hand

__all__ = ["check_hand"]


def _require(condition: bool, broken: str) -> None:
    if not condition:
        raise InvariantError(broken)


def check_hand(hand: Hand) -> None:
    """Raise `InvariantError` naming the first broken invariant: chips conserved, the pot equal to
    the chips in the middle, pots equal to contributions, no card dealt twice (a second run-out
    shares only the cards out before the all-in), no negative amounts, and a player to act exactly
    while the hand is unfinished."""
    total = sum(hand.starting_stacks)
    result = hand.result
    if result is None:
        in_middle = sum(hand.contributions) + hand.dead_money + sum(hand.bets)
        _require(sum(hand.stacks) + in_middle == total, "chips not conserved")
        _require(hand.pot == in_middle, "the pot is not the chips in the middle")
        _require(hand.live == hand.folded.count(False), "the live-player count is off")
        with_chips = sum(1 for s, f in zip(hand.stacks, hand.folded, strict=True) if s and not f)
        _require(hand.with_chips == with_chips, "the with-chips count is off")
    else:
        _require(sum(hand.stacks) + result.rake == total, "chips not conserved after settlement")
        paid = sum(p.amount for p in result.pots) + result.rake
        _require(paid == sum(hand.contributions) + hand.dead_money, "the pots are not the contributions")
    shared = runs_from(hand.log) if hand.second_board else 0  # rule 32: the cards out before the all-in
    dealt = [*(card for hole in hand.holes for card in hole), *hand.board, *hand.second_board[shared:]]
    _require(len(set(dealt)) == len(dealt), "a card dealt twice")
    _require(hand.second_board[:shared] == hand.board[:shared], "a second board that is not the first's")
    _require(all(s >= 0 for s in hand.stacks), "a negative stack")
    _require(all(b >= 0 for b in hand.bets), "a negative bet")
    if hand.actor is not None:
        i = hand.actor
        _require(not hand.folded[i] and hand.stacks[i] > 0, "the player to act cannot act")
        _require(hand.phase <= Phase.RIVER, "a player to act after the river")
    else:
        _require(hand.phase is Phase.COMPLETE, "nobody to act in an unfinished hand")
