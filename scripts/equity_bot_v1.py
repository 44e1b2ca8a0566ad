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

from holdem.actions import Action, ActionKind
from holdem.bots.equity import starting_hand_percentiles
from holdem.evaluator import strength
from holdem.events import Event
from holdem.views import SeatView

__all__ = ["EquityBotV1"]


class EquityBotV1:
    """Plays by Monte Carlo equity against plausible ranges. `samples` per decision, or a `seconds` budget."""

    def __init__(self, samples: int = 300, seconds: float | None = None, aggression: float = 1.0) -> None:
        if samples <= 0:
            raise ValueError(f"samples must be positive, got {samples!r}")
        self.samples = samples
        self.seconds = seconds
        self.aggression = aggression
        self.rng = random.Random(0)
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
