"""The `equity` bot: Monte Carlo equity against the opponents' plausible ranges, pot odds, position.

Each opponent's range is read from their own actions this hand (a preflop raiser holds the
top 15% of starting hands, a caller the top 45%, and every later bet or raise narrows it);
the bot samples hands from those ranges and boards from the rest of the deck, all samples at
once with NumPy and the batch evaluator, and compares its equity with the price of calling and
with value thresholds that tighten against more opponents. Its randomness comes from the random
source it is given, so matches are reproducible.
"""

from __future__ import annotations

import random
import time
from functools import cache

import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.bots.reads import Reads
from holdem.cards.batch import strengths_of
from holdem.cards.ranges import parse_range, preflop_order
from holdem.hand.actions import Action, ActionKind
from holdem.hand.events import EventKind, HandResult
from holdem.hand.views import SeatView

__all__ = ["EquityBot", "ordered_combos", "preflop_equity", "starting_hand_percentiles"]


@cache
def starting_hand_percentiles() -> tuple[float, ...]:
    """For each of the 52*52 ordered card pairs, the share of starting hands at least as strong.

    Strength is the documented preflop order of `holdem.cards.ranges.preflop_order` (all-in equity
    against one random hand), the same order percentage ranges use.
    """
    table = [1.0] * (52 * 52)
    seen = 0
    for name in preflop_order():
        combos = [(a, b, w) for a, b, w in parse_range(name)]
        seen += len(combos)
        for a, b, _ in combos:
            table[a * 52 + b] = table[b * 52 + a] = seen / 1326
    return tuple(table)


@cache
def ordered_combos() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """All 1,326 two-card combinations strongest first, each one's percentile (non-decreasing: the
    range "top x" is the prefix with percentiles up to x), and each one's two cards as a bit mask."""
    table = starting_hand_percentiles()
    combos = sorted(((a, b) for a in range(52) for b in range(a)), key=lambda ab: table[ab[0] * 52 + ab[1]])
    ordered = np.array(combos, dtype=np.int64)
    bits = (np.left_shift(1, ordered[:, 0]) | np.left_shift(1, ordered[:, 1])).astype(np.int64)
    return ordered, np.array([table[a * 52 + b] for a, b in combos]), bits


def _sample(
    gen: np.random.Generator, mine: list[int], board: list[int], shares: list[float], samples: int
) -> tuple[float, int]:
    """(pot shares won, samples): `mine` against opponents holding the strongest `shares` of
    starting hands, over `samples` deals of their hands and then the rest of the `board`.

    Cards in use are tracked per sample as 52-bit masks, so every clash test is one array
    operation; a card or hand that clashes is drawn again (a sample still clashing after 20
    draws, vanishingly rare, is left out).
    """
    known = np.zeros(52, dtype=bool)
    known[mine + board] = True
    opponents, need, shown = len(shares), 5 - len(board), 2 + len(board)
    uniform = gen.random((opponents + need, samples))
    used = np.zeros(samples, dtype=np.int64)
    left_out: list[npt.NDArray[np.intp]] = []
    # hands[0] is ours, hands[1..] the opponents'; each row: two hole cards, then the board.
    hands = np.empty((opponents + 1, samples, 7), dtype=np.int8)
    hands[0, :, :2] = mine
    hands[:, :, 2:shown] = board
    # Each opponent's hand, from the strongest `share` of combinations that avoid the known
    # cards, drawn again where it clashes with an earlier opponent's hand.
    ordered, percentiles, ordered_bits = ordered_combos()
    for i, share in enumerate(shares):
        top = max(int(np.searchsorted(percentiles, share, side="right")), 1)
        free = ~known[ordered[:top]].any(axis=1)
        if not free.any():
            top, free = len(ordered), ~known[ordered].any(axis=1)
        pool, pool_bits = ordered[:top][free], ordered_bits[:top][free]
        draw = (uniform[i] * len(pool)).astype(np.intp)
        left_out.append(_redraw(gen, draw, pool_bits, used))
        hands[i + 1, :, :2] = pool[draw]
        used |= pool_bits[draw]
    # Then the rest of the board, a card at a time, from the cards nobody holds.
    rest = np.flatnonzero(~known)
    rest_bits = np.left_shift(1, rest)
    for j in range(need):
        draw = (uniform[opponents + j] * len(rest)).astype(np.intp)
        left_out.append(_redraw(gen, draw, rest_bits, used))
        hands[:, :, shown + j] = rest[draw]
        used |= rest_bits[draw]
    strengths = strengths_of(hands.reshape(-1, 7)).reshape(opponents + 1, samples)
    bad = np.concatenate(left_out)
    if len(bad):
        strengths = np.delete(strengths, bad, axis=1)
    ours, theirs = strengths[0], strengths[1:]
    best = theirs.max(axis=0)
    ties = (theirs == ours).sum(axis=0)
    won = np.where(ours > best, 1.0, np.where(ours == best, 1.0 / (1 + ties), 0.0))
    return float(won.sum()), len(ours)


def _redraw(
    gen: np.random.Generator,
    draw: npt.NDArray[np.intp],
    bits: npt.NDArray[np.int64],
    used: npt.NDArray[np.int64],
) -> npt.NDArray[np.intp]:
    """Draw again (in place) the entries of `draw` whose cards (`bits[draw]`) clash with `used`;
    returns the samples still clashing after 20 draws (vanishingly rare: they are left out)."""
    rows = np.flatnonzero(used & bits[draw])
    for _ in range(20):
        if not len(rows):
            break
        draw[rows] = (gen.random(len(rows)) * len(bits)).astype(np.intp)
        rows = rows[(used[rows] & bits[draw[rows]]) != 0]
    return rows


PREFLOP_SAMPLES = 4000
"""Samples behind each preflop equity (computed once per spot and process, so it can afford more)."""


@cache
def preflop_equity(high: int, low: int, suited: bool, shares: tuple[float, ...]) -> float:
    """The equity of a starting hand (ranks 0-12, suited or not) against opponents holding the
    strongest `shares` of starting hands, before the flop.

    Computed on first use with a random source seeded by the arguments alone, so the value never
    depends on which bot, process or machine asked first.
    """
    mine = [4 * high + 3, 4 * low + (3 if suited else 2)]
    seed = [high, low, int(suited), *(round(share * 1_000_000) for share in shares)]
    won, count = _sample(default_rng(seed), mine, [], list(shares), PREFLOP_SAMPLES)
    return won / count


FOLDS_AFTER_THE_FLOP = 0.8
"""How much of an opponent's folds to bets after the flop a bet made without value counts on: the
folds were seen against bets made mostly for value, on other boards (measured: counting them all
lost 50 bb/100 to the same bot without reads at 100 big blinds)."""


class EquityBot:
    """Plays by Monte Carlo equity against ranges read from each opponent's play; `samples` per
    decision, or a `seconds` budget.

    It learns each opponent's tendencies as hands end (`holdem.bots.reads`): how wide they play
    and raise sets the ranges it puts them on, how often they fold sets when a bet that would
    not be made for value is worth making anyway, and how often they bet after the flop sets how
    much a bet of theirs narrows their range.
    """

    def __init__(self, samples: int = 300, seconds: float | None = None, aggression: float = 1.0) -> None:
        if samples <= 0:
            raise ValueError(f"samples must be positive, got {samples!r}")
        self.samples = samples
        self.seconds = seconds
        self.aggression = aggression
        self.reads = Reads()
        self.set_random(random.Random(0))

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng
        self.gen = default_rng(rng.getrandbits(128))

    def meet(self, names: tuple[str, ...]) -> None:
        """Who plays the next hand: a new name is a new player, read from nothing."""
        self.reads.meet(names)

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        """Learn from the hand's public actions."""
        self.reads.learn(view.player, view.players, view.public_log)

    # ------------------------------------------------------------ ranges
    def _range_shares(self, view: SeatView) -> list[float]:
        """The share of starting hands each player plausibly holds, from their actions this hand
        and what their earlier hands showed of how wide they play and how often they bet."""
        n, me = len(view.stacks), view.player
        shares = [1.0] * n
        preflop, raises = True, 0
        for kind, player, _, _, action, _ in view.public_log:
            if kind == EventKind.BOARD:
                preflop = False
            elif kind == EventKind.ACTION and player is not None and action is not None and player != me:
                them = self.reads.of(me, player, n)
                if preflop:
                    if action.kind is ActionKind.RAISE:
                        raises += 1
                        share = them.rate("pfr") if raises == 1 else them.rate("threebet") / 2 ** (raises - 2)
                        shares[player] = min(shares[player], share)
                    elif action.kind is ActionKind.CALL:
                        shares[player] = min(shares[player], them.rate("vpip"))
                elif action.kind is ActionKind.RAISE:
                    shares[player] *= min(0.9, max(0.4, 0.1 + 0.6 * them.rate("aggression")))
            elif (
                kind == EventKind.ACTION
                and preflop
                and action is not None
                and action.kind is ActionKind.RAISE
            ):
                raises += 1
        return [max(share, 0.03) for share in shares]

    # ------------------------------------------------------------ equity
    def equity(self, view: SeatView) -> float:
        """Estimated share of the pot against the live opponents' plausible ranges.

        Before the flop the answer depends only on the starting hand's class and the opponents'
        range shares (rounded to a hundredth), so it comes from `preflop_equity` (computed once
        per process for each spot).
        """
        me = view.player
        all_shares = self._range_shares(view)
        shares = [all_shares[p] for p in range(len(view.stacks)) if p != me and not view.folded[p]]
        if not view.board:
            high, low = sorted((card.rank for card in view.hole), reverse=True)
            suited = view.hole[0].suit == view.hole[1].suit
            rounded = tuple(sorted(max(round(share, 2), 0.03) for share in shares))
            return preflop_equity(int(high), int(low), suited, rounded)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        mine, board = [c.index for c in view.hole], [c.index for c in view.board]
        total, done = 0.0, 0
        while True:
            won, count = _sample(self.gen, mine, board, shares, self.samples)
            total, done = total + won, done + count
            if deadline is None or time.perf_counter() >= deadline:
                return total / done if done else 0.0

    # ----------------------------------------------------------- decision
    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        me, n = view.player, view.players
        live = [p for p in range(n) if p != me and not view.folded[p]]
        equity = self.equity(view)
        # Acting last after the flop is worth a little (rule-of-thumb position bonus).
        if view.board and me == max(p for p in range(n) if not view.folded[p]):
            equity += 0.03
        fair = 1 / (len(live) + 1)
        can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
        value = self._value_threshold(view, live, fair)
        target = view.bets[me] + legal.to_call + int(0.75 * (view.pot + legal.to_call))
        if can_raise:
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            target = min(max(target, legal.min_raise_to), legal.max_raise_to)
            if equity >= value or self._pressure_pays(view, live, equity, target):
                return Action.raise_to(target)
        if legal.can_check:
            return Action.check()
        price = legal.to_call / (view.pot + legal.to_call)
        return Action.call() if equity >= price + 0.02 else Action.fold()

    def _value_threshold(self, view: SeatView, live: list[int], fair: float) -> float:
        """The equity from which a bet or raise is made for value: a quarter of the way from a fair
        share (`fair`) to all of the pot, less for a more aggressive bot."""
        return fair + (1 - fair) * 0.25 / self.aggression

    def _pressure_pays(self, view: SeatView, live: list[int], equity: float, target: int) -> bool:
        """Whether a raise to `target` made without the equity to raise for value is expected to win
        more than checking or calling (or folding), counting the chance that everyone folds, by
        each live opponent's folds so far, giving up when raised back (by their raises so far), and
        when called playing on with less equity, or none when much is left to bet."""
        me, n = view.player, view.players
        fold, back = ("fold_pre", "threebet") if not view.board else ("fold_post", "raise_back")
        folds, quiet = 1.0, 1.0
        for p in live:
            them = self.reads.of(me, p, n)
            folds *= them.rate(fold) * (FOLDS_AFTER_THE_FLOP if view.board else 1.0)
            quiet *= 1 - them.rate(back)
        pot, cost = view.pot, target - view.bets[me]
        to_call = view.legal.to_call if view.legal is not None else 0
        called_pot = pot + cost + sum(max(0, target - view.bets[p]) for p in live)
        raised = 1 - quiet  # raised back: this bot gives up what it put in
        # Called with much left to bet, the rest of the hand is too uncertain to count on.
        realised = 0.0 if view.stacks[me] - cost > 3 * called_pot else 0.8
        called = max(0.0, 1 - folds - raised)
        bet = folds * pot + called * (realised * equity * called_pot - cost) - raised * cost
        passive = equity * pot if to_call == 0 else max(0.0, equity * (pot + to_call) - to_call)
        return bet > passive + 0.1 * view.big_blind
