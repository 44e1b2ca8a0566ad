"""The benchmarks behind ``holdem bench``: the bare engine, and matches, under one random policy."""

from __future__ import annotations

import random
import time

from holdem.actions import Action, LegalActions
from holdem.hand import Hand
from holdem.stakes import Stakes
from holdem.views import SeatView

__all__ = ["RandomPolicyBot", "match_rates", "random_policy", "random_policy_hands"]

_FOLD, _CHECK, _CALL = Action.fold(), Action.check(), Action.call()


def random_policy(legal: LegalActions, rng: random.Random) -> Action:
    """The benchmarks' policy: fold, check-or-call or raise, each a third of the time; a raise
    goes to the minimum or all-in, 50/50 (checks or calls when no raise is allowed)."""
    choice = rng.randrange(3)
    if choice == 2 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        return Action.raise_to(legal.min_raise_to if rng.random() < 0.5 else legal.max_raise_to)
    if choice == 0:
        return _FOLD
    return _CHECK if legal.can_check else _CALL


class RandomPolicyBot:
    """`random_policy` as a bot, so that a match and the bare engine play exactly the same way."""

    rng = random.Random(0)  # until `set_random` gives the bot its own (matches and tournaments do)

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        return random_policy(legal, self.rng)


def random_policy_hands(players: int, hands: int, seed: int) -> float:
    """Hands per second of complete hands with `random_policy` (stacks 200 big blinds, blinds 1/2).

    Dealing, showdown and settlement are included.
    """
    rng = random.Random(seed)
    stakes = Stakes(1, 2)
    stacks = [400] * players
    start = time.perf_counter()
    for _ in range(hands):
        hand = Hand.start(stacks, stakes, rng=rng)
        while hand.actor is not None:
            legal = hand.legal_actions()
            assert legal is not None
            hand.act(random_policy(legal, rng))
    return hands / (time.perf_counter() - start)


def match_rates(hands: int, seed: int, *, players: int = 6) -> dict[str, float]:
    """Rates of a match of `random_policy` bots at a table of `players` (the engine benchmark's
    policy and stacks, through the bot interface), and of ``equity`` vs ``random`` heads-up."""
    from holdem.match import MatchConfig, play_match

    start = time.perf_counter()
    play_match(MatchConfig((RandomPolicyBot,) * players, stack=400, seed=seed), hands)
    ring = hands / (time.perf_counter() - start)
    heads_up = max(hands // 20, 10)
    from holdem.bots.equity import starting_hand_percentiles

    starting_hand_percentiles()  # built once per process; not part of the rate
    start = time.perf_counter()
    result = play_match(MatchConfig(("equity", "random"), seed=seed), heads_up)
    seconds = time.perf_counter() - start
    equity = result.bots[0]
    return {
        "players": players,
        "random_ring_hands_per_s": ring,
        "equity_hu_hands_per_s": heads_up / seconds,
        "equity_decisions_per_s": equity.decisions / equity.seconds,
    }
