"""The exact all-in equity of each pair of starting-hand classes, as shipped (``equities.npz``,
made by ``scripts/gen_preflop_equities.py`` from the evaluator over every board)."""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

__all__ = ["equities"]


@cache
def equities() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """``(equity, pairs)``, each 169 x 169 in class order (`holdem.pushfold.classes`): the first
    class's equity against the second, all-in before the flop (ties half), averaged over their hand
    pairs that share no card (NaN where none do), and the number of those pairs."""
    with (
        resources.files("holdem.pushfold").joinpath("equities.npz").open("rb") as file,
        np.load(file) as data,
    ):
        return data["equity"].astype(np.float64), data["pairs"].astype(np.int64)
