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
board. The game over that sample is solved by CFR+: regrets floored at zero, the average strategy
weighted by iteration. `exploitability` says, for each player, what a best response to the others'
strategies would gain, in shares of the prize pool, in the same sample: the sampling itself is not
in it, and a class at the margin of a range can move with the seed.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from holdem.cards.batch import strengths_of
from holdem.console.fields import Field, read_fields
from holdem.errors import InvalidConfigError
from holdem.pushfold.classes import class_of_hands, hands
from holdem.pushfold.equities import wins
from holdem.pushfold.headsup import range_text
from holdem.tournament.icm import icm

__all__ = ["EndGame", "EndGameSolution", "solve_endgame"]

CHIPS = {name: Field("count", None, 0) for name in ("small_blind", "big_blind", "ante", "dead")}
"""An end-game's blinds, ante and dead money: whole chips, checked as every setting is."""

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


def _tree(game: EndGame) -> tuple[_Node, list[tuple[int, tuple[int, ...]]]]:
    """The game tree, and its terminals: (pusher, callers), the pusher -1 for a walk."""
    order, terminals = game.order, list[tuple[int, tuple[int, ...]]]()

    def terminal(pusher: int, callers: tuple[int, ...]) -> int:
        terminals.append((pusher, callers))
        return len(terminals) - 1

    def facing(pusher: int, after: int, callers: tuple[int, ...]) -> _Node | int:
        if after == len(order):
            return terminal(pusher, callers)
        q = order[after]
        yes = facing(pusher, after + 1, (*callers, q))
        no = facing(pusher, after + 1, callers)
        return _Node(q, (q, pusher, *callers), yes, no)

    def first_in(at: int) -> _Node | int:
        if at == len(order) - 1:
            return terminal(-1, ())
        q = order[at]
        return _Node(q, (q,), facing(q, at + 1, ()), first_in(at + 1))

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
    (without prizes: each player's share of the chips)."""
    if not game.prizes:
        return final / float(sum(game.stacks) + sum(game.others) + game.dead)
    pool = float(sum(game.prizes))
    rows, index = np.unique(final, axis=0, return_inverse=True)
    start = game.stacks
    values = np.zeros((len(rows), len(start)))
    prizes = list(game.prizes) + [0.0] * (len(start) + len(game.others))
    for r, row in enumerate(rows.tolist()):
        equities = icm([*row, *game.others], game.prizes).equities
        survivors = sum(1 for s in row if s > 0) + len(game.others)
        busted = sorted((p for p in range(len(row)) if row[p] == 0), key=lambda p: -start[p])
        place = survivors
        for _, group in itertools.groupby(busted, key=lambda p: start[p]):
            members = list(group)
            share = sum(prizes[place : place + len(members)]) / len(members)  # tied: places shared
            for p in members:
                values[r, p] = share
            place += len(members)
        for p in range(len(row)):
            if row[p] > 0:
                values[r, p] = equities[p]
    return values[index.reshape(-1)] / pool


def _deals(players: int, count: int, seed: int) -> tuple[Ints, Ints]:
    """`count` random deals: each player's hand class and hand strength with the board."""
    rng = np.random.default_rng(seed)
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


class _Solver:
    """CFR+ over the sampled game: regrets and average strategies for each decision and class."""

    def __init__(self, game: EndGame, deals: int, seed: int) -> None:
        self.game = game
        self.root, terminals = _tree(game)
        self.classes, strength = _deals(len(game.stacks), deals, seed)
        # Each terminal's values player by player, a row of deals each (a player's row read whole).
        self.values = [np.ascontiguousarray(self._values(p, c, strength).T) for p, c in terminals]
        keys = [node.key for node in _nodes(self.root)]
        self.regret = {key: np.zeros((169, 2)) for key in keys}
        self.total = {key: np.zeros(169) for key in keys}
        self.weight = {key: np.zeros(169) for key in keys}
        self.iteration = 0

    def _values(self, pusher: int, callers: tuple[int, ...], strength: Ints) -> Floats:
        """Each deal's payoffs at a terminal: fixed without a showdown; for two players, the
        three outcomes weighted by the exact chances of their classes (`holdem.pushfold.equities`:
        the other players' cards aside); for three or more, each deal's own board."""
        game, n = self.game, len(self.game.stacks)
        if pusher < 0 or not callers:
            fixed = _payoffs(game, _final_stacks(game, pusher, callers, strength[:1]))[0]
            return np.broadcast_to(fixed, (len(strength), n))
        if len(callers) > 1:
            return _payoffs(game, _final_stacks(game, pusher, callers, strength))
        q = callers[0]
        outcomes = np.zeros((3, n), dtype=np.int64)
        outcomes[0, pusher], outcomes[1, q], outcomes[2, [pusher, q]] = 1, 1, 1  # p wins, q wins, a tie
        won, lost, split = _payoffs(game, _final_stacks(game, pusher, callers, outcomes))
        table = np.nan_to_num(wins())
        win = table[self.classes[:, pusher], self.classes[:, q]]
        lose = table[self.classes[:, q], self.classes[:, pusher]]
        tie = np.clip(1 - win - lose, 0, 1)
        result: Floats = win[:, None] * won + lose[:, None] * lost + tie[:, None] * split
        return result

    def current(self, key: tuple[int, ...]) -> Floats:
        positive = np.maximum(self.regret[key], 0)
        total = positive.sum(axis=1)
        return np.where(total > 0, positive[:, 0] / np.where(total > 0, total, 1), 0.5)

    def average(self, key: tuple[int, ...]) -> Floats:
        weight = self.weight[key]
        return np.where(weight > 0, self.total[key] / np.where(weight > 0, weight, 1), self.current(key))

    def iterate(self) -> None:
        self.iteration += 1
        m, n = self.classes.shape
        self._walk(self.root, tuple(np.ones(m) for _ in range(n)))

    def _walk(self, node: _Node | int, reach: tuple[Floats, ...]) -> Floats:
        """One CFR+ pass below `node`; `reach` holds each player's chance of reaching it, deal by deal,
        as a column each: a decision replaces its player's column and shares the others (a copy of
        the whole matrix at every node cost half the solve; the arithmetic is the same)."""
        if not isinstance(node, _Node):
            return self.values[node]
        q, cls = node.player, self.classes[:, node.player]
        p = self.current(node.key)[cls]
        mine, fold = reach[q], 1 - p
        yes = self._walk(node.yes, (*reach[:q], mine * p, *reach[q + 1 :]))
        no = self._walk(node.no, (*reach[:q], mine * fold, *reach[q + 1 :]))
        value = np.multiply(yes, p)  # p * yes + (1 - p) * no, with one array fewer made
        value += np.multiply(no, fold)
        others = _product(reach, q)
        regret = self.regret[node.key]
        regret[:, 0] = np.maximum(regret[:, 0] + np.bincount(cls, others * (yes[q] - value[q]), 169), 0)
        regret[:, 1] = np.maximum(regret[:, 1] + np.bincount(cls, others * (no[q] - value[q]), 169), 0)
        own = np.bincount(cls, mine, 169)
        self.total[node.key] += self.iteration * np.bincount(cls, mine * p, 169)
        self.weight[node.key] += self.iteration * own
        return value

    def evaluate(self, node: _Node | int, reach: tuple[Floats, ...], responder: int | None = None) -> Floats:
        """Values under the average strategies, `responder` (if any) playing a best response."""
        if not isinstance(node, _Node):
            return self.values[node]
        q, cls = node.player, self.classes[:, node.player]
        if q == responder:
            yes, no = self.evaluate(node.yes, reach, responder), self.evaluate(node.no, reach, responder)
            better = np.bincount(cls, _product(reach, q) * (yes[q] - no[q]), 169) > 0
            p = better[cls].astype(np.float64)
        else:
            p = self.average(node.key)[cls]
            mine = reach[q]
            yes = self.evaluate(node.yes, (*reach[:q], mine * p, *reach[q + 1 :]), responder)
            no = self.evaluate(node.no, (*reach[:q], mine * (1 - p), *reach[q + 1 :]), responder)
        return p * yes + (1 - p) * no


def _means(values: Floats) -> Floats:
    """Each player's mean over the deals, of values kept player by player, summed in the order of a
    deals-by-players matrix (the order the solver always summed in)."""
    means: Floats = np.ascontiguousarray(values.T).mean(axis=0)
    return means


def _product(reach: tuple[Floats, ...], q: int) -> Floats:
    """The other players' reach, deal by deal: their columns multiplied in order, as `np.prod` does."""
    others = [column for k, column in enumerate(reach) if k != q]
    product = others[0].copy()
    for column in others[1:]:
        product *= column
    return product


def solve_endgame(
    game: EndGame, *, deals: int = 100_000, iterations: int = 400, seed: int = 0, tolerance: float = 1e-6,
    progress: Callable[[int, int], None] | None = None,
) -> EndGameSolution:  # fmt: skip
    """The push/fold equilibrium of `game` over `deals` sampled deals, by CFR+ (at most `iterations`;
    it stops once no player's best response gains more than `tolerance` of the prize pool).
    `progress(done, iterations)` hears of the start and of each iteration, and of the end."""
    if progress is not None:
        progress(0, iterations)
    solver = _Solver(game, deals, seed)
    n = len(game.stacks)
    ones = tuple(np.ones(deals) for _ in range(n))
    while solver.iteration < iterations:
        for _ in range(50):
            solver.iterate()
            if progress is not None:
                progress(solver.iteration, iterations)
        values = _means(solver.evaluate(solver.root, ones))
        gains = tuple(
            float(_means(solver.evaluate(solver.root, ones, player))[player] - values[player])
            for player in range(n)
        )
        if max(gains) <= tolerance:
            break
    if progress is not None:
        progress(iterations, iterations)  # stopped early: the bar ends
    strategies = {key: solver.average(key) for key in solver.regret}
    return EndGameSolution(game, strategies, tuple(float(v) for v in values), gains, solver.iteration, deals)


def describe(solution: EndGameSolution) -> list[str]:
    """Readable lines in 80 columns: each position's pushing chart and the charts of the calls of a
    single push, what a best response would gain against each player, and how many deals it rests
    on (fewer than 100,000: the classes near indifference change with the seed)."""
    from holdem.pushfold.chart import chart_lines, hand_share

    game, strategies = solution.game, solution.strategies
    names = _positions(len(game.stacks))
    lines = []
    for q in game.order[:-1]:
        share = hand_share(strategies[(q,)])
        lines += [
            "",
            f"{names[q]} ({game.stacks[q]:,} chips) pushes {share:.1%} of hands",
            *chart_lines(strategies[(q,)]),
        ]
    for q in game.order[1:]:
        for p in game.order[: game.order.index(q)]:
            share = hand_share(strategies[(q, p)])
            lines += [
                "",
                f"{names[q]} calls {names[p]}'s push with {share:.1%} of hands",
                *chart_lines(strategies[(q, p)]),
            ]
    gains = ", ".join(f"{names[p]} {gain:.4%}" for p, gain in enumerate(solution.exploitability))
    lines += ["", *textwrap.wrap("a best response gains at most (of the prize pool): " + gains, width=78)]
    lines.append(f"over {solution.deals:,} sampled deals and {solution.iterations:,} CFR+ iterations")
    if solution.deals < 100_000:
        lines.append("(few deals: classes near indifference change with --seed; more --deals settle)")
    return lines[1:]


def _positions(n: int) -> list[str]:
    """Position names in seat order from the small blind."""
    early = [f"UTG+{k}" if k else "UTG" for k in range(max(n - 4, 0))]
    late = ["CO", "BTN"][max(0, 4 - n) :]
    return ["SB", "BB", *early, *late][:n]
