"""Tournament speed: tournaments/s of random bots (9-entrant SNGs and a 180-entrant MTT, turbo,
9-max) on 1 and 2 workers, and the time of an exact ICM for 12 players with 9 paid.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from holdem.tournament import icm, load_structure
from holdem.tournament.run import TournamentConfig
from holdem.tournament.series import run_tournaments


def rate(entrants: int, runs: int, workers: int, seed: int) -> float:
    """Tournaments per second of random bots."""
    config = TournamentConfig(("random",), entrants, load_structure("turbo"), table_size=9, seed=seed)
    start = time.perf_counter()
    run_tournaments(config, runs, workers=workers)
    return runs / (time.perf_counter() - start)


def icm_ms(repeat: int) -> float:
    """Best time of an exact ICM, 12 random stacks, 9 places paid, in milliseconds."""
    rng = random.Random(1)
    stacks = [rng.randint(1, 10_000) for _ in range(12)]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        icm(stacks, [30, 20, 14, 10, 8, 6, 5, 4, 3])
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, float] = {}
    for _ in range(args.repeat):  # best of the rounds
        for name, entrants, runs in (("sng", 9, 400), ("mtt180", 180, 10)):
            for workers in (1, 2):
                key = f"{name}_workers{workers}"
                report[key] = max(report.get(key, 0.0), rate(entrants, runs, workers, args.seed))
    report["icm_12_players_9_paid_ms"] = icm_ms(20)
    if args.json:
        print(json.dumps(report))
        return
    for name, label in (("sng", "9-entrant SNG"), ("mtt180", "180-entrant MTT")):
        one, two = report[f"{name}_workers1"], report[f"{name}_workers2"]
        print(f"{label:16s} {one:8.1f} tournaments/s on 1 worker, {two:8.1f} on 2 ({two / one:.2f}x)")
    print(f"exact ICM, 12 players, 9 paid: {report['icm_12_players_9_paid_ms']:.1f} ms")


if __name__ == "__main__":
    main()
