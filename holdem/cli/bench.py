"""The benchmarks behind ``holdem bench``: the bare engine, and matches, under one random policy."""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import numpy.typing as npt

from holdem.console.fields import Field, read_fields
from holdem.console.progress import each
from holdem.errors import InvalidConfigError
from holdem.hand.actions import Action, LegalActions
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.hand.views import SeatView

__all__ = [
    "RandomPolicyBot",
    "command",
    "match_rates",
    "random_policy",
    "random_policy_arrays",
    "random_policy_hands",
    "vector_rates",
    "vector_sng_rates",
    "warm_up",
]

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


def warm_up(players: int) -> None:
    """Play a few hundred hands untimed, alone and as a match, so that the first timed run does not
    pay for loading the evaluator's tables and the first calls of the code it runs."""
    from holdem.bots.match import MatchConfig, play_match

    random_policy_hands(players, 300, 0)
    play_match(MatchConfig((RandomPolicyBot,) * players, stack=400), 300)


def match_rates(hands: int, seed: int, *, players: int = 6, repeat: int = 1) -> dict[str, float]:
    """Rates of a match of `random_policy` bots at a table of `players` (the engine benchmark's
    policy and stacks, through the bot interface) beside the bare engine's (`random_policy_hands`),
    measured in turn `repeat` times, the best of each kept; and of ``equity`` vs ``random``
    heads-up in steady state: after the same hands once untimed, since its preflop equities are
    computed on first use and kept for the process (`preflop_equity`)."""
    from holdem.bots.match import MatchConfig, play_match

    ring = engine = 0.0
    warm_up(players)
    for _ in range(repeat):
        engine = max(engine, random_policy_hands(players, hands, seed))
        start = time.perf_counter()
        play_match(MatchConfig((RandomPolicyBot,) * players, stack=400, seed=seed), hands)
        ring = max(ring, hands / (time.perf_counter() - start))
    heads_up, config = max(hands // 20, 10), MatchConfig(("equity", "random"), seed=seed)
    play_match(config, heads_up)  # the warm-up: the same hands, so that the preflop memo holds their spots
    start = time.perf_counter()
    result = play_match(config, heads_up)
    seconds = time.perf_counter() - start
    equity = result.bots[0]
    return {
        "players": players,
        "engine_hands_per_s": engine,
        "random_ring_hands_per_s": ring,
        "match_over_engine": ring / engine,
        "equity_hu_hands_per_s": heads_up / seconds,
        "equity_decisions_per_s": equity.decisions / equity.seconds,
    }


def vector_rates(
    tables: int, players: int, steps: int, seed: int, *, observe: bool = False
) -> dict[str, float]:
    """Rates of `holdem.vector.VectorTables` under random masked play (uniform among the legal
    actions, chosen with NumPy as a training loop would): decisions (one per table per step), calls
    of ``step`` and finished hands per second, stacks 100 big blinds. With `observe`, each step also
    builds the observations. Ten untimed steps first."""
    import numpy as np

    from holdem.vector import VectorTables

    t = VectorTables(tables, players, 200, Stakes(1, 2), seed=seed)
    rng = np.random.default_rng(seed)

    def play(count: int) -> None:
        for _ in range(count):
            t.step(np.argmax(rng.random(t.legal.shape) * t.legal, axis=1))
            if observe:
                t.observe()

    play(10)
    hands = int(t.hands_played.sum())
    start = time.perf_counter()
    play(steps)
    seconds = time.perf_counter() - start
    return {
        "tables": tables,
        "players": players,
        "steps": steps,
        "observe": observe,
        "decisions_per_s": steps * tables / seconds,
        "steps_per_s": steps / seconds,
        "hands_per_s": (int(t.hands_played.sum()) - hands) / seconds,
    }


def random_policy_arrays(legal: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """`random_policy` for a `holdem.vector.VectorSitAndGos` at every table at once (its actions:
    fold, check/call, the smallest raise, ..., the largest raise): fold, check-or-call or raise, each a
    third of the time; a raise to the minimum or all-in, 50/50 (the largest raise where the smallest
    is all-in too)."""
    n, largest = legal.shape[0], legal.shape[1] - 1
    choice = rng.integers(0, 3, n)
    smallest = (rng.random(n) < 0.5) & legal[:, 2]
    calm = np.where(choice == 0, 0, 1)
    out: npt.NDArray[np.int64] = np.where(
        (choice == 2) & legal[:, largest], np.where(smallest, 2, largest), calm
    )
    return out


def vector_sng_rates(tables: int, entrants: int, steps: int, seed: int) -> dict[str, float]:
    """Hands and sit-and-gos per second of `holdem.vector.VectorSitAndGos` (turbo structure, one
    table of `entrants`) under `random_policy_arrays`, and how many hands had each number of
    players. Ten untimed steps first."""
    from holdem.tournament import load_structure
    from holdem.vector import VectorSitAndGos

    s = VectorSitAndGos(tables, entrants, load_structure("turbo"), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(10):
        s.step(random_policy_arrays(s.legal, rng))
    s.results()
    hands, sizes = int(s.hands_played.sum()), s.hand_sizes.copy()
    start = time.perf_counter()
    finished = 0
    for _ in range(steps):
        s.step(random_policy_arrays(s.legal, rng))
        finished += len(s.results())
    seconds = time.perf_counter() - start
    mix = s.hand_sizes - sizes
    return {
        "tables": tables,
        "hands_per_s": (int(s.hands_played.sum()) - hands) / seconds,
        "sngs_per_s": finished / seconds,
        **{f"hands_with_{k}": int(mix[k]) for k in range(2, len(mix))},
    }


def command(args: argparse.Namespace) -> int:
    """``holdem bench``: measure, then print a line (or JSON with ``--json``)."""
    if args.what == "vector":
        return _vector_command(args)
    if args.what == "match":
        rates = match_rates(args.hands, args.seed, players=args.players, repeat=args.repeat)
        if args.json:
            print(json.dumps(rates))
        else:
            ring, engine = rates["random_ring_hands_per_s"], rates["engine_hands_per_s"]
            print(f"random vs random, {args.players} players: {ring:,.0f} hands/s, {ring / engine:.0%} of "
                  f"the bare engine's {engine:,.0f} (same policy, same run)")  # fmt: skip
            print(f"equity vs random, heads-up: {rates['equity_hu_hands_per_s']:,.0f} hands/s, "
                  f"{rates['equity_decisions_per_s']:,.0f} equity decisions/s")  # fmt: skip
        return 0
    warm_up(args.players)
    runs = each(range(args.repeat), args.repeat, "runs", quiet=args.json)
    rate = max(random_policy_hands(args.players, args.hands, args.seed) for _ in runs)
    if args.json:
        print(json.dumps({"hands_per_s": rate, "players": args.players, "hands": args.hands}))
    else:
        print(f"{rate:,.0f} hands/s ({args.players} players, {args.hands:,} hands, random policy)")
    return 0


def _vector_command(args: argparse.Namespace) -> int:
    if args.sng is not None:
        read_fields({"--sng": args.sng}, {"--sng": Field("whole", None, 2, 9)}, InvalidConfigError)
        runs = [vector_sng_rates(args.tables, args.sng, args.steps, args.seed)
                for _ in each(range(args.repeat), args.repeat, "runs", quiet=args.json)]  # fmt: skip
        best = max(runs, key=lambda r: r["hands_per_s"])
        print(json.dumps(best) if args.json else f"{best['hands_per_s']:,.0f} hands/s, "
              f"{best['sngs_per_s']:,.0f} sit-and-gos/s ({args.tables:,} at once, {args.sng} entrants, "
              "turbo, the engine benchmark's policy)")  # fmt: skip
        return 0
    if args.players > 9:
        raise InvalidConfigError(f"holdem.vector plays 2 to 9 players, got {args.players}")
    runs = [vector_rates(args.tables, args.players, args.steps, args.seed, observe=args.observe)
            for _ in each(range(args.repeat), args.repeat, "runs", quiet=args.json)]  # fmt: skip
    rates = max(runs, key=lambda r: r["decisions_per_s"])
    seen = f"{args.tables:,} tables of {args.players}" + (", observations built" if args.observe else "")
    print(json.dumps(rates) if args.json else f"{rates['decisions_per_s']:,.0f} decisions/s, "
          f"{rates['hands_per_s']:,.0f} hands/s, {rates['steps_per_s']:,.1f} steps/s ({seen})")  # fmt: skip
    return 0
