"""Showdowns of many tables at once: best hands, side pots and odd chips on arrays (rules 17, 18).

Pure functions over ``(players, k)`` arrays (a table per column, players in dealing order), as
`holdem.hand.pots` and `holdem.hand.showdown` do for one hand: a pot for each contribution level of a player
still in, dead money to the main pot, a split pot's odd chips one at a time from the first player
left of the button.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from holdem.cards.batch import lookup, tables

__all__ = ["board_columns", "payouts", "strengths"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def board_columns(players: int) -> list[int]:
    """The deck positions of the five board cards: burn and three, burn and one, burn and one."""
    first = 2 * players
    return [first + 1, first + 2, first + 3, first + 5, first + 7]


def strengths(decks: npt.NDArray[np.int8], players: int) -> npt.NDArray[np.int32]:
    """``(players, k)`` best-five-of-seven strengths (higher wins) from `k` decks, a deck per column.

    The evaluator's keys are summed once per board and added to each player's two (as
    `holdem.cards.batch` does for seven cards); the suits are summed only where a flush is possible.
    """
    t = tables()
    k = decks.shape[1]
    board = decks[board_columns(players)]
    keys = t.keys
    board_sum = keys[board].sum(axis=0) + t.offset
    sums = (keys[decks[:players]] + keys[decks[players : 2 * players]] + board_sum).reshape(-1)

    def suit_sums(rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        player, table = np.divmod(rows, k)
        bits = t.suit_bits
        out: npt.NDArray[np.int64] = (
            bits[decks[player, table]]
            + bits[decks[players + player, table]]
            + bits[board[:, table]].sum(axis=0)
        )
        return out

    return lookup(sums, suit_sums, t).reshape(players, k)


def payouts(contrib: Ints, folded: Bools, dead: Ints, value: npt.NDArray[np.int32]) -> Ints:
    """What each player wins: every pot to the best hand among the players eligible for it.

    Arrays are ``(players, k)``: `contrib` is each player's chips in the middle, `value` the
    strengths (folded players' are ignored); `dead` is each table's money that is nobody's bet
    (a big-blind ante).
    """
    strength = np.where(folded, -1, value)
    top = np.where(folded, -1, contrib).max(axis=0)
    # One pot where every player still in put in the same: the common case, settled at once.
    single = ((contrib == top) | folded).all(axis=0)
    if single.all():
        return _one_pot(contrib.sum(axis=0) + dead, strength)
    out = np.zeros(contrib.shape, dtype=np.int64)
    if single.any():
        out[:, single] = _one_pot(contrib[:, single].sum(axis=0) + dead[single], strength[:, single])
    side = ~single
    out[:, side] = _side_pots(contrib[:, side], folded[:, side], dead[side], strength[:, side])
    return out


def _shares(amount: Ints, winners: Bools) -> Ints:
    """`amount` split among `winners`, odd chips one each from the first player left of the button
    on (rule 18)."""
    share, odd = np.divmod(amount, np.maximum(winners.sum(axis=0), 1))
    out: Ints = np.where(winners, share, 0)
    split = odd > 0
    if split.any():
        rank = np.cumsum(winners[:, split], axis=0) - 1  # among the winners, from player 0 on
        out[:, split] += winners[:, split] & (rank < odd[split])
    return out


def _one_pot(amount: Ints, strength: Ints) -> Ints:
    """A single pot to the best hand (folded players' `strength` is -1)."""
    return _shares(amount, strength == strength.max(axis=0))


def _side_pots(contrib: Ints, folded: Bools, dead: Ints, strength: Ints) -> Ints:
    """A pot per contribution level of a player still in, lowest first; chips above the highest
    such level (a folded player's) join the last pot, dead money the first."""
    n, k = contrib.shape
    out = np.zeros((n, k), dtype=np.int64)
    levels = np.sort(np.where(folded, np.iinfo(np.int64).max, contrib), axis=0)  # folded sort last
    live = n - folded.sum(axis=0)
    top = levels[live - 1, np.arange(k)]
    excess = np.maximum(contrib - top, 0).sum(axis=0)
    below = np.zeros(k, dtype=np.int64)
    for j in range(int(live.max())):  # a pot per level of a player still in, at most
        valid = j < live
        level = np.where(valid, levels[j], below)
        amount = (np.minimum(contrib, level) - np.minimum(contrib, below)).sum(axis=0)
        if j == 0:
            amount += dead
        amount += np.where(valid & (j == live - 1), excess, 0)
        eligible = (contrib >= level) & ~folded
        best = np.where(eligible, strength, -1).max(axis=0)
        out += _shares(amount, eligible & (strength == best))
        below = level
    return out
