"""A heads-up postflop solver: the equilibrium of a spot's betting tree by discounted CFR, vectorised
over hands and run-outs with NumPy, checked by an exact best response.

>>> from holdem.solver import Spot, TreeConfig, solve
>>> spot = Spot.parse(board="Ks7d2c5h9s", pot=100, stack=100, oop="AA,43s", ip="KQo")
>>> solution = solve(spot, TreeConfig.uniform(bets="100", raises=""), accuracy=0.01)
>>> round(solution.node().frequencies()["b100"], 2)  # 6 aces bet, and 3 of the 4 air hands
0.9
>>> round(solution.node("b100").frequencies()["c"], 2)  # the catcher calls half the time
0.5

``holdem solve`` runs it from the command line and ``holdem docs solver`` explains the tree, the
abstraction, exploitability and how to read the grids.
"""

from holdem.solver.build import Report, build_game, estimate
from holdem.solver.result import NodeResult, Solution, load
from holdem.solver.solve import Progress, solve
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
