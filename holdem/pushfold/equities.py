"""The exact all-in equity of each pair of starting-hand classes, as shipped (``equities.npz``,
made by ``scripts/gen_preflop_equities.py`` from the evaluator over every board)."""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

__all__ = ["equities", "wins"]


@cache
def _table(name: str) -> npt.NDArray[np.float64]:
    shipped = resources.files("holdem.pushfold").joinpath("equities.npz")
    with shipped.open("rb") as file, np.load(file) as data:
        table: npt.NDArray[np.float64] = data[name].astype(np.float64)
    return table


def equities() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """``(equity, pairs)``, each 169 x 169 in class order (`holdem.pushfold.classes`): the first
    class's equity against the second, all-in before the flop (ties half), averaged over their hand
    pairs that share no card (NaN where none do), and the number of those pairs."""
    return _table("equity"), _table("pairs").astype(np.int64)


def wins() -> npt.NDArray[np.float64]:
    """169 x 169: the first class's chance of winning outright against the second (a tie is the
    rest: ``2 * (equity - win)`` of the boards; NaN where no hand pairs are disjoint)."""
    return _table("win")
