"""Match speed: random vs random 6-max beside the bare engine in the same run, and equity vs random.

Prints hands per second of a random-vs-random 6-max match (bots, per-seat views and bookkeeping
included) next to the engine's own rate, and the equity bot's decisions per second heads-up
with its default budget. A benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import json

from holdem.cli.bench import match_rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        rates = match_rates(args.hands, args.seed, players=args.players)
        best = {k: max(v, best.get(k, 0.0)) for k, v in rates.items()}
    best["match_over_engine"] = best["random_ring_hands_per_s"] / best["engine_hands_per_s"]
    if args.json:
        print(json.dumps(best))
        return
    n = args.players
    print(f"engine alone, {n} players, random policy: {best['engine_hands_per_s']:9,.0f} hands/s")
    print(f"match, {n} random bots:                {best['random_ring_hands_per_s']:9,.0f} hands/s"
          f"  ({best['match_over_engine']:.0%} of the engine)")  # fmt: skip
    print(f"match, equity vs random heads-up:     {best['equity_hu_hands_per_s']:9,.0f} hands/s")
    print(f"equity bot decisions (300 samples):   {best['equity_decisions_per_s']:9,.0f} /s")


if __name__ == "__main__":
    main()
