"""A spot's tree and arrays, with its size reported and checked before anything large is built."""

from __future__ import annotations

import os

import attrs

from holdem.errors import SolverError
from holdem.solver.cfr import Game
from holdem.solver.deals import deal
from holdem.solver.spot import Spot
from holdem.solver.tree import Kind, Tree, TreeConfig, build_tree

__all__ = ["Report", "build_game", "estimate"]


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
            f"at most {self.deals:,} run-outs; about {self.memory / 2**20:,.0f} MB"
        )


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


def build_game(
    spot: Spot, config: TreeConfig, *, max_memory: int | None = None, isomorphism: bool = True
) -> Game:
    """The arrays for solving `spot`, refused in one line when they would not fit in `max_memory`
    bytes (default: 80% of this machine's memory); with `isomorphism`, a card is not dealt where a
    card of a suit alike stands for it (`holdem.solver.deals`)."""
    tree = build_tree(board_size=len(spot.board), pot=spot.pot, stack=spot.stack, config=config)
    report = estimate(spot, tree)
    limit = int(0.8 * _physical_memory()) if max_memory is None else max_memory
    if report.memory > limit:
        raise SolverError(
            f"the tree needs about {report.memory / 2**30:.1f} GB, over the {limit / 2**30:.1f} GB allowed: "
            "use fewer bet or raise sizes, a lower raise cap, narrower ranges or a later street"
        )
    board = tuple(card.index for card in spot.board)
    ranges = spot.ranges
    weights = (ranges[0].weights, ranges[1].weights)
    return Game(spot, tree, deal(board, (ranges[0].cards, ranges[1].cards), weights, isomorphism=isomorphism))
