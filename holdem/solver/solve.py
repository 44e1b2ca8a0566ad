"""Solve a spot: build the tree, check it fits, iterate to a target exploitability.

>>> from holdem.solver import Spot, TreeConfig, solve
>>> spot = Spot.parse(board="QsJh2h8d3c", pot=100, stack=100, oop="AA,QQ,JJ", ip="KK,AQs")
>>> solution = solve(spot, TreeConfig.uniform(bets="allin", raises=""), accuracy=0.1)
>>> solution.exploitability <= 0.1
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from holdem.errors import SolverError
from holdem.solver.cfr import Game
from holdem.solver.deals import deal
from holdem.solver.spot import Spot
from holdem.solver.tree import Kind, Tree, TreeConfig, build_tree

if TYPE_CHECKING:
    from holdem.solver.result import Solution

__all__ = ["Progress", "Report", "build_game", "estimate", "solve"]


@attrs.frozen
class Report:
    """A tree's size before solving: its nodes, the deals of its last street and the memory the
    regrets, strategy sums, showdown indices and one pass's arrays take (bytes)."""

    actions: int
    chances: int
    terminals: int
    deals: int
    memory: int

    def describe(self) -> str:
        """One line for a person."""
        return (
            f"tree: {self.actions:,} decisions, {self.chances:,} chance nodes, {self.terminals:,} ends; "
            f"{self.deals:,} run-outs; about {self.memory / 2**20:,.0f} MB"
        )


@attrs.frozen
class Progress:
    """What a solve reports as it goes: the iterations done, the exploitability now (% of the pot)
    and the seconds spent."""

    iterations: int
    exploitability: float
    seconds: float


def _deal_counts(board_size: int) -> list[int]:
    counts = [1]
    for level in range(5 - board_size):
        counts.append(counts[-1] * (52 - board_size - level))
    return counts


def estimate(spot: Spot, tree: Tree) -> Report:
    """How large the solve of `spot` over `tree` will be, without building its arrays."""
    counts = _deal_counts(len(spot.board))
    hands = (len(spot.ranges[0]), len(spot.ranges[1]))
    numbers = 0
    live = 0
    for node in tree.nodes:
        size = counts[node.level]
        if node.kind == Kind.ACTION:
            numbers += 2 * len(node.children) * size * hands[node.player]
        live += size * max(hands)
    last = counts[-1]
    indices = last * (3 * sum(hands) + 11 * sum(hands))
    memory = 4 * (numbers + 2 * live + indices) + 2 * 4 * last * max(hands) * 2
    return Report(
        actions=tree.count(Kind.ACTION),
        chances=tree.count(Kind.CHANCE),
        terminals=tree.count(Kind.FOLD) + tree.count(Kind.SHOWDOWN),
        deals=last,
        memory=memory,
    )


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - every POSIX system has both
        return 8 << 30


def build_game(spot: Spot, config: TreeConfig, *, max_memory: int | None = None) -> Game:
    """The arrays for solving `spot`, refused in one line when they would not fit in `max_memory`
    bytes (default: 80% of this machine's memory)."""
    tree = build_tree(board_size=len(spot.board), pot=spot.pot, stack=spot.stack, config=config)
    report = estimate(spot, tree)
    limit = int(0.8 * _physical_memory()) if max_memory is None else max_memory
    if report.memory > limit:
        raise SolverError(
            f"the tree needs about {report.memory / 2**30:.1f} GB, over the {limit / 2**30:.1f} GB allowed: "
            "use fewer bet or raise sizes, a lower raise cap, narrower ranges or a later street"
        )
    board = tuple(card.index for card in spot.board)
    return Game(spot, tree, deal(board, (spot.ranges[0].cards, spot.ranges[1].cards)))


def solve(
    spot: Spot,
    config: TreeConfig,
    *,
    accuracy: float = 0.5,
    max_iterations: int = 1000,
    check_every: int = 10,
    progress: Callable[[Progress], None] | None = None,
    max_memory: int | None = None,
) -> Solution:
    """Solve `spot` until the exploitability is at most `accuracy` percent of the pot, or for
    `max_iterations`. Ctrl-C stops early and keeps the strategies so far (`Solution.interrupted`)."""
    from holdem.solver.result import Solution

    if not 0 <= accuracy < float("inf"):
        raise SolverError(f"accuracy must be a percentage of the pot of at least 0, got {accuracy!r}")
    for name, value in (("max_iterations", max_iterations), ("check_every", check_every)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise SolverError(f"{name} must be a whole number of at least 1, got {value!r}")
    import time

    started = time.perf_counter()
    game = build_game(spot, config, max_memory=max_memory)
    exploitability, checked = float("inf"), -1
    interrupted = False
    try:
        while game.iterations < max_iterations:
            game.iterate()
            if game.iterations % check_every == 0 or game.iterations == max_iterations:
                exploitability, checked = game.exploitability()[0], game.iterations
                if progress is not None:
                    progress(Progress(game.iterations, exploitability, time.perf_counter() - started))
                if exploitability <= accuracy:
                    break
    except KeyboardInterrupt:
        interrupted = True
    if checked != game.iterations:
        exploitability = game.exploitability()[0]
    return Solution.of(game, config, exploitability, time.perf_counter() - started, interrupted)
