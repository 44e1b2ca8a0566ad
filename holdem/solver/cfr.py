"""Discounted CFR over a spot's tree, every hand and every deal of a node at once in NumPy arrays.

The arrays of an action node at a level are (actions, deals, hands): one regret and one strategy sum
per hand of the player to act, in every deal of the cards still to come. An iteration is two
passes, one a player (alternating updates): down the tree the other player's reach (their range
times their strategy, and zero where a dealt card blocks a hand), then the showdowns of every river
node at once (`holdem.solver.showdown`), then up the tree the counterfactual values, and at each of
the player's nodes the regrets. DCFR (Brown and Sandholm 2019) with alpha 1.5, beta 0, gamma 2:
positive regrets are kept at t^1.5 / (t^1.5 + 1), negative ones halved, and the average strategy
weights iteration t by t^2.

Values are in chips: a player's share of the final pot less what they put in after the spot
began, so the two players' values add up to the pot less the rake. `exploitability` measures the
average strategies by an exact best response for each player (the maximum at each of their nodes,
hand by hand and deal by deal): the mean of the two best responses' gains over the strategies'
values, in percent of the spot's pot (as TexasSolver reports it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from holdem.solver.deals import Deals
from holdem.solver.showdown import Folds, Showdowns
from holdem.solver.spot import Spot
from holdem.solver.tree import Kind, Node, Tree

__all__ = ["Game", "Values"]

F32 = npt.NDArray[np.float32]
Decide = Callable[[int, list[list[F32]]], list[F32]]
ALPHA, BETA, GAMMA = 1.5, 0.0, 2.0
"""DCFR's discounts: positive regrets by t^ALPHA / (t^ALPHA + 1), negative ones by t^BETA / (t^BETA + 1),
the average strategy's past by ((t - 1) / t)^GAMMA."""
_CHUNK_NUMBERS = 1 << 17  # stacked showdown weights a chunk (512 kB: the best of 2^13 to 2^19, turn spot)


@attrs.frozen
class Values:
    """One player's values at one node: under the average strategies (`ev`), and when that player
    best-responds to the other's average strategy (`best`); both (deals, hands), counterfactual
    (weighted by the other's reach, not divided by it)."""

    ev: F32
    best: F32


class Game:
    """The spot's tree as arrays: regrets and strategy sums per action node, and the passes."""

    def __init__(self, spot: Spot, tree: Tree, deals: Deals) -> None:
        self.spot, self.tree, self.deals = spot, tree, deals
        self.nodes = tree.nodes
        hands = (spot.ranges[0].cards, spot.ranges[1].cards)
        self.weights = tuple(np.asarray(r.weights, dtype=np.float32)[None, :] for r in spot.ranges)
        self.folds = (Folds.build(hands[0], hands[1]), Folds.build(hands[1], hands[0]))
        self.showdown_nodes = [i for i, n in enumerate(self.nodes) if n.kind == Kind.SHOWDOWN]
        self.fold_nodes = [
            [i for i, n in enumerate(self.nodes) if n.kind == Kind.FOLD and n.level == level]
            for level in range(deals.last + 1)
        ]
        self.fold_payoffs = tuple(
            [
                np.array([self._fold_payoff(p, self.nodes[i]) for i in nodes], dtype=np.float32)
                for nodes in self.fold_nodes
            ]
            for p in (0, 1)
        )
        last = deals.size(deals.last)
        stacked = max(1, len(self.showdown_nodes)) * max(len(h) for h in hands)
        self.chunk = max(1, min(last, _CHUNK_NUMBERS // stacked))
        self.showdowns = tuple(
            Showdowns.build(hands[t], hands[1 - t], deals.strengths[t], deals.strengths[1 - t], self.chunk)
            for t in (0, 1)
        )
        self.regrets: dict[int, F32] = {}
        self.strategies: dict[int, F32] = {}
        self.sums: dict[int, F32] = {}
        for i, node in enumerate(self.nodes):
            if node.kind == Kind.ACTION:
                shape = (len(node.children), deals.size(node.level), len(hands[node.player]))
                self.regrets[i] = np.zeros(shape, dtype=np.float32)
                self.sums[i] = np.zeros(shape, dtype=np.float32)
        self.iterations = 0

    # -- strategies -------------------------------------------------------------------------------

    def current(self, index: int) -> F32:
        """The strategy regret matching gives at an action node: (actions, deals, hands). Kept from
        the node's last regret update until its next (each is computed once an iteration)."""
        strategy = self.strategies.get(index)
        if strategy is None:
            strategy = self.strategies[index] = _normalised(np.maximum(self.regrets[index], 0))
        return strategy

    def average(self, index: int) -> F32:
        """The average strategy at an action node: (actions, deals, hands)."""
        return _normalised(self.sums[index])

    # -- training ---------------------------------------------------------------------------------

    def iterate(self) -> None:
        """One DCFR iteration: a pass for each player."""
        self.iterations += 1
        t = self.iterations
        pos = t**ALPHA / (t**ALPHA + 1)
        neg = t**BETA / (t**BETA + 1)
        decay = ((t - 1) / t) ** GAMMA
        for player in (0, 1):
            reach = self._reach(1 - player, self.current, decay)
            self._values(player, reach, self._update_regrets(pos, neg))

    def _update_regrets(self, pos: float, neg: float) -> Decide:
        def at(index: int, children: list[list[F32]]) -> list[F32]:
            # Whole-node operations, not one per action: a river iteration is mostly NumPy's
            # per-call cost (the stack and three passes against two calls an action).
            values = np.stack([child[0] for child in children])
            value = (self.current(index) * values).sum(axis=0)
            regrets = self.regrets[index]
            values -= value
            regrets += values
            regrets *= np.where(regrets > 0, np.float32(pos), np.float32(neg))
            del self.strategies[index]
            return [value]

        return at

    # -- the passes -------------------------------------------------------------------------------

    def _reach(
        self, player: int, strategy: Callable[[int], F32], decay: float | None = None
    ) -> list[F32 | None]:
        """`player`'s reach at every node, parents first; with `decay`, their strategy sums are
        updated on the way (multiplied by `decay`, then the reach-weighted strategy added)."""
        deals = self.deals
        reach: list[F32 | None] = [None] * len(self.nodes)
        reach[0] = self.weights[player]
        for i, node in enumerate(self.nodes):
            here = reach[i]
            assert here is not None
            if node.kind == Kind.ACTION:
                if node.player != player:
                    for child in node.children:
                        reach[child] = here
                    continue
                children = here * strategy(i)  # every child's reach in one product
                if decay is not None:
                    sums = self.sums[i]
                    sums *= np.float32(decay)
                    sums += children
                for a, child in enumerate(node.children):
                    reach[child] = children[a]
            elif node.kind == Kind.CHANCE:
                reach[node.children[0]] = deals.down(node.level, here, player)
        return reach

    def _values(
        self,
        player: int,
        reach: list[F32 | None],
        decide: Decide,
        channels: int = 1,
        keep: dict[int, F32] | None = None,
    ) -> list[F32]:
        """`player`'s counterfactual values from the leaves up, in `channels` parallel arrays that
        share the leaves (the average strategy's and the best response's), `decide` giving each of
        their action nodes' values from its children's; the root's values, each (1, hands)."""
        values: list[list[F32] | None] = [None] * len(self.nodes)
        for index, value in [*self._showdown_values(player, reach), *self._fold_values(player, reach)]:
            values[index] = [value] * channels
        for i in range(len(self.nodes) - 1, -1, -1):
            node = self.nodes[i]
            if node.kind == Kind.CHANCE:
                values[i] = [self._chance_value(player, node.level, v) for v in values[node.children[0]]]  # type: ignore[union-attr]
            elif node.kind == Kind.ACTION:
                children: list[list[F32]] = [values[c] for c in node.children]  # type: ignore[misc]
                if node.player == player:
                    values[i] = decide(i, children)
                else:
                    values[i] = [_total([child[k] for child in children]) for k in range(channels)]
            if keep is not None and i in keep:
                keep[i] = values[i][0]  # type: ignore[index]
            for c in node.children:
                values[c] = None
        root = values[0]
        assert root is not None
        return root

    def _chance_value(self, player: int, level: int, child: F32) -> F32:
        out: F32 = self.deals.up(level, child, player) / np.float32(self.deals.outs[level])
        return out

    def _fold_values(self, player: int, reach: Sequence[F32 | None]) -> list[tuple[int, F32]]:
        """The values of every fold node for `player`, a level's folds stacked into one product."""
        out: list[tuple[int, F32]] = []
        for level, nodes in enumerate(self.fold_nodes):
            if not nodes:
                continue
            stacked = np.stack([reach[i] for i in nodes])  # type: ignore[misc]
            folds, deals, hands = stacked.shape
            live = self.folds[player].live(stacked.reshape(folds * deals, hands))
            live = live.reshape(folds, deals, -1)
            live *= self.fold_payoffs[player][level][:, None, None]
            out.extend(zip(nodes, live, strict=True))
        return out

    def _fold_payoff(self, player: int, node: Node) -> float:
        pot = self.spot.pot + sum(node.put_in)
        if node.player == player:
            return -node.put_in[player]
        return pot - self.spot.rake_of(pot) - node.put_in[player]

    def _showdown_values(self, player: int, reach: Sequence[F32 | None]) -> list[tuple[int, F32]]:
        """The values of every showdown node for `player`, computed together chunk by chunk."""
        if not self.showdown_nodes:
            return []
        nodes = self.showdown_nodes
        pots = [self.spot.pot + sum(self.nodes[i].put_in) for i in nodes]
        won = np.array([p - self.spot.rake_of(p) for p in pots], dtype=np.float32)
        paid = np.array([self.nodes[i].put_in[player] for i in nodes], dtype=np.float32)
        last = self.deals.size(self.deals.last)
        hands = len(self.weights[player][0])
        out = np.empty((len(nodes), last, hands), dtype=np.float32)
        showdown = self.showdowns[player]
        stacked = np.empty((last, showdown.hands + 1, len(nodes)), dtype=np.float32)
        stacked[:, -1] = 0
        np.stack([reach[i] for i in nodes], axis=-1, out=stacked[:, :-1])  # type: ignore[misc]
        for start in range(0, last, self.chunk):
            stop = min(last, start + self.chunk)
            win, live = showdown.shares(start, stacked[start:stop])
            win *= won
            win -= live * paid
            out[:, start:stop] = np.moveaxis(win, -1, 0)
        return list(zip(nodes, out, strict=True))

    # -- measuring --------------------------------------------------------------------------------

    def evaluate(self, player: int) -> Values:
        """`player`'s values at the root under the average strategies, and as a best response."""
        reach = self._reach(1 - player, self.average)

        def both(index: int, children: list[list[F32]]) -> list[F32]:
            strategy = self.average(index)
            ev = _weighted(strategy, [child[0] for child in children])
            best = children[0][1].copy()
            for child in children[1:]:
                np.maximum(best, child[1], out=best)
            return [ev, best]

        ev, best = self._values(player, reach, both, channels=2)
        return Values(ev, best)

    def at_node(self, index: int) -> tuple[tuple[F32, F32], tuple[F32, F32]]:
        """Both players' reach and counterfactual values at node `index` under the average
        strategies, each (deals, hands)."""
        reach = (self._reach(0, self.average), self._reach(1, self.average))

        def average(i: int, children: list[list[F32]]) -> list[F32]:
            return [_weighted(self.average(i), [child[0] for child in children])]

        values = []
        for player in (0, 1):
            keep: dict[int, F32] = {index: np.zeros(0, dtype=np.float32)}
            self._values(player, reach[1 - player], average, keep=keep)
            values.append(keep[index])
        mine, theirs = reach[0][index], reach[1][index]
        assert mine is not None and theirs is not None
        return (mine, theirs), (values[0], values[1])

    def equity(self, player: int, level: int, reach: F32) -> F32:
        """Each of `player`'s hands' share of the pot at showdown against the other's `reach` at a
        node of `level` (deals, hands), every run-out dealt; NaN where the hand meets no live hand."""
        deals = self.deals
        grown = reach
        for lower in range(level, deals.last):
            grown = deals.down(lower, grown, 1 - player)
        won, live = [], []
        padded = np.zeros((len(grown), grown.shape[1] + 1, 1), dtype=np.float32)
        padded[:, :-1, 0] = grown
        for start in range(0, len(grown), self.chunk):
            win, alive = self.showdowns[player].shares(start, padded[start : start + self.chunk])
            won.append(win[..., 0])
            live.append(alive[..., 0])
        total_won, total_live = np.concatenate(won), np.concatenate(live)
        for lower in range(deals.last - 1, level - 1, -1):
            total_won = deals.up(lower, total_won, player)
            total_live = deals.up(lower, total_live, player)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: F32 = total_won / total_live
        return out

    def normaliser(self, player: int) -> float:
        """The weight of all pairs of hands that can be dealt together (the values' divisor)."""
        live = self.folds[player].live(self.weights[1 - player])
        return float((live * self.weights[player]).sum())

    def exploitability(self) -> tuple[float, tuple[float, float], tuple[float, float]]:
        """The mean best-response gain in percent of the pot, the two players' values under the
        average strategies, and their best-response values (chips)."""
        evs, bests = [], []
        for player in (0, 1):
            values = self.evaluate(player)
            weight = self.weights[player]
            z = self.normaliser(player)
            evs.append(float((values.ev * weight).sum()) / z)
            bests.append(float((values.best * weight).sum()) / z)
        gain = (bests[0] - evs[0] + bests[1] - evs[1]) / 2
        return 100 * gain / self.spot.pot, (evs[0], evs[1]), (bests[0], bests[1])


def _normalised(weights: F32) -> F32:
    total = weights.sum(axis=0)
    out = np.full_like(weights, 1 / len(weights))
    np.divide(weights, total, out=out, where=total > 0)
    return out


def _weighted(strategy: F32, children: list[F32]) -> F32:
    value: F32 = strategy[0] * children[0]
    for a in range(1, len(children)):
        value += strategy[a] * children[a]
    return value


def _total(children: list[F32]) -> F32:
    total = children[0].copy()
    for child in children[1:]:
        total += child
    return total
