"""Showdowns of many tables at once: best hands, side pots and odd chips on arrays (rules 17, 18).

Pure functions over ``(k, players)`` arrays in dealing order, as `holdem.pots` and `holdem.showdown`
do for one hand: a pot for each contribution level of a player still in, dead money to the main
pot, a split pot's odd chips one at a time from the first player left of the button.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from holdem.batch import strengths_of

__all__ = ["board_columns", "payouts", "strengths"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def board_columns(players: int) -> list[int]:
    """The deck positions of the five board cards: burn and three, burn and one, burn and one."""
    first = 2 * players
    return [first + 1, first + 2, first + 3, first + 5, first + 7]


def strengths(decks: npt.NDArray[np.int8], players: int) -> npt.NDArray[np.int32]:
    """``(k, players)`` best-five-of-seven strengths (higher wins) from each table's deck."""
    k = len(decks)
    board = decks[:, board_columns(players)]
    cards = np.empty((k, players, 7), dtype=np.int8)
    cards[:, :, 0] = decks[:, :players]
    cards[:, :, 1] = decks[:, players : 2 * players]
    cards[:, :, 2:] = board[:, None, :]
    return strengths_of(cards.reshape(k * players, 7)).reshape(k, players)


def payouts(contrib: Ints, folded: Bools, dead: Ints, value: npt.NDArray[np.int32]) -> Ints:
    """What each player wins: every pot to the best hand among the players eligible for it.

    `contrib` is each player's chips in the middle, `dead` the money that is nobody's bet (a
    big-blind ante), `value` the strengths (folded players' are ignored).
    """
    k, n = contrib.shape
    out = np.zeros((k, n), dtype=np.int64)
    # Contribution levels of the players still in, lowest first (folded players sort last).
    levels = np.sort(np.where(folded, np.iinfo(np.int64).max, contrib), axis=1)
    live = n - folded.sum(axis=1)
    top = levels[np.arange(k), live - 1]  # the highest live level: chips above it join the last pot
    excess = np.maximum(contrib - top[:, None], 0).sum(axis=1)
    strength = np.where(folded, -1, value)
    below = np.zeros(k, dtype=np.int64)
    for j in range(int(live.max())):  # a pot per level of a player still in, at most
        valid = j < live
        level = np.where(valid, levels[:, j], below)
        amount = (np.minimum(contrib, level[:, None]) - np.minimum(contrib, below[:, None])).sum(axis=1)
        if j == 0:
            amount += dead
        last = valid & (j == live - 1)
        amount += np.where(last, excess, 0)
        eligible = (contrib >= level[:, None]) & ~folded
        best = np.where(eligible, strength, -1).max(axis=1)
        winners = eligible & (strength == best[:, None])
        count = winners.sum(axis=1)
        share, odd = np.divmod(amount, np.maximum(count, 1))
        rank = np.cumsum(winners, axis=1) - 1  # rule 18: odd chips from player 0 on
        out += np.where(winners, share[:, None] + (rank < odd[:, None]), 0)
        below = level
    return out
