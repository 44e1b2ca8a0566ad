"""The observation of the player to act at many tables: `holdem.env.encoding`'s vector, row by row.

The same fields in the same order as `holdem.env.encoding.observation` of the actor's `SeatView`
(a test compares them), built with whole-array stores.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from holdem.bots.observation import BOARD, POSITION, STREET, observation_size, seats_at

__all__ = ["observe"]


class Tables(Protocol):
    """What the observation reads of a `VectorTables`."""

    players: int
    _bb: npt.NDArray[np.int64]
    _actor: npt.NDArray[np.int64]
    _deck: npt.NDArray[np.int8]
    _street: npt.NDArray[np.int64]
    _stack: npt.NDArray[np.int64]
    _bet: npt.NDArray[np.int64]
    _folded: npt.NDArray[np.bool_]
    _chips: npt.NDArray[np.int64]
    _tos: npt.NDArray[np.int64]
    _raises: npt.NDArray[np.int64]
    _level: npt.NDArray[np.int64]
    _increment: npt.NDArray[np.int64]
    legal: npt.NDArray[np.bool_]


def observe(t: Tables, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """``(len(rows), observation_size)`` observations of the players to act at `rows`."""
    k, n = len(rows), t.players
    bb = t._bb[rows].astype(np.float64)  # each table's big blind
    out = np.zeros((k, observation_size(n)), dtype=np.float32)
    index = np.arange(k)
    me = t._actor[rows]
    deck = t._deck[:, rows]  # a deck per column
    out[index, deck[me, index]] = 1
    out[index, deck[n + me, index]] = 1
    street = t._street[rows]
    first = 2 * n
    for column, card in ((first + 1, 0), (first + 2, 0), (first + 3, 0), (first + 5, 1), (first + 7, 2)):
        seen = index[street > card]
        out[seen, BOARD + deck[column, seen]] = 1
    out[index, STREET + street] = 1
    out[index, POSITION + me] = 1
    order = (me + np.arange(n)[:, None]) % n  # own seat first, then clockwise; a table per column
    stack = t._stack[order, rows].T
    folded = t._folded[order, rows].T
    base = seats_at(n)
    out[:, base : base + 4 * n : 4] = stack / bb[:, None]
    out[:, base + 1 : base + 4 * n : 4] = t._bet[order, rows].T / bb[:, None]
    out[:, base + 2 : base + 4 * n : 4] = folded
    out[:, base + 3 : base + 4 * n : 4] = (stack == 0) & ~folded
    rest = base + 4 * n
    out[:, rest] = (t._chips[rows] - t._stack[:, rows].sum(axis=0)) / bb
    my_bet = t._bet[me, rows]
    out[:, rest + 1] = np.clip(t._level[rows] - my_bet, 0, t._stack[me, rows]) / bb
    can_raise = t.legal[rows, -1]
    low = _min_raise_to(t, rows, me)
    out[:, rest + 2] = np.where(can_raise, low / bb, 0)
    out[:, rest + 3] = np.where(can_raise, t._tos[-1, rows] / bb, 0)
    out[:, rest + 4 :] = t._raises[rows]
    return out


def _min_raise_to(t: Tables, rows: npt.NDArray[np.int64], me: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The smallest legal raise-to total (where a raise is legal)."""
    increment = t._increment[rows]
    all_in = t._bet[me, rows] + t._stack[me, rows]
    out: npt.NDArray[np.int64] = np.minimum(t._level[rows] + increment, all_in)
    return out
