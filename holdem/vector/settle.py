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
    strength = np.where(folded, -1, value)
    top = np.where(folded, -1, contrib).max(axis=1)
    # One pot where every player still in put in the same: the common case, settled at once.
    single = ((contrib == top[:, None]) | folded).all(axis=1)
    if single.all():
        return _one_pot(contrib.sum(axis=1) + dead, strength)
    out = np.zeros(contrib.shape, dtype=np.int64)
    if single.any():
        out[single] = _one_pot(contrib[single].sum(axis=1) + dead[single], strength[single])
    side = ~single
    out[side] = _side_pots(contrib[side], folded[side], dead[side], strength[side])
    return out


def _shares(amount: Ints, winners: Bools) -> Ints:
    """`amount` split among `winners`, odd chips one each from the first player left of the button
    on (rule 18)."""
    share, odd = np.divmod(amount, np.maximum(winners.sum(axis=1), 1))
    rank = np.cumsum(winners, axis=1) - 1
    out: Ints = np.where(winners, share[:, None] + (rank < odd[:, None]), 0)
    return out


def _one_pot(amount: Ints, strength: Ints) -> Ints:
    """A single pot to the best hand (folded players' `strength` is -1)."""
    return _shares(amount, strength == strength.max(axis=1, keepdims=True))


def _side_pots(contrib: Ints, folded: Bools, dead: Ints, strength: Ints) -> Ints:
    """A pot per contribution level of a player still in, lowest first; chips above the highest
    such level (a folded player's) join the last pot, dead money the first."""
    k, n = contrib.shape
    out = np.zeros((k, n), dtype=np.int64)
    levels = np.sort(np.where(folded, np.iinfo(np.int64).max, contrib), axis=1)  # folded sort last
    live = n - folded.sum(axis=1)
    top = levels[np.arange(k), live - 1]
    excess = np.maximum(contrib - top[:, None], 0).sum(axis=1)
    below = np.zeros(k, dtype=np.int64)
    for j in range(int(live.max())):  # a pot per level of a player still in, at most
        valid = j < live
        level = np.where(valid, levels[:, j], below)
        amount = (np.minimum(contrib, level[:, None]) - np.minimum(contrib, below[:, None])).sum(axis=1)
        if j == 0:
            amount += dead
        amount += np.where(valid & (j == live - 1), excess, 0)
        eligible = (contrib >= level[:, None]) & ~folded
        best = np.where(eligible, strength, -1).max(axis=1)
        out += _shares(amount, eligible & (strength == best[:, None]))
        below = level
    return out
