"""Push or fold at one table of a tournament's end, valued by ICM (`holdem.tournament.icm`).

Players are given in seat order from the small blind: small blind, big blind, then clockwise to the
button. Each posts the ante and the blinds; then, in the order they act before the flop, the first
player in moves all-in or folds, and once someone has, each later player calls or folds, knowing
who pushed and who called before them (several callers make side pots). A walk gives the big
blind the pot. A hand's result is each player's prize equity after it: ICM over the stacks left,
and for the players it busts the next places down, the larger starting stack first (rule 28).

The deals are a fixed sample of `deals` random deals (each player's class, card removal included).
A hand two players show down is valued by the exact chances of their classes (win, lose, tie:
`holdem.pushfold.equities`, the folded players' cards aside); three or more by each deal's own
board. The game over that sample is solved by discounted CFR (Brown and Sandholm's DCFR: positive
regrets discounted by t^1.5 / (t^1.5 + 1), negative ones halved, the average strategy weighted by
the square of the iteration), one player's pass at a time, each pass following a deal only down the
branches the strategies give a chance (`_Solver`). `exploitability` says, for each player, what a
best response to the others' strategies would gain, in shares of the prize pool, in the same
sample: the sampling itself is not in it, and a class at the margin of a range can move with the
seed.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np
import numpy.typing as npt

# Imported with this module, not on first use: a Ctrl-C that lands while NumPy's random module is
# first imported is lost inside its Cython initialisation (an ABC registration that clears errors),
# and a push/fold solve then ran on after Ctrl-C (seen under load; holdem.cli's grace ended it).
from numpy.random import default_rng

from holdem.cards.batch import strengths_of
from holdem.console.fields import Field, read_fields
from holdem.errors import InvalidConfigError
from holdem.pushfold.classes import NAMES, class_of_hands, hands
from holdem.pushfold.equities import wins
from holdem.pushfold.headsup import range_text
from holdem.tournament.icm import icm, icm_rows

__all__ = ["EndGame", "EndGameSolution", "solve_endgame"]

CHIPS = {name: Field("count", None, 0) for name in ("small_blind", "big_blind", "ante", "dead")}
"""An end-game's blinds, ante and dead money: whole chips, checked as every setting is."""

SOLVER = {"deals": Field("count", None, 1), "iterations": Field("count", None, 1)}
"""How much `solve_endgame` samples and iterates, checked as every setting is."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@attrs.frozen
class EndGame:
    """The table: stacks (chips, seat order from the small blind), blinds, ante and the prizes by place
    (none: each player's chips are what they are worth, as in a cash game). A hand already under way
    may add `dead` chips in the pot (antes already taken, a big-blind ante) and the stacks of players
    out of it (`others`), which count in ICM but do not act."""

    stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    prizes: tuple[float, ...]
    ante: int = 0
    dead: int = 0
    others: tuple[int, ...] = ()

    def __attrs_post_init__(self) -> None:
        n = len(self.stacks)
        if not 2 <= n <= 9:
            raise InvalidConfigError(f"an end-game has 2 to 9 players, got {n}")
        read_fields({name: getattr(self, name) for name in CHIPS}, CHIPS, InvalidConfigError)
        if self.big_blind <= 0 or self.small_blind > self.big_blind:
            blinds = f"{self.small_blind}/{self.big_blind}"
            raise InvalidConfigError(f"the blinds must be 0 < small <= big, got {blinds}")
        for i, stack in enumerate(self.stacks):
            if type(stack) is not int or stack <= self.ante + self.posts[i]:
                raise InvalidConfigError(
                    f"each stack must be a whole number of chips above its ante and blind; player {i + 1}"
                    f" has {stack!r}"
                )
        if any(type(stack) is not int or stack <= 0 for stack in self.others):
            raise InvalidConfigError(f"the stacks out of the hand must be positive, got {self.others!r}")
        if self.prizes:
            icm([1] * (n + len(self.others)), self.prizes)  # the prizes are checked as ICM checks them

    @property
    def posts(self) -> tuple[int, ...]:
        """The blind each player posts (the ante aside)."""
        return (self.small_blind, self.big_blind, *[0] * (len(self.stacks) - 2))

    @property
    def order(self) -> tuple[int, ...]:
        """The players in the order they act before the flop."""
        n = len(self.stacks)
        return (*range(2, n), 0, 1)


@attrs.frozen(eq=False)
class EndGameSolution:
    """The strategies (for each decision, each class's probability of pushing or calling), each
    player's equity in shares of the prize pool, and what a best response would gain for each."""

    game: EndGame
    strategies: dict[tuple[int, ...], Floats]
    equities: tuple[float, ...]
    exploitability: tuple[float, ...]
    iterations: int
    deals: int
    gaps: dict[tuple[int, ...], tuple[Floats, Floats]] = attrs.field(factory=dict)
    """For each decision, each class's expected gain of pushing (or calling) over folding, in shares
    of the prize pool, when the decision is reached with that class (NaN where the sample never
    reaches it), and the standard error of that mean over the sampled deals."""

    def clear(self, key: tuple[int, ...]) -> npt.NDArray[np.bool_]:
        """The classes whose choice at decision `key` is clear: the gain's distance from zero is
        at least `CLEAR` standard errors and at least `NEAR` of the pool (the rest are near
        indifference, and can change with the sample's seed)."""
        gap, error = self.gaps[key]
        return np.nan_to_num(np.abs(gap)) >= np.maximum(NEAR, CLEAR * np.nan_to_num(error))

    def near(self, key: tuple[int, ...]) -> list[str]:
        """The classes near indifference at decision `key` (see `clear`), by name."""
        return [NAMES[k] for k in np.flatnonzero(~self.clear(key))]

    def push_range(self, player: int) -> str:
        """`player`'s range for moving all-in first in (`holdem.cards.ranges` notation)."""
        return range_text(self.strategies[(player,)])

    def call_range(self, player: int, pusher: int, callers: Sequence[int] = ()) -> str:
        """`player`'s range for calling `pusher`'s all-in after `callers` called."""
        return range_text(self.strategies[(player, pusher, *callers)])


@attrs.frozen
class _Node:
    """A decision: `player`, its key (``(player,)`` first in; ``(player, pusher, *callers)`` facing a
    push), and what follows pushing or calling (`yes`) and folding (`no`): a node or a terminal."""

    player: int
    key: tuple[int, ...]
    yes: _Node | int
    no: _Node | int
    index: int
    """The node's row in the solver's tables (numbered as the tree is built)."""


def _tree(game: EndGame) -> tuple[_Node, list[tuple[int, tuple[int, ...]]]]:
    """The game tree, and its terminals: (pusher, callers), the pusher -1 for a walk."""
    order, terminals = game.order, list[tuple[int, tuple[int, ...]]]()
    made = itertools.count()

    def terminal(pusher: int, callers: tuple[int, ...]) -> int:
        terminals.append((pusher, callers))
        return len(terminals) - 1

    def facing(pusher: int, after: int, callers: tuple[int, ...]) -> _Node | int:
        if after == len(order):
            return terminal(pusher, callers)
        q = order[after]
        yes = facing(pusher, after + 1, (*callers, q))
        no = facing(pusher, after + 1, callers)
        return _Node(q, (q, pusher, *callers), yes, no, next(made))

    def first_in(at: int) -> _Node | int:
        if at == len(order) - 1:
            return terminal(-1, ())
        q = order[at]
        yes = facing(q, at + 1, ())
        return _Node(q, (q,), yes, first_in(at + 1), next(made))

    root = first_in(0)
    assert isinstance(root, _Node)
    return root, terminals


def _final_stacks(game: EndGame, pusher: int, callers: tuple[int, ...], strength: Ints) -> Ints:
    """``(deals, players)`` stacks after the hand ends at this terminal, for each deal's strengths."""
    n, stacks = len(game.stacks), np.array(game.stacks, dtype=np.int64)
    paid = np.array([min(game.ante + post, s) for post, s in zip(game.posts, game.stacks, strict=True)])
    if pusher < 0:  # a walk: the big blind takes everything in the middle
        final = np.broadcast_to(stacks - paid, (len(strength), n)).copy()
        final[:, 1] += paid.sum() + game.dead
        return final
    live = [pusher, *callers]
    level = game.stacks[pusher]
    put = paid.copy()
    for p in live:
        put[p] = min(game.stacks[p], level)
    top = max(put[p] for p in live)
    back = np.maximum(put - top, 0)  # chips beyond what any live player matched go back
    put -= back
    final = np.broadcast_to(stacks - put, (len(strength), n)).copy()
    below, dead = 0, game.dead  # dead money goes to the main pot
    for cap in sorted({int(put[p]) for p in live}):
        amount = int(np.minimum(put, cap).sum() - np.minimum(put, below).sum()) + dead
        dead = 0
        eligible = [p for p in live if put[p] >= cap]
        best = strength[:, eligible].max(axis=1)
        winners = strength[:, eligible] == best[:, None]
        count = winners.sum(axis=1)
        share, odd = amount // count, amount % count
        for k, p in enumerate(eligible):
            final[:, p] += np.where(winners[:, k], share, 0)
            first = winners[:, :k].sum(axis=1) == 0
            final[:, p] += np.where(winners[:, k] & first, odd, 0)  # the odd chips to the first winner
        below = cap
    return final


def _payoffs(game: EndGame, final: Ints) -> Floats:
    """Each player's prize equity (share of the pool) after the hand, each row of final stacks
    (without prizes: each player's share of the chips). The players with chips by ICM; those the
    hand busts take the next places down, the larger starting stack first, equal ones sharing
    their places' prizes (rule 28)."""
    if not game.prizes:
        return final / float(sum(game.stacks) + sum(game.others) + game.dead)
    rows, index = np.unique(final, axis=0, return_inverse=True)
    return _prize_shares(game, rows)[index.reshape(-1)]


def _prize_shares(game: EndGame, rows: Ints) -> Floats:
    """`_payoffs` of rows of final stacks with prizes, row by row (no two rows alike, or nearly)."""
    n, others = len(game.stacks), len(game.others)
    extra = np.broadcast_to(np.array(game.others, dtype=np.int64), (len(rows), others))
    values = icm_rows(np.concatenate([rows, extra], axis=1), game.prizes)[:, :n]
    prizes = np.array([*game.prizes, *[0.0] * (n + others)])
    paid = np.concatenate([[0.0], np.cumsum(prizes)])  # paid[k]: places 1..k together
    start = np.array(game.stacks)
    busted = rows == 0
    survivors = (~busted).sum(axis=1, keepdims=True) + others
    larger = start[None, :] > start[:, None]  # [p, q]: q started with more than p
    same = start[None, :] == start[:, None]
    place = survivors + busted.astype(np.int64) @ larger.T.astype(np.int64)  # places before p's group
    tied = busted.astype(np.int64) @ same.T.astype(np.int64)  # p's group, p among them
    share = (paid[place + np.maximum(tied, 1)] - paid[place]) / np.maximum(tied, 1)
    result: Floats = np.where(busted, share, values) / float(sum(game.prizes))
    return result


def _distinct(values: Ints, bound: int) -> tuple[Ints, Ints]:
    """The distinct `values` (each from 0 to `bound` - 1), and each value's place among them:
    `np.unique`'s answer, by a table instead of a sort where the table is not much longer than the
    values (a table of 7**7 entries for 3,000 deals took longer than sorting them)."""
    if bound > max(1 << 16, 8 * len(values)):
        codes, index = np.unique(values, return_inverse=True)
        return codes, index.reshape(-1)
    seen = np.zeros(bound, dtype=bool)
    seen[values] = True
    codes = np.flatnonzero(seen)
    place = np.cumsum(seen) - 1
    return codes, place[values]


def _unique_rows(rows: Ints) -> tuple[Ints, Ints]:
    """The distinct rows, and for each row its place among them (`np.unique` by rows, sorting each
    row as one string of bytes: several times faster)."""
    rows = np.ascontiguousarray(rows)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], index.reshape(-1)


def _deals(players: int, count: int, seed: int) -> tuple[Ints, Ints]:
    """`count` random deals: each player's hand class and hand strength with the board."""
    rng = default_rng(seed)
    cards = rng.random((count, 52)).argsort(axis=1)[:, : 2 * players + 5].astype(np.int64)
    holes = cards[:, : 2 * players].reshape(count, players, 2)
    board = cards[:, 2 * players :]
    seven = np.concatenate([holes, np.broadcast_to(board[:, None, :], (count, players, 5))], axis=2)
    strength = strengths_of(seven.reshape(-1, 7)).reshape(count, players).astype(np.int64)
    lookup = np.zeros((52, 52), dtype=np.int64)
    table = hands()
    lookup[table[:, 0], table[:, 1]] = class_of_hands()
    lookup[table[:, 1], table[:, 0]] = class_of_hands()
    return lookup[holes[:, :, 0], holes[:, :, 1]], strength


def _nodes(node: _Node | int) -> Iterator[_Node]:
    if isinstance(node, _Node):
        yield node
        yield from _nodes(node.yes)
        yield from _nodes(node.no)


@attrs.frozen(eq=False)
class _Outcomes:
    """A terminal's payoffs: each deal's outcome (`index`; None where there is one outcome) and each
    player's prize equity in each outcome (`table`: a row per player)."""

    table: Floats
    index: Ints | None

    def column(self, player: int, live: Ints | None, deals: int) -> Floats:
        """`player`'s payoff in each of the `live` deals (None: all `deals`)."""
        row = self.table[player]
        if self.index is None:
            return np.full(deals if live is None else len(live), row[0])
        result: Floats = row.take(_pick(self.index, live))
        return result


_UPDATE, _VALUE, _RESPOND = range(3)
"""What a pass does at its player's decisions: the regret update (current strategies), the value
of the average strategies, or a best response to them."""


class _Solver:
    """Discounted CFR over the sampled game, one player's pass at a time (alternating updates).

    Each player acts at most once in a hand, so a player's chance of reaching a decision is 1 and
    the others' chance is the product of the probabilities along the path. A pass for player `i`
    carries that product down to `i`'s decisions and only the deals where it is not zero; below them
    it works out `i`'s payoff, again only over the deals each branch can reach. A deal whose branch
    has probability zero adds nothing, so leaving it out changes no sum: most deals leave the tree
    at its first pushes and calls, and a nine-player game costs little more than a four-player one.
    """

    def __init__(self, game: EndGame, deals: int, seed: int) -> None:
        self.game, self.deals = game, deals
        self.root, terminals = _tree(game)
        classes, strength = _deals(len(game.stacks), deals, seed)
        self.classes = [np.ascontiguousarray(classes[:, q]) for q in range(len(game.stacks))]
        self.counts = [np.bincount(c, minlength=169).astype(np.float64) for c in self.classes]
        self._pairs: dict[tuple[int, int], Ints] = {}
        self._beats: dict[tuple[int, int], npt.NDArray[np.int8]] = {}
        self.outcomes = self._outcomes(terminals, strength)
        self.nodes = sorted(_nodes(self.root), key=lambda node: node.index)
        self.mine = [
            np.array([v.index for v in self.nodes if v.player == q]) for q in range(len(game.stacks))
        ]
        self.regret = np.zeros((len(self.nodes), 169, 2))
        self.total = np.zeros((len(self.nodes), 169))
        self.weight = np.zeros((len(self.nodes), 169))
        self.iteration = 0
        self.gaps: dict[tuple[int, ...], tuple[Floats, Floats]] = {}
        self._play(self.current())

    def _outcomes(self, terminals: list[tuple[int, tuple[int, ...]]], strength: Ints) -> list[_Outcomes]:
        """Each terminal's payoffs, every terminal's finishing stacks valued in one call of ICM."""
        shown = [self._shown(pusher, callers, strength) for pusher, callers in terminals]
        rows, same = _unique_rows(np.concatenate([final for final, _ in shown]))
        values = (_prize_shares(self.game, rows) if self.game.prizes else _payoffs(self.game, rows))[same]
        outcomes, at = [], 0
        for (final, index), (pusher, callers) in zip(shown, terminals, strict=True):
            table, at = values[at : at + len(final)], at + len(final)
            if pusher >= 0 and len(callers) == 1:
                table, index = self._heads_up(pusher, callers[0], table)
            outcomes.append(_Outcomes(np.ascontiguousarray(table.T), index))
        return outcomes

    def _shown(self, pusher: int, callers: tuple[int, ...], strength: Ints) -> tuple[Ints, Ints | None]:
        """A terminal's finishing stacks, and which of them each deal ends with (None: one for
        all). Without a showdown, one; for two players, three (win, loss, tie: see `_heads_up`);
        for three or more, each deal's own board, by the order of the players' hands (who beats
        whom decides every pot), one row for each order that the deals show."""
        game = self.game
        if pusher < 0 or not callers:
            return _final_stacks(game, pusher, callers, strength[:1]), None
        if len(callers) == 1:
            q = callers[0]
            outcomes = np.zeros((3, len(game.stacks)), dtype=np.int64)
            outcomes[0, pusher], outcomes[1, q], outcomes[2, [pusher, q]] = 1, 1, 1
            return _final_stacks(game, pusher, callers, outcomes), None
        live = [pusher, *callers]
        k = len(live)
        code = np.zeros(len(strength), dtype=np.int64)
        for j, a in enumerate(live):  # a's place: how many of the others hold a better hand
            stronger = sum(self._beat(b, a, strength) for b in live if b != a)
            code += np.asarray(stronger, dtype=np.int64) * k**j
        codes, index = _distinct(code, k**k)
        hands = np.zeros((len(codes), len(game.stacks)), dtype=np.int64)
        for j, a in enumerate(live):
            hands[:, a] = k - codes // k**j % k  # a hand as strong as its place
        final, same = _unique_rows(_final_stacks(game, pusher, callers, hands))  # orders ending alike
        return final, same[index.reshape(-1)]

    def _beat(self, a: int, b: int, strength: Ints) -> npt.NDArray[np.int8]:
        """Whether player `a` holds a better hand than `b`, deal by deal (kept for other terminals)."""
        if (a, b) not in self._beats:
            self._beats[a, b] = (strength[:, a] > strength[:, b]).astype(np.int8)
        return self._beats[a, b]

    def _heads_up(self, p: int, q: int, values: Floats) -> tuple[Floats, Ints]:
        """A showdown of `p` and `q` whose payoffs are `values` (p wins, q wins, a tie): the payoffs
        for each pair of classes by their exact chances (`holdem.pushfold.equities`: the other
        players' cards aside), and each deal's pair."""
        won, lost, split = values
        table = np.nan_to_num(wins())
        win, lose = table.reshape(-1), table.T.reshape(-1)  # by p's class times 169 plus q's
        tie = np.clip(1 - win - lose, 0, 1)
        mixed: Floats = win[:, None] * won + lose[:, None] * lost + tie[:, None] * split
        if (p, q) not in self._pairs:
            self._pairs[p, q] = self.classes[p] * 169 + self.classes[q]
        return mixed, self._pairs[p, q]

    def current(self, rows: Ints | slice = slice(None)) -> Floats:
        """The current strategy of these decisions (rows by node; all by default), from their
        regrets (regret matching)."""
        positive = np.maximum(self.regret[rows], 0)
        total = positive.sum(axis=2)
        played: Floats = np.where(total > 0, positive[:, :, 0] / np.where(total > 0, total, 1), 0.5)
        return played

    def average(self) -> Floats:
        """Each decision's average strategy (rows by node)."""
        weight = self.weight
        return np.where(weight > 0, self.total / np.where(weight > 0, weight, 1), self.current())

    def _play(self, strategies: Floats, rows: Ints | None = None) -> None:
        """Set the strategies a pass plays (of these rows only, if given), with which branches each
        node's classes take at all."""
        if rows is None:
            self.played, self.taken = strategies, [(False, False, False, False)] * len(strategies)
            rows = np.arange(len(strategies))
        else:
            self.played[rows] = strategies
        pushed, folded = strategies > 0, strategies < 1
        flags = np.stack([pushed.all(axis=1), pushed.any(axis=1), folded.all(axis=1), folded.any(axis=1)])
        for row, (every_yes, some_yes, every_no, some_no) in zip(
            rows.tolist(), flags.T.tolist(), strict=True
        ):
            self.taken[row] = (every_yes, some_yes, every_no, some_no)

    def iterate(self) -> None:
        """One iteration: each player's pass in turn, the later ones against the earlier ones'
        updated strategies. Regrets are discounted and the average strategy weighted by the
        square of the iteration (discounted CFR, alpha 1.5, beta 0, gamma 2)."""
        self.iteration += 1
        t = self.iteration**1.5
        self._play(self.current())
        for i, mine in enumerate(self.mine):
            regret = self.regret[mine]
            self.regret[mine] = regret * np.where(regret > 0, t / (t + 1), 0.5)  # old regrets count less
            if i:
                self._play(self.current(self.mine[i - 1]), self.mine[i - 1])  # updated by the last pass
            weight = self.iteration**2 * self.counts[i]  # the player's own chance of a decision is 1
            self.total[mine] += self.played[mine] * weight
            self.weight[mine] += weight
            self._above(self.root, None, None, i, _UPDATE)

    def value(self, player: int, mode: int) -> float:
        """`player`'s mean payoff when all play their average strategies (`_VALUE`) or when `player`
        answers them best (`_RESPOND`)."""
        self._play(self.average())
        return self._above(self.root, None, None, player, mode) / self.deals

    def _above(self, node: _Node | int, live: Ints | None, reach: Floats | None, i: int, mode: int) -> float:
        """The pass above player `i`'s decisions: the others' chance of each `live` deal (None: all
        of them, each with chance 1) carried down. Returns the sum over the deals of that chance
        times `i`'s payoff (nothing when updating)."""
        if not isinstance(node, _Node):  # a walk to the big blind, who never decides
            return 0.0 if mode == _UPDATE else _dot(reach, self.outcomes[node].column(i, live, self.deals))
        if node.player == i:
            return self._decide(node, live, reach, i, mode)
        total = 0.0
        for child, chance, kept in self._branches(node, live, mode):
            if kept is None:
                total += self._above(child, live, chance if reach is None else reach * chance, i, mode)
            elif len(kept):
                chance = chance.take(kept) if reach is None else reach.take(kept) * chance.take(kept)
                total += self._above(child, _within(live, kept), chance, i, mode)
        return total

    def _branches(
        self, node: _Node, live: Ints | None, mode: int
    ) -> list[tuple[_Node | int, Floats, Ints | None]]:
        """Pushing (or calling) and folding at `node`: each branch, its chance in each `live` deal,
        and which of them it can reach (None: all; judged class by class first, so that a branch
        every class takes or none takes costs no search)."""
        p = self.played[node.index].take(_pick(self.classes[node.player], live))
        every_yes, some_yes, every_no, some_no = self.taken[node.index]
        branches: list[tuple[_Node | int, Floats, Ints | None]] = []
        if some_yes:
            branches.append((node.yes, p, None if every_yes else (p > 0).nonzero()[0]))
        if some_no:
            fold = 1 - p
            branches.append((node.no, fold, None if every_no else (fold > 0).nonzero()[0]))
        return branches

    def _decide(self, node: _Node, live: Ints | None, reach: Floats | None, i: int, mode: int) -> float:
        """Player `i`'s decision: the regret update, or the value of the average or best answer."""
        yes, no = self._below(node.yes, live, i, mode), self._below(node.no, live, i, mode)
        better = yes - no if reach is None else reach * (yes - no)
        gain = np.bincount(_pick(self.classes[i], live), better, 169)  # pushing over folding, by class
        if mode == _UPDATE:
            played, regret = self.played[node.index], self.regret[node.index]
            regret[:, 0] += (1 - played) * gain
            regret[:, 1] -= played * gain
            return 0.0
        if mode == _VALUE:
            self._note_gap(node, live, reach, yes - no)
        answer = self.played[node.index] if mode == _VALUE else (gain > 0).astype(np.float64)
        return _dot(reach, no) + float(answer @ gain)

    def _note_gap(self, node: _Node, live: Ints | None, reach: Floats | None, gain: Floats) -> None:
        """Each class's mean gain of pushing over folding at `node`, weighted by the chance the
        others leave it to this decision, and its standard error (`EndGameSolution.gaps`)."""
        classes = _pick(self.classes[node.player], live)
        weight = np.ones(len(gain)) if reach is None else reach
        mass = np.bincount(classes, weight, 169)
        squares = np.bincount(classes, weight * weight, 169)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(classes, weight * gain, 169) / mass
            spread = np.bincount(classes, weight * gain * gain, 169) / mass - mean * mean
            # the weighted mean's variance: the spread over the effective number of deals
            error = np.sqrt(np.maximum(spread, 0) * squares) / mass
        self.gaps[node.key] = (mean, error)

    def _below(self, node: _Node | int, live: Ints | None, i: int, mode: int) -> Floats:
        """Player `i`'s payoff in each `live` deal below their decision, the others playing on."""
        if not isinstance(node, _Node):
            return self.outcomes[node].column(i, live, self.deals)
        branches = self._branches(node, live, mode)
        if len(branches) == 2 and branches[0][2] is None and branches[1][2] is None:
            (yes, p, _), (no, _, _) = branches
            below = self._below(no, live, i, mode)
            result: Floats = below + p * (self._below(yes, live, i, mode) - below)
            return result
        result = np.zeros(self.deals if live is None else len(live))
        for child, chance, kept in branches:
            if kept is None:
                result += chance * self._below(child, live, i, mode)
            elif len(kept):
                result[kept] += chance.take(kept) * self._below(child, _within(live, kept), i, mode)
        return result


def _pick(values: Ints, live: Ints | None) -> Ints:
    """The `live` deals' values (None: every deal's)."""
    return values if live is None else values.take(live)


def _within(live: Ints | None, kept: Ints) -> Ints:
    """The deals at positions `kept` of `live` (None: of every deal)."""
    return kept if live is None else live.take(kept)


def _dot(reach: Floats | None, values: Floats) -> float:
    """The sum of `values` weighted by `reach` (None: each weighted 1)."""
    return float(values.sum() if reach is None else reach @ values)


DEALS = 400_000
"""The deals an end-game is solved over by default. Every class clear of indifference
(`EndGameSolution.clear`) plays alike from seed to seed at 100,000 deals as at 400,000 (measured on
the README's four-player end-game over ten seeds), but a class's gain has a standard error of
0.2-0.5% of the pool at 100,000, so 39% of a chart's classes are marked near indifference; at
400,000, 22%, for 7 s instead of 2."""


def solve_endgame(
    game: EndGame, *, deals: int = DEALS, iterations: int = 400, seed: int = 0, tolerance: float = 4e-6,
    progress: Callable[[int, int], None] | None = None,
) -> EndGameSolution:  # fmt: skip
    """The push/fold equilibrium of `game` over `deals` sampled deals, by discounted CFR: at most
    `iterations`, stopping once no player's best response gains more than `tolerance` of the prize
    pool, checked every `CHECK` iterations (the default stops a four-player end-game near 3e-6 after
    80). `progress(done, iterations)` hears of the start and of each iteration, and of the end."""
    read_fields({"deals": deals, "iterations": iterations}, SOLVER, InvalidConfigError)
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) or not tolerance >= 0:
        raise InvalidConfigError(f"tolerance must be a number of at least 0, got {tolerance!r}")
    if progress is not None:
        progress(0, iterations)
    solver = _Solver(game, deals, seed)
    players = range(len(game.stacks))
    while solver.iteration < iterations:
        for _ in range(min(CHECK, iterations - solver.iteration)):
            solver.iterate()
            if progress is not None:
                progress(solver.iteration, iterations)
        values = [solver.value(player, _VALUE) for player in players]
        gains = tuple(solver.value(player, _RESPOND) - values[player] for player in players)
        if max(gains) <= tolerance:
            break
    if progress is not None:
        progress(iterations, iterations)  # stopped early: the bar ends
    average = solver.average()
    strategies = {node.key: average[node.index] for node in solver.nodes}
    return EndGameSolution(game, strategies, tuple(values), gains, solver.iteration, deals, solver.gaps)


NEAR, CLEAR = 0.002, 5.0
"""A class's choice is near indifference when pushing (or calling) gains or loses less than `NEAR`
of the prize pool over folding, or less than `CLEAR` standard errors of that gain's estimate from
the sampled deals (`EndGameSolution.clear`). Five, not two or three: the error counts the sample
given the others' strategies, not the others' strategies moving with the sample (measured on the
README's four-player end-game over ten seeds: at four standard errors one clear class changed)."""

CHECK = 20
"""Iterations between two measures of the exploitability (one costs about two iterations)."""


def describe(solution: EndGameSolution) -> list[str]:
    """Readable lines in 80 columns: each position's pushing chart and the charts of the calls of a
    single push, with the classes near indifference marked and their gains listed, what a best
    response would gain against each player, and how many deals it rests on."""
    from holdem.pushfold.chart import hand_share

    game, strategies = solution.game, solution.strategies
    names = _positions(len(game.stacks))
    lines = []
    for q in game.order[:-1]:
        share = hand_share(strategies[(q,)])
        lines += [
            "",
            f"{names[q]} ({game.stacks[q]:,} chips) pushes {share:.1%} of hands",
            *_chart(solution, (q,)),
        ]
    for q in game.order[1:]:
        for p in game.order[: game.order.index(q)]:
            share = hand_share(strategies[(q, p)])
            lines += [
                "",
                f"{names[q]} calls {names[p]}'s push with {share:.1%} of hands",
                *_chart(solution, (q, p)),
            ]
    gains = ", ".join(f"{names[p]} {gain:.4%}" for p, gain in enumerate(solution.exploitability))
    lines += ["", *textwrap.wrap("a best response gains at most (of the prize pool): " + gains, width=78)]
    done = f"{solution.iterations:,} iterations of discounted CFR"
    lines.append(f"over {solution.deals:,} sampled deals and {done}")
    lines += textwrap.wrap(
        f"~: near indifference (a gain under {NEAR:.1%} of the pool or under {CLEAR:g} standard errors"
        " of the sample): such a class may play otherwise with another --seed; the others do not"
        + (" (few deals: more --deals settle more classes)" if solution.deals < DEALS else ""),
        width=78,
    )
    return lines[1:]


def _chart(solution: EndGameSolution, key: tuple[int, ...]) -> list[str]:
    from holdem.pushfold.chart import chart_lines

    weights = solution.strategies[key]
    if key not in solution.gaps:
        return chart_lines(weights)
    return chart_lines(weights, solution.gaps[key][0], ~solution.clear(key))


def _positions(n: int) -> list[str]:
    """Position names in seat order from the small blind."""
    early = [f"UTG+{k}" if k else "UTG" for k in range(max(n - 4, 0))]
    late = ["CO", "BTN"][max(0, 4 - n) :]
    return ["SB", "BB", *early, *late][:n]
