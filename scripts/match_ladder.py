"""Where a match's time goes beyond the engine's: loops built up step by step from the bare engine's
to the match's, on the same pre-drawn decks, each timed in turn (best of the rounds).

Each step adds one thing the match does: the bot interface (a view per decision, the call through
the bot, two clock reads), the checks of the answer, the statistics read from the history, each
bot's chips; then the match's own loop (`_play_hands`) and the whole `play_match` (chunks, fresh
bots, their decks). A benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from operator import sub

from holdem.bots.match import _SEATINGS, MatchConfig, _Chunk, _count, _decks, _play_hands, play_match
from holdem.cards.deck import Deck
from holdem.cli.bench import RandomPolicyBot, random_policy, random_policy_hands, warm_up
from holdem.hand.actions import Action
from holdem.hand.events import Phase
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.hand.views import actor_view


def ladder(n: int, hands: int) -> dict[str, Callable[[], float]]:
    """The steps, each a function returning microseconds a hand."""
    config = MatchConfig((RandomPolicyBot,) * n, stack=400, seed=1)
    stakes, stacks, preflop_phase = Stakes(1, 2), [400] * n, Phase.PREFLOP
    base = [deck for first in range(0, hands, 200) for deck in _decks(config, first, first + 200)]

    def bots() -> list[list[Callable[..., Action]]]:
        made = [RandomPolicyBot() for _ in range(n)]
        for b, bot in enumerate(made):
            bot.set_random(random.Random(b))
        return [[made[b].act for b in seat_bot] for seat_bot, _, _ in _SEATINGS[n]]

    def steps(level: int) -> float:
        decks, acts, clock, seconds = [d.copy() for d in base], bots(), time.perf_counter, [0.0] * n
        chunk, deltas = _Chunk.empty(0, n), []
        start = time.perf_counter()
        for index, deck in enumerate(decks):
            seat_bot, _, in_bot_order = _SEATINGS[n][index % n]
            hand, act, preflop = Hand.start(stacks, stakes, deck=deck), acts[index % n], 0
            while (actor := hand.actor) is not None:
                if not level:
                    hand.act(random_policy(hand.legal_actions(), random))  # type: ignore[arg-type]
                    continue
                preflop += hand.phase is preflop_phase
                seen = actor_view(hand, actor, hand.legal_actions(), len(hand.history))
                began = clock()
                action = act[actor](seen)
                seconds[seat_bot[actor]] += clock() - began
                if level >= 2 and type(action) is not Action:
                    raise AssertionError("the bots answer with actions")
                hand.act(action)
            if level >= 3:
                _count(hand, preflop, seat_bot, chunk)
            if level >= 4:
                deltas.append(list(map(sub, in_bot_order(hand.stacks), stacks)))
        return (time.perf_counter() - start) / hands * 1e6

    def loop() -> float:
        decks, made = [d.copy() for d in base], [RandomPolicyBot() for _ in range(n)]
        start = time.perf_counter()
        _play_hands(config, made, enumerate(decks), _Chunk.empty(0, n), False)
        return (time.perf_counter() - start) / hands * 1e6

    def whole() -> float:
        start = time.perf_counter()
        play_match(config, hands)
        return (time.perf_counter() - start) / hands * 1e6

    def decks() -> float:
        source, start = random.Random(5), time.perf_counter()
        for _ in range(hands):
            Deck.sampled(source, 2 * n + 8)
        return (time.perf_counter() - start) / hands * 1e6

    return {
        "engine (its own loop, drawing its decks)": lambda: 1e6 / random_policy_hands(n, hands, 1),
        "drawing a deck": decks,
        "the engine on pre-drawn decks": lambda: steps(0),
        "+ the bot interface": lambda: steps(1),
        "+ checking the answer": lambda: steps(2),
        "+ the statistics from the history": lambda: steps(3),
        "+ each bot's chips": lambda: steps(4),
        "the match's loop (_play_hands)": loop,
        "the whole match (play_match)": whole,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warm_up(args.players)
    steps = ladder(args.players, args.hands)
    best = dict.fromkeys(steps, float("inf"))
    for _ in range(args.repeat):
        for name, step in steps.items():
            best[name] = min(best[name], step())
    for name, micros in best.items():
        print(f"{name:44} {micros:6.1f} µs a hand")


if __name__ == "__main__":
    main()
