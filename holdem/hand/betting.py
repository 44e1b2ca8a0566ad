"""One betting round: the level to call, the minimum raise, reopening and caps (rules 6–13, 21).

A `BettingRound` is the mutable state of the current street inside a `Hand`, with the rules
that read and change it. The hand keeps the chips; the round keeps the levels.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from holdem.hand.events import Phase
from holdem.hand.stakes import Rules, Stakes, Structure

__all__ = ["BettingRound", "is_covered", "second_deepest"]

_PREFLOP, _FLOP, _POT_LIMIT = Phase.PREFLOP, Phase.FLOP, Structure.POT_LIMIT  # fast global lookups
_POT_LIMIT_PREFLOP = Structure.POT_LIMIT_PREFLOP


class BettingRound:
    """The betting state of one street.

    `level` is the amount to match, `increment` the minimum raise increment (the largest full bet
    or raise so far), `reopen_level` the level set by the last full bet or raise (which decides
    whether the next raise is a full one), and `raises` the count of full bets and raises.
    """

    __slots__ = (
        "big",
        "big_blind",
        "blind_level",
        "cap",
        "capped",
        "fixed",
        "increment",
        "level",
        "max_raises",
        "pot_limited",
        "raise_actions",
        "raises",
        "reopen_level",
        "reopens_on_short",
        "small",
        "structure",
    )

    def __init__(self, stakes: Stakes, rules: Rules, blinds: Sequence[int]) -> None:
        """The betting rules of a hand; `open` starts each street (one object serves the whole hand)."""
        self.structure = stakes.structure
        self.fixed = self.structure is Structure.FIXED_LIMIT
        self.reopens_on_short = rules.short_all_in_reopens
        self.max_raises = rules.max_raises
        self.small, self.big = stakes.bet_sizes
        self.big_blind = stakes.big_blind
        # Rule 7: the level to call is the full blind even if the blind is all-in for less.
        self.blind_level = max(blinds)

    def open(self, phase: Phase, live: int) -> None:
        """Reset the levels for a new street (preflop: the blinds stand as bets); `pot_limited` says
        whether raises are capped at the pot on it (rule 12)."""
        fixed = self.fixed
        structure = self.structure
        self.pot_limited = structure is _POT_LIMIT or (structure is _POT_LIMIT_PREFLOP and phase is _PREFLOP)
        if phase is _PREFLOP:
            self.level = self.blind_level
            self.increment = self.small if fixed else max(self.level, self.big_blind)
            self.raises = 1  # the big blind counts as the bet in fixed-limit
        else:
            self.level = 0
            self.increment = (self.small if phase is _FLOP else self.big) if fixed else self.big_blind
            self.raises = 0
        self.reopen_level = self.level
        self.raise_actions = 0
        self.cap: int | None
        if self.max_raises is not None:  # the game's own cap on raise actions (ACPC `maxRaises`)
            self.cap, self.capped = self.max_raises[phase], False
        else:
            self.cap = None
            self.capped = fixed and live > 2  # rule 13: a round that begins heads-up is uncapped

    def bounds(
        self, bet: int, stack: int, acted: int | None, others_can_bet: bool, pot: int
    ) -> tuple[int | None, int | None]:
        """(min, max) raise-to totals for a player, or (None, None) when no raise is allowed.

        `acted` is the level the player last acted at (None if not yet this round); `pot` is all
        the chips in the middle (read only in pot-limit).
        """
        all_in = bet + stack
        level = self.level
        # Rule 11: no raise when everyone else still in the hand is all-in.
        if all_in <= level or not others_can_bet:
            return None, None
        if self.cap is not None and self.raise_actions >= self.cap:
            return None, None
        fixed = self.fixed
        # Rules 8, 9, 21: a player who has acted may raise again only if what they face now has
        # grown by a full raise since they acted (fixed-limit: by half a bet, rule 13), however
        # many short all-ins it took. The ACPC rules reopen on any raise.
        if acted is not None:
            added = level - acted
            if fixed:
                added *= 2
            if added <= 0 or not (self.reopens_on_short or added >= self.increment):
                return None, None
        if fixed:
            if self.capped and self.raises >= 5:  # rule 13: one bet and four raises
                return None, None
            full = level + self.increment
            return (full, full) if full < all_in else (all_in, all_in)
        lo = level + self.increment
        if lo > all_in:
            lo = all_in
        if self.pot_limited:
            # Rule 12: call, then raise the size of the pot after the call.
            hi = level + pot + (level - bet)
            return lo, min(hi, all_in)
        return lo, all_in

    def record_raise(self, to: int) -> None:
        """Update the level, minimum increment and reopening level after a raise (rules 6, 8, 9, 13)."""
        self.raise_actions += 1
        if self.reopens_on_short and not self.fixed:
            # ACPC: the next raise must go to at least the previous minimum, and at least as far
            # above this raise as this raise went above the level it faced.
            self.increment = max(self.level + self.increment, 2 * to - self.level) - to
            self.raises += 1
            self.level = self.reopen_level = to
            return
        if self.fixed:
            # An all-in of at least half a bet counts as a full bet for reopening (rule 13).
            full = 2 * (to - self.reopen_level) >= self.increment
        else:
            full = to - self.reopen_level >= self.increment
        if full:
            if not self.fixed:
                self.increment = max(self.increment, to - self.level)
            self.reopen_level = to
            self.raises += 1
        self.level = to


def second_deepest(bets: Sequence[int], stacks: Sequence[int], folded: Sequence[bool]) -> tuple[int, int]:
    """The second-largest bet plus stack among the players in the hand, and how many players are at
    least that deep (rule 11: a raise to a level needs another player who could put in more, and
    for the raiser that is the second-deepest player)."""
    deep = sorted([b + s for b, s, f in zip(bets, stacks, folded, strict=True) if not f])
    second = deep[-2]
    return second, len(deep) - bisect_left(deep, second)


def is_covered(j: int, bets: Sequence[int], stacks: Sequence[int], folded: Sequence[bool]) -> bool:
    """Whether player `j`'s bet covers every other player's bet plus stack (rule 11): nothing `j`
    could add would be called, so `j` is not asked to act."""
    bet = bets[j]
    return all(
        f or b + s <= bet for k, (b, s, f) in enumerate(zip(bets, stacks, folded, strict=True)) if k != j
    )
