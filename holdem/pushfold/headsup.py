"""Heads-up push or fold: the small blind moves all-in or folds, the big blind calls or folds.

The game is zero-sum over the 169 starting-hand classes, each deal weighted by its number of hand
pairs that share no card (card removal), with the exact all-in equity of each pair of classes
(`holdem.pushfold.equities`). Solved by CFR+ (regret matching with regrets floored at zero,
alternating updates, the average strategy weighted by iteration) until a best response to either
side gains at most `tolerance` big blinds a hand. Stacks are effective and in big blinds, counted
before anything is posted; the blinds are 0.5 and 1 and each player posts `ante`.
"""

from __future__ import annotations

from functools import cache

import attrs
import numpy as np
import numpy.typing as npt

from holdem.errors import InvalidConfigError
from holdem.pushfold.classes import NAMES, class_of_hands, hands
from holdem.pushfold.equities import equities

__all__ = ["HeadsUp", "exploitability", "range_text", "solve_headsup"]

Floats = npt.NDArray[np.float64]


@attrs.frozen(eq=False)
class HeadsUp:
    """An equilibrium at one stack: each class's probability of pushing (small blind) and of calling
    (big blind), the small blind's value in big blinds a hand, and what a best response gains
    against each side (its exploitability), from `exploitability`."""

    stack: float
    ante: float
    push: Floats
    call: Floats
    value: float
    push_exploitability: float
    call_exploitability: float
    iterations: int

    @property
    def push_range(self) -> str:
        """The small blind's pushing range in `holdem.cards.ranges` notation (``"AA, AKs, K9s:0.42"``)."""
        return range_text(self.push)

    @property
    def call_range(self) -> str:
        """The big blind's calling range, likewise."""
        return range_text(self.call)


def range_text(weights: Floats, least: float = 0.005) -> str:
    """Classes played with weight at least `least` as a range (`holdem.cards.ranges`, usable by `equity`)."""
    items = []
    for name, weight in zip(NAMES, weights.tolist(), strict=True):
        if weight >= 1 - least:
            items.append(name)
        elif weight >= least:
            items.append(f"{name}:{weight:.3f}")
    return ", ".join(items)


def _payoffs(stack: float, ante: float) -> tuple[Floats, float, float]:
    """The small blind's payoff matrix when the big blind calls, and when it folds or the small
    blind folds (constants): in big blinds, net of what the small blind had."""
    equity, _ = equities()
    called = 2 * stack * equity - stack
    return np.nan_to_num(called), 1 + ante, -(0.5 + ante)


def solve_headsup(
    stack: float, ante: float = 0.0, *, tolerance: float = 1e-5, max_iterations: int = 100_000
) -> HeadsUp:
    """The push/fold equilibrium at an effective `stack` (1 to 100 big blinds) with `ante`."""
    if isinstance(stack, bool) or not isinstance(stack, int | float) or not 1 <= stack <= 100:
        raise InvalidConfigError(f"the stack must be 1 to 100 big blinds, got {stack!r}")
    if isinstance(ante, bool) or not isinstance(ante, int | float) or not 0 <= ante <= stack - 1:
        raise InvalidConfigError(f"the ante must be 0 to the stack less the big blind, got {ante!r}")
    _, pairs = equities()
    weights = pairs / pairs.sum()
    called, steal, fold = _payoffs(stack, ante)
    regret_push, regret_call = np.zeros((169, 2)), np.zeros((169, 2))
    sum_push, sum_call = np.zeros(169), np.zeros(169)
    iteration = 0
    push = call = np.full(169, 0.5)
    while iteration < max_iterations:
        for _ in range(100):
            iteration += 1
            push = _matched(regret_push)
            # The small blind's values of pushing and folding, each class, against `call`.
            pushed = weights @ (1 - call) * steal + (weights * called) @ call
            folded = weights.sum(axis=1) * fold
            _accumulate(regret_push, pushed, folded, push)
            push = _matched(regret_push)
            sum_push += iteration * push
            call = _matched(regret_call)
            # The big blind's values (the negative of the small blind's), each class, against `push`.
            calls = -(push @ (weights * called))
            folds = -(push @ weights) * steal
            _accumulate(regret_call, calls, folds, call)
            call = _matched(regret_call)
            sum_call += iteration * call
        push, call = _average(sum_push, iteration), _average(sum_call, iteration)
        value, gain_sb, gain_bb = exploitability(stack, ante, push, call)
        if max(gain_sb, gain_bb) <= tolerance:
            break
    return HeadsUp(float(stack), float(ante), push, call, value, gain_sb, gain_bb, iteration)


def _matched(regret: Floats) -> Floats:
    """The probability of the first action (push or call) by regret matching."""
    positive = np.maximum(regret, 0)
    total = positive.sum(axis=1)
    return np.where(total > 0, positive[:, 0] / np.where(total > 0, total, 1), 0.5)


def _accumulate(regret: Floats, first: Floats, second: Floats, p: Floats) -> None:
    """CFR+: add each action's regret against the mixed value, floored at zero."""
    mixed = p * first + (1 - p) * second
    regret[:, 0] = np.maximum(regret[:, 0] + first - mixed, 0)
    regret[:, 1] = np.maximum(regret[:, 1] + second - mixed, 0)


def _average(total: Floats, iterations: int) -> Floats:
    """The average strategy when each iteration t was added with weight t."""
    result: Floats = total / (iterations * (iterations + 1) / 2)
    return np.clip(result, 0.0, 1.0)


@cache
def _deals() -> tuple[Floats, Floats]:
    """Each deal of two hands that share no card, equally likely (1,326 x 1,326), and the first
    hand's equity against the second (its class's)."""
    equity, _ = equities()
    table, cls = hands(), class_of_hands()
    held = (np.int64(1) << table[:, 0]) | (np.int64(1) << table[:, 1])
    disjoint = ((held[:, None] & held[None, :]) == 0).astype(np.float64)
    return disjoint / disjoint.sum(), np.nan_to_num(equity[np.ix_(cls, cls)])


def exploitability(stack: float, ante: float, push: Floats, call: Floats) -> tuple[float, float, float]:
    """The small blind's value of (`push`, `call`) and what a best response gains against each side,
    in big blinds a hand. Worked out hand by hand (1,326 x 1,326, the pairs that share no card),
    apart from the solver's class sums, so that a slip in one does not hide in the other."""
    deal, hand_equity = _deals()
    cls = class_of_hands()
    shove = 2 * stack * hand_equity - stack  # the small blind's, when called
    p, c = push[cls], call[cls]
    steal, fold = 1 + ante, -(0.5 + ante)
    # Each small-blind hand: pushing against the big blind's calls, or folding.
    pushing = (deal * (c[None, :] * shove + (1 - c[None, :]) * steal)).sum(axis=1)
    folding = deal.sum(axis=1) * fold
    value = float((p * pushing + (1 - p) * folding).sum())
    sb_best = float(np.maximum(pushing, folding).sum())
    # Each big-blind hand: calling or folding against the small blind's pushes (big blind's values).
    facing = deal * p[:, None]
    calling = -(facing * shove).sum(axis=0) - (deal * (1 - p[:, None])).sum(axis=0) * fold
    folding_bb = -facing.sum(axis=0) * steal - (deal * (1 - p[:, None])).sum(axis=0) * fold
    bb_best = float(np.maximum(calling, folding_bb).sum())
    return value, sb_best - value, bb_best + value
