"""Push or fold: equilibrium short-stack play.

``solve_headsup(10)`` gives the heads-up equilibrium at 10 big blinds (the small blind pushes or
folds, the big blind calls or folds) with its exploitability; ``holdem pushfold --stack 10`` prints
its charts. The equities come from ``equities.npz`` (``scripts/gen_preflop_equities.py``).
"""

from __future__ import annotations

from holdem.pushfold.classes import NAMES
from holdem.pushfold.headsup import HeadsUp, exploitability, solve_headsup

__all__ = ["NAMES", "HeadsUp", "exploitability", "solve_headsup"]
