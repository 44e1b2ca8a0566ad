"""A heads-up postflop solver: the equilibrium of a spot's betting tree by discounted CFR, vectorised
over hands and run-outs with NumPy, checked by an exact best response.

>>> from holdem.solver import Spot, TreeConfig, solve
>>> spot = Spot.parse(board="Ks7d2c5h9s", pot=100, stack=100, oop="AA,72o", ip="KQo")
>>> solution = solve(spot, TreeConfig.uniform(bets="100", raises=""), accuracy=0.01)
>>> round(solution.node().frequencies()["b100"], 2)  # value bets aces, bluffs half as often
0.75

``holdem solve`` runs it from the command line and ``holdem docs solver`` explains the tree, the
abstraction, exploitability and how to read the grids.
"""

from holdem.solver.result import NodeResult, Solution, load
from holdem.solver.solve import Progress, Report, build_game, estimate, solve
from holdem.solver.spot import Spot
from holdem.solver.tree import Sizes, TreeConfig, build_tree

__all__ = [
    "NodeResult",
    "Progress",
    "Report",
    "Sizes",
    "Solution",
    "Spot",
    "TreeConfig",
    "build_game",
    "build_tree",
    "estimate",
    "load",
    "solve",
]
