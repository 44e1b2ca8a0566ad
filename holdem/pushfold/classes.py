"""The 169 starting-hand classes as a 13 x 13 grid, the way charts are read: row and column run from
ace down to deuce, pairs on the diagonal, suited hands above it (the row's rank high), offsuit
below (the column's rank high). Class ``13 * row + column``; ``AKs`` is 1, ``AKo`` is 13.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

__all__ = ["CLASSES", "NAMES", "class_of_hands", "combos_of", "hands"]

_RANKS = "AKQJT98765432"  # grid order: row 0 is the ace
CLASSES = 169


def _name(k: int) -> str:
    row, col = divmod(k, 13)
    if row == col:
        return _RANKS[row] * 2
    high, low = min(row, col), max(row, col)
    return _RANKS[high] + _RANKS[low] + ("s" if row < col else "o")


NAMES: tuple[str, ...] = tuple(_name(k) for k in range(CLASSES))
"""Each class's name (``AA``, ``AKs``, ``AKo``, …), in class order."""


@cache
def hands() -> npt.NDArray[np.int64]:
    """The 1,326 two-card hands as ``(1326, 2)`` card indices (``4 * rank + suit``), lower first."""
    first, second = np.triu_indices(52, 1)
    return np.stack([first, second], axis=1).astype(np.int64)


def _class_of(a: int, b: int) -> int:
    """The class of cards `a` and `b` (card indices)."""
    row_a, row_b = 12 - a // 4, 12 - b // 4  # grid rows: the ace is 0
    high, low = min(row_a, row_b), max(row_a, row_b)
    if high == low:
        return 13 * high + high
    return 13 * high + low if a % 4 == b % 4 else 13 * low + high


@cache
def class_of_hands() -> npt.NDArray[np.int64]:
    """The class of each of the 1,326 hands of `hands`."""
    return np.array([_class_of(int(a), int(b)) for a, b in hands()], dtype=np.int64)


def combos_of(k: int) -> list[tuple[int, int]]:
    """The hands of class `k` as pairs of card indices (6 for a pair, 4 suited, 12 offsuit)."""
    return [(int(a), int(b)) for (a, b), c in zip(hands(), class_of_hands(), strict=True) if c == k]
