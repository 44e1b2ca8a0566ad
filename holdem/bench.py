"""The engine benchmark behind ``holdem bench engine``: random 6-max no-limit hands."""

from __future__ import annotations

import random
import time

from holdem.actions import Action
from holdem.hand import Hand
from holdem.stakes import Stakes

__all__ = ["match_rates", "random_policy_hands"]


def random_policy_hands(players: int, hands: int, seed: int) -> float:
    """Hands per second of complete hands (stacks 200 big blinds, blinds 1/2).

    Each player picks uniformly among fold, check-or-call and raise; a raise goes to the
    minimum or all-in, 50/50. Dealing, showdown and settlement are included.
    """
    rng = random.Random(seed)
    stakes = Stakes(1, 2)
    stacks = [400] * players
    fold, check, call = Action.fold(), Action.check(), Action.call()
    start = time.perf_counter()
    for _ in range(hands):
        hand = Hand.start(stacks, stakes, rng=rng)
        while hand.actor is not None:
            legal = hand.legal_actions()
            assert legal is not None
            choice = rng.randrange(3)
            if choice == 2 and legal.min_raise_to is not None and legal.max_raise_to is not None:
                hand.act(Action.raise_to(legal.min_raise_to if rng.random() < 0.5 else legal.max_raise_to))
            elif choice == 0:
                hand.act(fold)
            else:
                hand.act(check if legal.can_check else call)
    return hands / (time.perf_counter() - start)


def match_rates(hands: int, seed: int, *, players: int = 6) -> dict[str, float]:
    """Rates of ``random`` bots at a table of `players`, and ``equity`` vs ``random`` heads-up."""
    from holdem.match import MatchConfig, play_match

    start = time.perf_counter()
    play_match(MatchConfig(("random",) * players, seed=seed), hands)
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
