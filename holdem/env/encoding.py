"""What a learning agent sees and does: the observation vector and the discrete actions.

Both are functions of a `SeatView` alone, so a trained policy can also play as a `holdem` bot.
Chip amounts are in big blinds. For a table of N players the observation has ``116 + 5 N``
float32 fields, in this order:

====================  =======  ==================================================================
field                 length   meaning
====================  =======  ==================================================================
hole                  52       own hole cards, one-hot by `Card.index` (``4 * rank + suit``)
board                 52       the board cards, one-hot the same way
street                4        preflop, flop, turn, river (one-hot; all 0 once the hand is over)
position              N        own place in dealing order, one-hot: 0 is left of the button
                               (the small blind; heads-up the big blind), N - 1 the button
seats                 4 N      for each seat, starting with one's own and going clockwise:
                               stack, bet this street, folded (0/1), all-in (0/1)
pot                   1        all chips in the middle, this street's bets included
to_call               1        chips needed to call (0 when checking is free or not one's turn)
min_raise_to          1        smallest legal raise-to total (0 when no raise is possible)
max_raise_to          1        largest legal raise-to total (0 when no raise is possible)
raises                4        number of bets and raises on each street so far
====================  =======  ==================================================================

Actions are ``0`` fold, ``1`` check or call, then one raise per pot fraction ``f`` (raise to
one's bet plus the call plus ``f`` times the pot after calling, rounded down), then the largest
raise (all-in in no-limit, the pot in pot-limit, the fixed size in limit). A fraction is legal
only when its total lies within the legal bounds and below the largest raise, so no two legal
actions mean the same move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from holdem.bots.observation import BOARD, FIXED, POSITION, STREET, observation_size, seats_at
from holdem.hand.actions import Action, ActionKind, LegalActions
from holdem.hand.events import ACTION, PHASE, Phase
from holdem.hand.views import SeatView

__all__ = ["ActionSpace", "observation", "observation_bounds"]

_RAISE = ActionKind.RAISE
_RIVER = Phase.RIVER


def observation_bounds(players: int, chips: int, big_blind: int) -> npt.NDArray[np.float32]:
    """The upper bound of each field (the lower bound is 0) when `chips` are in play."""
    most = chips / big_blind
    high = np.ones(observation_size(players), dtype=np.float32)
    seats = seats_at(players)
    high[seats : seats + 4 * players : 4] = most  # stacks
    high[seats + 1 : seats + 4 * players : 4] = most  # bets
    rest = seats + 4 * players
    high[rest : rest + 4] = most  # pot, to call, raise bounds
    high[rest + 4 :] = chips  # each raise adds at least a chip
    return high


def observation(view: SeatView) -> npt.NDArray[np.float32]:
    """The observation vector of `view` (see the module's table)."""
    n = len(view.stacks)
    me = view.player
    bb = view.big_blind
    out = [0.0] * (FIXED + 5 * n)  # filled as a list, converted once (faster than item stores)
    for card in view.hole:
        out[card.index] = 1.0
    for card in view.board:
        out[BOARD + card.index] = 1.0
    phase = view.phase
    if phase <= _RIVER:
        out[STREET + phase] = 1.0
    out[POSITION + me] = 1.0
    base = seats_at(n)
    stacks, bets, folded = view.stacks, view.bets, view.folded
    for p in [*range(me, n), *range(me)]:  # own seat first, then clockwise
        stack, out_ = stacks[p], folded[p]
        out[base] = stack / bb
        out[base + 1] = bets[p] / bb
        out[base + 2] = 1.0 if out_ else 0.0
        out[base + 3] = 0.0 if stack or out_ else 1.0
        base += 4
    out[base] = view.pot / bb
    legal = view.legal
    if legal is not None:
        out[base + 1] = legal.to_call / bb
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            out[base + 2] = legal.min_raise_to / bb
            out[base + 3] = legal.max_raise_to / bb
    for entry in view.public_log:
        action = entry[ACTION]
        if action is not None and action.kind is _RAISE:
            out[base + 4 + entry[PHASE]] += 1.0
    return np.array(out, dtype=np.float32)


class ActionSpace:
    """The discrete actions for the given pot fractions: their names, legality mask and meaning."""

    def __init__(self, fractions: Sequence[float] = (0.5, 1.0, 2.0)) -> None:
        values = tuple(fractions)
        if not all(type(f) in (int, float) and f > 0 for f in values) or len(set(values)) != len(values):
            raise ValueError(f"pot fractions must be distinct positive numbers, got {fractions!r}")
        self.fractions: tuple[float, ...] = tuple(sorted(float(f) for f in values))
        self.names: tuple[str, ...] = (
            "fold",
            "check/call",
            *(f"raise {f:g} pot" for f in self.fractions),
            "raise max",
        )

    def __len__(self) -> int:
        return len(self.names)

    def raise_to(self, view: SeatView, legal: LegalActions, fraction: float) -> int:
        """The raise-to total of a raise of `fraction` of the pot after calling."""
        bet = view.bets[view.player]
        return bet + legal.to_call + int(fraction * (view.pot + legal.to_call))

    def mask(self, view: SeatView) -> npt.NDArray[np.int8]:
        """1 for each action legal in `view`, else 0 (all 0 when it is not this player's turn)."""
        out = np.zeros(len(self.names), dtype=np.int8)
        legal = view.legal
        if legal is None:
            return out
        out[0] = legal.can_fold
        out[1] = 1
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is not None and hi is not None:
            for i, fraction in enumerate(self.fractions):
                out[2 + i] = lo <= self.raise_to(view, legal, fraction) < hi
            out[-1] = 1
        return out

    def action(self, view: SeatView, index: int | np.integer) -> Action | None:
        """The engine action for `index` in `view`, or None when it is not legal there."""
        legal = view.legal
        if legal is None or not isinstance(index, int | np.integer) or not 0 <= index < len(self.names):
            return None
        index = int(index)
        if index == 0:
            return Action.fold() if legal.can_fold else None
        if index == 1:
            return Action.check() if legal.can_check else Action.call()
        lo, hi = legal.min_raise_to, legal.max_raise_to
        if lo is None or hi is None:
            return None
        if index == len(self.names) - 1:
            return Action.raise_to(hi)
        to = self.raise_to(view, legal, self.fractions[index - 2])
        return Action.raise_to(to) if lo <= to < hi else None
