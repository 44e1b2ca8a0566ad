"""Batch evaluation with NumPy: millions of hands per call.

The same keys as the scalar path (see `holdem.cards._tables`), summed per row. The non-flush
lookup becomes two small id tables (ranks 2–8, ranks 9–A) and one dense 2-D table, so that
every step is a vectorised gather. NumPy is imported only when this module is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from holdem.cards import _tables
from holdem.errors import InvalidCardError

__all__ = ["Tables", "combinations", "evaluate_many", "strength_counts", "strengths_of", "tables"]

_LOW_MASK = (1 << _tables.HIGH_SHIFT) - 1
_HIGH_MASK = (1 << (32 - _tables.HIGH_SHIFT)) - 1
_CHUNK = 1 << 15


class Tables(NamedTuple):
    """The evaluator's tables as NumPy arrays."""

    keys: npt.NDArray[np.int64]
    suit_bits: npt.NDArray[np.int64]
    low_id: npt.NDArray[np.int64]
    high_id: npt.NDArray[np.int64]
    ranks: npt.NDArray[np.uint16]
    flush: npt.NDArray[np.uint16]
    offset: int
    """Added to every sum of keys (so that a suit's count never borrows from its neighbour)."""
    category_starts: npt.NDArray[np.int64]
    """The lowest strength of each `HandCategory`, weakest first."""


@cache
def tables() -> Tables:
    """Build the dense tables from the scalar ones (once; about 10 MB)."""
    from holdem.cards.evaluator import _FLUSH, _RANKS

    keys = np.fromiter(_RANKS.keys(), dtype=np.int64, count=len(_RANKS))
    values = np.fromiter(_RANKS.values(), dtype=np.uint16, count=len(_RANKS))
    low, high = keys & _LOW_MASK, keys >> _tables.HIGH_SHIFT
    lows, highs = np.unique(low), np.unique(high)
    low_id = np.zeros(_LOW_MASK + 1, dtype=np.int64)
    low_id[lows] = np.arange(len(lows)) * len(highs)
    high_id = np.zeros(_HIGH_MASK + 1, dtype=np.int64)
    high_id[highs] = np.arange(len(highs))
    ranks = np.zeros(len(lows) * len(highs), dtype=np.uint16)
    ranks[low_id[low] + high_id[high]] = values
    return Tables(
        keys=np.array(_tables.CARD_KEYS, dtype=np.int64),
        suit_bits=np.array(_tables.SUIT_BITS, dtype=np.int64),
        low_id=low_id,
        high_id=high_id,
        ranks=ranks,
        flush=np.array(_FLUSH, dtype=np.uint16),
        offset=_tables.OFFSET,
        category_starts=np.array(_tables.CATEGORY_STARTS, dtype=np.int64),
    )


def evaluate_many(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of the rows of an ``(N, 5|6|7)`` array of card indices (0–51).

    Agrees exactly with `holdem.strength` row by row. Rows must hold distinct cards.
    """
    hands = np.asarray(cards)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise InvalidCardError(f"expected an (N, 5..7) array of card indices, got shape {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise InvalidCardError(f"card indices must be integers, got dtype {hands.dtype}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise InvalidCardError("card indices must be in 0..51")
    return strengths_of(hands)


def strengths_of(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    """`evaluate_many` without checking its input: for callers that built the array themselves."""
    t = tables()
    out = np.empty(len(hands), dtype=np.int32)
    # Cache-sized chunks: the (rows, cards) int64 keys of one chunk stay in cache.
    for start in range(0, len(hands), _CHUNK):
        chunk = hands[start : start + _CHUNK]
        sums = np.einsum("ij->i", t.keys[chunk]) + _tables.OFFSET
        out[start : start + _CHUNK] = lookup(sums, partial(_suit_sums, t.suit_bits, chunk), t)
    return out


def _suit_sums(
    suit_bits: npt.NDArray[np.int64], hands: npt.NDArray[np.integer], rows: npt.NDArray[np.intp]
) -> npt.NDArray[np.int64]:
    result: npt.NDArray[np.int64] = suit_bits[hands[rows]].sum(axis=1)
    return result


def lookup(
    sums: npt.NDArray[np.int64],
    suit_sums: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.int64]],
    t: Tables,
) -> npt.NDArray[np.int32]:
    """Strengths from summed keys (offset included).

    `suit_sums(rows)` gives the summed `SUIT_BITS` of the given rows; it is called only for
    the rows that hold a flush.
    """
    low = t.low_id[sums & _LOW_MASK]
    out: npt.NDArray[np.int32] = t.ranks[low + t.high_id[(sums >> _tables.HIGH_SHIFT) & _HIGH_MASK]].astype(
        np.int32
    )
    flushes = np.flatnonzero(sums & _tables.FLUSH_BITS)
    if flushes.size:
        out[flushes] = flush_strengths(sums[flushes], suit_sums(flushes), t)
    return out


def flush_strengths(
    sums: npt.NDArray[np.int64], suit_bits: npt.NDArray[np.int64], t: Tables
) -> npt.NDArray[np.uint16]:
    """Strengths of flush hands from their summed keys and summed `SUIT_BITS`."""
    flush_bits = sums & _tables.FLUSH_BITS
    suit = np.zeros(len(sums), dtype=np.int64)
    for s in range(1, 4):
        suit[(flush_bits >> (_tables.SUIT_SHIFT + 4 * s + 3)) & 1 == 1] = s
    result: npt.NDArray[np.uint16] = t.flush[(suit_bits >> (16 * suit)) & 0x1FFF]
    return result


@cache
def strength_counts(size: int = 7) -> npt.NDArray[np.int64]:
    """How many of all `size`-card hands (5, 6 or 7 of 52) have each strength (index 1..7462).

    Every hand is evaluated once through `evaluate_many`: all 133,784,560 seven-card hands take a
    few seconds. The counts are what published tables of hand frequencies list.
    """
    if size not in (5, 6, 7):
        raise InvalidCardError(f"hands have 5 to 7 cards, got {size!r}")
    hits = np.zeros(7463, dtype=np.int64)
    # Every subset, by its two lowest cards (a < b) and the size-2 cards above b.
    for a in range(52):
        for b in range(a + 1, 52 - (size - 2)):
            tails = combinations(51 - b, size - 2).astype(np.int8) + np.int8(b + 1)
            hands = np.empty((len(tails), size), dtype=np.int8)
            hands[:, 0], hands[:, 1], hands[:, 2:] = a, b, tails
            hits += np.bincount(evaluate_many(hands), minlength=7463)
    return hits


@cache
def combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """All k-subsets of ``range(n)`` in lexicographic order, as a read-only (C(n,k), k) array
    (kept once made: read-only, so callers share it)."""
    out = _combinations(n, k, {})
    out.setflags(write=False)
    return out


def _combinations(n: int, k: int, memo: dict[tuple[int, int], npt.NDArray[np.int8]]) -> npt.NDArray[np.int8]:
    if (n, k) in memo:
        return memo[n, k]
    if k == 0:
        out = np.zeros((1, 0), dtype=np.int8)
    elif k > n:
        out = np.zeros((0, k), dtype=np.int8)
    else:
        # The subsets starting with i are i followed by the (k-1)-subsets of range(i+1, n).
        parts = []
        for first in range(n - k + 1):
            tail = _combinations(n - first - 1, k - 1, memo) + np.int8(first + 1)
            parts.append(np.hstack([np.full((len(tail), 1), first, dtype=np.int8), tail]))
        out = np.vstack(parts)
    memo[n, k] = out
    return out
