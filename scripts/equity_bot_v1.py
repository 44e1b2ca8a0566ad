"""The equity bot as it was before the NumPy rewrite (holdem 0.1.0): kept only as a reference, so
that scripts/bench_equity_bot.py can measure the new bot against it (speed and strength).

The original description follows.

The `equity` bot: Monte Carlo equity against the opponents' plausible ranges, pot odds, position.

Each opponent's range is read from their own actions this hand (a preflop raiser holds the
top 15% of starting hands, a caller the top 45%, and every later bet or raise narrows it);
the bot samples hands from those ranges and boards from the rest of the deck, and compares
its equity with the price of calling and with value thresholds that tighten against more
opponents. Its randomness comes from the hand's random source, so matches are reproducible.
"""

from __future__ import annotations

import random
import time

from holdem.bots.equity import EquityBot, starting_hand_percentiles
from holdem.cards.evaluator import strength
from holdem.hand.actions import ActionKind
from holdem.hand.events import Event
from holdem.hand.views import SeatView

__all__ = ["EquityBotV1"]


class EquityBotV1(EquityBot):
    """The previous equity estimate (pure Python, one sample at a time) under the same decision rule:
    `act` is `EquityBot.act`, which did not change."""

    def __init__(self, samples: int = 300, seconds: float | None = None, aggression: float = 1.0) -> None:
        super().__init__(samples, seconds, aggression)
        self.percentiles = starting_hand_percentiles()

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng

    # ------------------------------------------------------------ ranges
    def _range_share(self, events: tuple[Event, ...], player: int) -> float:
        """The share of starting hands `player` plausibly holds, from their actions this hand."""
        share = 1.0
        preflop = True
        for event in events:
            if event.kind == "board":
                preflop = False
            if event.kind != "action" or event.player != player or event.action is None:
                continue
            kind = event.action.kind
            if preflop:
                if kind is ActionKind.RAISE:
                    share = min(share, 0.15)
                elif kind is ActionKind.CALL:
                    share = min(share, 0.45)
            elif kind is ActionKind.RAISE:
                share *= 0.6
        return max(share, 0.03)

    # ------------------------------------------------------------ equity
    def equity(self, view: SeatView) -> float:
        """Estimated share of the pot against the live opponents' plausible ranges."""
        me = view.player
        mine = [c.index for c in view.hole]
        board = [c.index for c in view.board]
        opponents = [p for p in range(view.players) if p != me and not view.folded[p]]
        known = set(mine) | set(board)
        deck = [c for c in range(52) if c not in known]
        ranges = []
        events = view.events  # built once per decision, as views of 0.1.0 cached them
        for p in opponents:
            share = self._range_share(events, p)
            combos = [
                (a, b)
                for i, a in enumerate(deck)
                for b in deck[i + 1 :]
                if self.percentiles[a * 52 + b] <= share
            ]
            ranges.append(combos or [(a, b) for i, a in enumerate(deck) for b in deck[i + 1 :]])
        need = 5 - len(board)
        rng = self.rng
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        total = 0.0
        done = 0
        while (done < self.samples) if deadline is None else (time.perf_counter() < deadline or done < 20):
            used = set(known)
            holes = []
            for combos in ranges:
                for _ in range(20):
                    a, b = combos[int(rng.random() * len(combos))]
                    if a not in used and b not in used:
                        break
                used.update((a, b))
                holes.append((a, b))
            rest = [c for c in deck if c not in used]
            run = board + rng.sample(rest, need)
            ours = strength(mine + run)
            theirs = [strength([a, b, *run]) for a, b in holes]
            best = max(theirs)
            if ours > best:
                total += 1.0
            elif ours == best:
                total += 1.0 / (1 + theirs.count(ours))  # a split pot
            done += 1
        return total / done
