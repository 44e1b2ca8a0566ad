"""holdem.vector against the scalar engine's env, OpenSpiel's universal_poker and PettingZoo, in one run.

Random masked play everywhere (uniform among the legal actions): `holdem.vector.VectorTables` at
N tables per call, `holdem.env`'s PettingZoo env one decision at a time, OpenSpiel's C++
``universal_poker`` (no-limit, 100 big blinds, its fold/call/pot/all-in action set, the nearest to
ours) and PettingZoo's ``texas_holdem_no_limit_v6``. Measured turn by turn, best of `--rounds`.
Also: memory at 4,096 six-handed tables, the cost per decision from 1,024 to 65,536 tables, the
long differential tests (`--lockstep HANDS`, `--lockstep-sng SNGS`), and a profile (`--profile`).
A benchmark, not a test; needs ``pip install -e '.[bench,rl]'``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from holdem import Stakes
from holdem.cli.bench import vector_rates
from holdem.vector import VectorTables

Rate = tuple[float, float]  # decisions/s, hands/s


def vector(players: int, tables: int, seconds: float) -> Rate:
    steps = max(20, int(seconds * 1.2e6 / tables / players**0.5))
    rates = vector_rates(tables, players, steps, 0)
    return rates["decisions_per_s"], rates["hands_per_s"]


def open_spiel(players: int, seconds: float) -> Rate:
    import pyspiel

    blinds = "2 1" if players == 2 else " ".join(["1", "2"] + ["0"] * (players - 2))
    game = pyspiel.load_game("universal_poker", {
        "betting": "nolimit", "bettingAbstraction": "fcpa", "numPlayers": players, "numRounds": 4,
        "blind": blinds, "firstPlayer": "2 1 1 1" if players == 2 else "3 1 1 1", "numSuits": 4,
        "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1", "stack": " ".join(["200"] * players),
    })  # fmt: skip
    rng = random.Random(0)
    decisions = hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new_initial_state()
        hands += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / elapsed, hands / elapsed


def pettingzoo_style(make: Callable[[], Any], seconds: float) -> Rate:
    """A PettingZoo AEC env under random masked play (steps that retire finished agents excluded)."""
    env = make()
    decisions = hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        env.reset(seed=hands)
        hands += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(obs["action_mask"]))
            decisions += 1
    return decisions / elapsed, hands / elapsed


def holdem_env(players: int, seconds: float) -> Rate:
    from holdem.env import env

    return pettingzoo_style(lambda: env(players=players, stacks=200), seconds)


def pettingzoo(players: int, seconds: float) -> Rate:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    return pettingzoo_style(lambda: texas_holdem_no_limit_v6.env(num_players=players), seconds)


def memory(tables: int, players: int) -> float:
    """Peak MB allocated while making `tables` tables and stepping them 50 times."""
    tracemalloc.start()
    t = VectorTables(tables, players, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(50):
        t.step(np.argmax(rng.random(t.legal.shape) * t.legal, axis=1))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def lockstep_sng(count: int) -> None:
    """The differential test of `VectorSitAndGos` until `count` sit-and-gos have been compared."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from holdem.tournament import load_structure
    from tests.vector_sng_lockstep import STEEP, Logged, play

    start = time.perf_counter()
    total = seed = 0
    fields = [
        (9, 9, "turbo"),
        (6, 6, "steep"),
        (5, 9, "steep"),
        (3, 3, "steep"),
        (2, 2, "steep"),
        (8, 9, "turbo"),
    ]
    while total < count:
        for entrants, seats, plan in fields:
            chosen = load_structure(plan) if plan == "turbo" else STEEP
            total += play(Logged(64, entrants, chosen, seats=seats, seed=seed), chosen, 300, seed=seed)
            seed += 1
    print(f"lockstep: {total:,} sit-and-gos, vector and engine agree ({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, turn by turn; the best is kept")
    parser.add_argument("--tables", type=int, default=4096, help="tables per call (default 4096)")
    parser.add_argument("--lockstep", type=int, default=0, help="also run the differential test, HANDS hands")
    parser.add_argument("--profile", action="store_true", help="print where a 6-max step spends its time")
    parser.add_argument(
        "--lockstep-sng",
        type=int,
        default=0,
        help="also run the sit-and-gos' differential test, SNGS sit-and-gos",
    )
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    runs: dict[str, Callable[[int], Rate]] = {
        "holdem.vector": lambda p: vector(p, args.tables, args.seconds),
        "open_spiel": lambda p: open_spiel(p, args.seconds),
        "holdem.env": lambda p: holdem_env(p, args.seconds),
        "pettingzoo": lambda p: pettingzoo(p, args.seconds),
    }
    print(f"random masked play; holdem.vector at {args.tables:,} tables per call; best of {args.rounds}")
    print(f"{'players':>7} {'library':>14} {'decisions/s':>13} {'hands/s':>11} {'vector is':>10}")
    for players in (2, 6):
        best = {name: (0.0, 0.0) for name in runs}
        for _ in range(args.rounds):
            for name, run in runs.items():
                best[name] = max(best[name], run(players))
        ours = best["holdem.vector"][0]
        for name, (decisions, hands) in best.items():
            ratio = "" if name == "holdem.vector" else f"{ours / decisions:,.1f}x"
            print(f"{players:>7} {name:>14} {decisions:>13,.0f} {hands:>11,.0f} {ratio:>10}")
    observed = vector_rates(args.tables, 2, 200, 0, observe=True)["decisions_per_s"]
    print(f"heads-up with observations built every step: {observed:,.0f} decisions/s")
    peak = memory(args.tables, 6)
    print(f"memory, {args.tables:,} tables of 6, made and stepped 50 times: {peak:.1f} MB peak")
    print("cost per decision by tables per call (ns; 6 players):")
    for tables in (1024, 4096, 16384, 65536):
        rates = vector_rates(tables, 6, max(10, 600_000 // tables), 0)
        print(f"  {tables:>6,}: {1e9 / rates['decisions_per_s']:6.0f}")
    if args.lockstep:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.vector_lockstep import lockstep

        start = time.perf_counter()
        total = 0
        configs = [
            (2, 200, Stakes(1, 2)),
            (2, 20, Stakes(1, 2)),
            (3, 60, Stakes(1, 2, ante=1)),
            (6, 200, Stakes(1, 2)),
            (6, 40, Stakes(1, 2, big_blind_ante=2)),
            (9, 100, Stakes(1, 2, ante=1)),
        ]
        for players, stacks, stakes in configs:
            total += lockstep(64, players, args.lockstep // len(configs), stacks=stacks, stakes=stakes,
                              seed=players, observe_every=7)  # fmt: skip
        print(f"lockstep: {total:,} hands, vector and engine agree ({time.perf_counter() - start:.0f} s)")
    if args.lockstep_sng:
        lockstep_sng(args.lockstep_sng)
    if args.profile:
        t = VectorTables(args.tables, 6, seed=0)
        rng = np.random.default_rng(0)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(100):
            t.step(np.argmax(rng.random(t.legal.shape) * t.legal, axis=1))
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())


if __name__ == "__main__":
    main()
