"""Solve a spot: build the tree, check it fits, iterate to a target exploitability.

>>> from holdem.solver import Spot, TreeConfig, solve
>>> spot = Spot.parse(board="QsJh2h8d3c", pot=100, stack=100, oop="AA,QQ,JJ", ip="KK,AQs")
>>> solution = solve(spot, TreeConfig.uniform(bets="allin", raises=""), accuracy=0.1)
>>> solution.exploitability <= 0.1
True
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from holdem.console.fields import Field, read_fields
from holdem.errors import SolverError
from holdem.solver.build import build_game
from holdem.solver.result import Solution
from holdem.solver.spot import Spot
from holdem.solver.tree import TreeConfig

__all__ = ["Progress", "solve"]


@attrs.frozen
class Progress:
    """What a solve reports as it goes: the iterations done, the exploitability now (% of the pot)
    and the seconds spent."""

    iterations: int
    exploitability: float
    seconds: float


def solve(
    spot: Spot,
    config: TreeConfig,
    *,
    accuracy: float = 0.5,
    max_iterations: int = 1000,
    check_every: int = 10,
    progress: Callable[[Progress], None] | None = None,
    max_memory: int | None = None,
    max_seconds: float | None = None,
) -> Solution:
    """Solve `spot` until the exploitability is at most `accuracy` percent of the pot, for
    `max_iterations`, or until `max_seconds` have passed (checked after each iteration, the tree's
    building included). Ctrl-C stops early and keeps the strategies so far (`Solution.interrupted`).

    A river where the player out of position holds aces or a bluff against kings, and may check or
    move all-in: it bets its aces and bluffs with a share of its sevens-deuce.

    >>> from holdem.solver.spot import Spot
    >>> from holdem.solver.tree import TreeConfig
    >>> spot = Spot.parse(board="AsKd7c2h9s", pot=100, stack=100, oop="AA,72", ip="KK")
    >>> solution = solve(spot, TreeConfig.uniform(bets="allin", raises=""), accuracy=0.5)
    >>> solution.exploitability < 0.5
    True
    >>> {action: round(share, 2) for action, share in solution.node("").frequencies().items()}
    {'x': 0.63, 'b100': 0.37}
    """
    if not 0 <= accuracy < float("inf"):
        raise SolverError(f"accuracy must be a percentage of the pot of at least 0, got {accuracy!r}")
    counts = {"max_iterations": max_iterations, "check_every": check_every}
    read_fields(counts, dict.fromkeys(counts, Field("count", None, 1)), SolverError)
    started = time.perf_counter()
    game = build_game(spot, config, max_memory=max_memory)
    measured: tuple[float, tuple[float, float]] | None = None
    checked = -1
    interrupted = False
    try:
        while game.iterations < max_iterations:
            game.iterate()
            out_of_time = max_seconds is not None and time.perf_counter() - started > max_seconds
            if game.iterations % check_every == 0 or game.iterations == max_iterations or out_of_time:
                exploitability, values, _ = game.exploitability()
                measured, checked = (exploitability, values), game.iterations
                if progress is not None:
                    progress(Progress(game.iterations, exploitability, time.perf_counter() - started))
                if exploitability <= accuracy or out_of_time:
                    break
    except KeyboardInterrupt:
        interrupted = True
    if checked != game.iterations:
        measured = None
    return Solution.of(game, config, time.perf_counter() - started, interrupted, measured)
