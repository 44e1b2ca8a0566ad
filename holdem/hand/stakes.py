"""Stakes and rule options: what a hand is played for and which rulebook variants apply."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, unique
from typing import Literal

import attrs

from holdem.errors import HoldemError, InvalidConfigError

__all__ = ["CHIP_LIMIT", "Rules", "Stakes", "Structure", "check_chips"]


@unique
class Structure(Enum):
    """How big bets and raises may be."""

    NO_LIMIT = "no-limit"
    """Any raise from the minimum up to all-in."""
    POT_LIMIT = "pot-limit"
    """Raises up to the size of the pot after calling (rule 12)."""
    FIXED_LIMIT = "fixed-limit"
    """Bets and raises of exactly the small or big bet, capped (rule 13)."""
    POT_LIMIT_PREFLOP = "pot-limit-preflop"
    """Pot-limit before the flop (rule 12), no-limit after it: PokerStars' "Pot Limit Pre-Flop, No
    Limit Post-Flop"."""


CHIP_LIMIT = 10**12
"""The most chips a stack, blind, ante or bet may be, everywhere: the engine, the vector tables and
the server. Ten seats' totals then stay exact in 64-bit integers (NumPy, the database) and in
JavaScript's numbers (below 2**53), with room for a thousand pots' raises."""


def check_chips(
    name: str,
    value: object,
    *,
    positive: bool = False,
    most: int = CHIP_LIMIT,
    error: type[HoldemError] = InvalidConfigError,
) -> None:
    """The one check of an amount of chips, wherever one comes in (stakes, stacks, a table's seats and
    top-ups, a tournament's starting stack): a whole number, not a bool, from 0 (1 when `positive`)
    to `most` (`CHIP_LIMIT`); else `error`, naming `name` and the bounds."""
    if not isinstance(value, int) or isinstance(value, bool) or not (1 if positive else 0) <= value <= most:
        kind = "a positive" if positive else "a non-negative"
        raise error(f"{name} must be {kind} whole number of chips, at most {most:,}, got {value!r}")


def _straddles(value: object) -> tuple[int, ...]:
    """Straddles as a tuple, from any list or tuple; anything else is refused."""
    if not isinstance(value, list | tuple):
        raise InvalidConfigError(f"straddles must be a list of chip amounts, got {value!r}")
    return tuple(value)


def _structure(value: object) -> Structure:
    """A `Structure`, also from its name (``"fixed-limit"``); anything else is refused."""
    if isinstance(value, Structure):
        return value
    try:
        return Structure(value)
    except (ValueError, TypeError):
        names = ", ".join(s.value for s in Structure)
        raise InvalidConfigError(f"unknown structure {value!r} ({names})") from None


@attrs.frozen
class Stakes:
    """Blinds, antes and the betting structure.

    `ante` is posted by everyone; `big_blind_ante` by the big blind for the whole table (rule 5).
    `straddles` follow the big blind in order. Fixed-limit uses `small_bet`/`big_bet`
    (defaults: the big blind and twice it).
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    straddles: tuple[int, ...] = attrs.field(default=(), converter=_straddles)
    structure: Structure = attrs.field(default=Structure.NO_LIMIT, converter=_structure)
    small_bet: int | None = None
    big_bet: int | None = None

    def __attrs_post_init__(self) -> None:
        check_chips("small blind", self.small_blind)
        check_chips("big blind", self.big_blind, positive=True)
        if self.small_blind > self.big_blind:
            raise InvalidConfigError(
                f"small blind {self.small_blind} is more than the big blind {self.big_blind}"
            )
        for name in ("ante", "big_blind_ante"):
            check_chips(name.replace("_", " "), getattr(self, name))
        below = self.big_blind
        for straddle in self.straddles:
            check_chips("straddle", straddle, positive=True)
            if straddle < below:
                raise InvalidConfigError(f"straddle {straddle} is less than the blind before it ({below})")
            below = straddle
        for name in ("small_bet", "big_bet"):
            if getattr(self, name) is not None:
                check_chips(name.replace("_", " "), getattr(self, name), positive=True)
        small, big = self.bet_sizes
        if big < small:
            raise InvalidConfigError(f"big bet {big} is less than the small bet {small}")

    @property
    def bet_sizes(self) -> tuple[int, int]:
        """Fixed-limit bet sizes (small bet for preflop and flop, big bet for turn and river)."""
        small = self.small_bet or self.big_blind
        return small, self.big_bet or 2 * small


def _raise_caps(value: object) -> tuple[int, ...] | None:
    """`max_raises` as a tuple of four non-negative whole numbers (one per betting round), or None."""
    if value is None:
        return None
    caps = tuple(value) if isinstance(value, list | tuple) else None
    if caps is None or len(caps) != 4 or any(type(c) is not int or c < 0 for c in caps):
        raise InvalidConfigError(f"max_raises must be four non-negative whole numbers, got {value!r}")
    return caps


@attrs.frozen
class Rules:
    """Rulebook options. The defaults follow WSOP; `Rules.acpc()` matches the ACPC dealer (rule 21).

    - `short_all_in_reopens`: an incomplete all-in raise reopens the betting (off: rule 8), and
      the next minimum raise-to becomes the larger of the previous one and the all-in plus what
      it added (the ACPC dealer's rule).
    - `big_blind_ante_order`: a short big blind covers the blind first (WSOP) or the ante (TDA) (rule 5).
    - `forbid_free_fold`: reject folding when checking is free (rule 15).
    - `rake_percent`, `rake_cap`: rake from called chips, none without a flop (rule 20).
    - `muck_losers`: at showdown a hand that cannot win is mucked, not shown (rule 19).
    - `max_raises`: at most this many raise actions per betting round (preflop, flop, turn,
      river; blinds are not raises), in any structure, instead of rule 13's cap (ACPC games).
    - `raise_against_covered`: offer a raise while any other player is neither folded nor all-in,
      even if none of them could call it, and ask a covered player to act (off: rule 11; on: the
      ACPC dealer's rule).
    - `raise_uncallable`: offer a raise to a player facing a bet even when nobody else could put in
      another chip (everyone else all-in); what nobody called is returned (PokerStars' rule).
    - `run_twice`: when the betting ends before the river with everyone in the hand but one at most
      all-in, the rest of the board is dealt twice and each pot split between the boards (rule 32;
      the players' agreement, as a table's standing rule).
    """

    short_all_in_reopens: bool = False
    big_blind_ante_order: Literal["blind_first", "ante_first"] = "blind_first"
    forbid_free_fold: bool = False
    rake_percent: float = 0.0
    rake_cap: int | None = None
    muck_losers: bool = True
    max_raises: tuple[int, ...] | None = attrs.field(default=None, converter=_raise_caps)
    raise_against_covered: bool = False
    raise_uncallable: bool = False
    run_twice: bool = False

    def __attrs_post_init__(self) -> None:
        for name in (
            "short_all_in_reopens",
            "forbid_free_fold",
            "muck_losers",
            "raise_against_covered",
            "raise_uncallable",
            "run_twice",
        ):
            if not isinstance(getattr(self, name), bool):
                raise InvalidConfigError(f"{name} must be true or false, got {getattr(self, name)!r}")
        rake = self.rake_percent
        if isinstance(rake, bool) or not isinstance(rake, int | float):
            raise InvalidConfigError(f"rake_percent must be a number, got {rake!r}")
        if self.big_blind_ante_order not in ("blind_first", "ante_first"):
            raise InvalidConfigError(f"unknown big_blind_ante_order {self.big_blind_ante_order!r}")
        if not 0 <= self.rake_percent < 100:
            raise InvalidConfigError(f"rake_percent must be in [0, 100), got {self.rake_percent!r}")
        if self.rake_cap is not None:
            check_chips("rake cap", self.rake_cap)

    @classmethod
    def acpc(cls, max_raises: Sequence[int] | None = None) -> Rules:
        """The ACPC protocol's rules (rule 21): incomplete all-in raises reopen the betting, a fold
        when checking is free is not an action, a raise is offered while anyone else has chips
        (rule 11 as the reference dealer plays it), and a game may cap the raises per round."""
        return cls(
            short_all_in_reopens=True,
            forbid_free_fold=True,
            max_raises=max_raises,
            raise_against_covered=True,
        )

    @classmethod
    def pokerstars(cls) -> Rules:
        """The rules PokerStars deals by (rule 11 as the site plays it): a player facing a bet may raise
        whenever they have chips beyond the call, even if nobody could call the raise (it is returned
        uncalled), and a player whose blind covers the others is still asked to act."""
        return cls(raise_against_covered=True, raise_uncallable=True)
