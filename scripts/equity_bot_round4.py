"""The equity bot of round 4, before it read its opponents (holdem.bots.reads): kept only as a
reference, so that scripts/bench_equity_bot.py can measure today's bot against it.

Its sampling and preflop equities are today's (`holdem.bots.equity`: unchanged since); the
class is round 4's. The original description follows.

The `equity` bot: Monte Carlo equity against the opponents' plausible ranges, pot odds, position.

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

import numpy as np

from holdem.bots.equity import _sample, preflop_equity
from holdem.hand.actions import Action, ActionKind
from holdem.hand.views import SeatView

__all__ = ["EquityBotRound4"]


class EquityBotRound4:
    """Plays by Monte Carlo equity against plausible ranges. `samples` per decision, or a `seconds` budget."""

    def __init__(self, samples: int = 300, seconds: float | None = None, aggression: float = 1.0) -> None:
        if samples <= 0:
            raise ValueError(f"samples must be positive, got {samples!r}")
        self.samples = samples
        self.seconds = seconds
        self.aggression = aggression
        self.set_random(random.Random(0))

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng
        self.gen = np.random.default_rng(rng.getrandbits(128))

    # ------------------------------------------------------------ ranges
    @staticmethod
    def _range_shares(view: SeatView) -> list[float]:
        """The share of starting hands each player plausibly holds, from their actions this hand."""
        shares = [1.0] * len(view.stacks)
        preflop = True
        for kind, player, _, _, action, _ in view.public_log:
            if kind == "board":
                preflop = False
            elif kind == "action" and player is not None and action is not None:
                if preflop:
                    if action.kind is ActionKind.RAISE:
                        shares[player] = min(shares[player], 0.15)
                    elif action.kind is ActionKind.CALL:
                        shares[player] = min(shares[player], 0.45)
                elif action.kind is ActionKind.RAISE:
                    shares[player] *= 0.6
        return [max(share, 0.03) for share in shares]

    # ------------------------------------------------------------ equity
    def equity(self, view: SeatView) -> float:
        """Estimated share of the pot against the live opponents' plausible ranges.

        Before the flop the answer depends only on the starting hand's class and the opponents'
        range shares, so it comes from `preflop_equity` (computed once per process for each spot).
        """
        me = view.player
        all_shares = self._range_shares(view)
        shares = [all_shares[p] for p in range(len(view.stacks)) if p != me and not view.folded[p]]
        if not view.board:
            high, low = sorted((card.rank for card in view.hole), reverse=True)
            suited = view.hole[0].suit == view.hole[1].suit
            return preflop_equity(int(high), int(low), suited, tuple(sorted(shares)))
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
        opponents = sum(1 for p in range(view.players) if p != view.player and not view.folded[p])
        equity = self.equity(view)
        # Acting last after the flop is worth a little (rule-of-thumb position bonus).
        if view.board and view.player == max(p for p in range(view.players) if not view.folded[p]):
            equity += 0.03
        fair = 1 / (opponents + 1)
        pot_after_call = view.pot + legal.to_call
        can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
        value = fair + (1 - fair) * 0.25 / self.aggression
        if can_raise and equity >= value:
            target = view.bets[view.player] + legal.to_call + int(0.75 * pot_after_call)
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            return Action.raise_to(min(max(target, legal.min_raise_to), legal.max_raise_to))
        if legal.can_check:
            return Action.check()
        price = legal.to_call / (pot_after_call + legal.to_call)
        return Action.call() if equity >= price + 0.02 else Action.fold()
