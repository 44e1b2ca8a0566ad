"""Tournament speed: tournaments/s of random bots (9-entrant SNGs and a 180-entrant MTT, turbo,
9-max) on 1 and 2 workers and on Dask (a LocalCluster started for the series, and one already
running, by address); hands/s inside SNGs, `holdem tournament`'s and `holdem.vector.VectorSitAndGos`'s
(4,096 at once, the same policy over arrays), against the bare engine with the same policy in the
same run at each one's mix of table sizes; and the time of an exact ICM for 12 players with 9 paid.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from holdem.cli.bench import RandomPolicyBot, random_policy_hands, vector_sng_rates
from holdem.tournament import icm, load_structure
from holdem.tournament.run import HandPlayed, TournamentConfig, play_tournament
from holdem.tournament.series import run_tournaments


def config(entrants: int, seed: int) -> TournamentConfig:
    """Random-policy bots (the engine benchmark's policy) on 9-max tables, turbo structure."""
    return TournamentConfig((RandomPolicyBot,), entrants, load_structure("turbo"), table_size=9, seed=seed)


def rate(entrants: int, runs: int, workers: int, seed: int, dask: str | None = None) -> float:
    """Tournaments per second (a Dask LocalCluster's start-up included when `dask="local"`)."""
    start = time.perf_counter()
    run_tournaments(config(entrants, seed), runs, workers=workers, dask=dask)
    return runs / (time.perf_counter() - start)


def sng_hands(runs: int, seed: int) -> tuple[float, Counter[int]]:
    """Hands per second inside 9-entrant SNGs (one process), and how many players each hand had
    (counted in a second, untimed pass over the same runs)."""
    cfg = config(9, seed)
    start = time.perf_counter()
    hands = sum(play_tournament(cfg, r).hands for r in range(runs))
    seconds = time.perf_counter() - start
    players: Counter[int] = Counter()

    def count(played: HandPlayed) -> None:
        players[len(played.players)] += 1

    for r in range(runs):
        play_tournament(cfg, r, on_hand=count)
    assert hands == sum(players.values())
    return hands / seconds, players


def on_running_cluster(entrants: int, runs: int, workers: int, seed: int) -> float:
    """Tournaments per second on a Dask cluster that is already running (reached by address)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        rate(entrants, 2 * workers, workers, seed, dask=cluster.scheduler_address)  # workers warm
        return rate(entrants, runs, workers, seed, dask=cluster.scheduler_address)


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


def engine_at(players: Counter[int], report: dict[str, float]) -> float:
    """The bare engine's hands/s at a mix of table sizes: the time per hand, weighted by the mix."""
    total = sum(players.values())
    return 1 / sum(players[n] / total / report[f"engine_{n}p_hands_per_s"] for n in players)


def mean_players(players: Counter[int]) -> float:
    return sum(n * k for n, k in players.items()) / sum(players.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask rows")
    parser.add_argument(
        "--series",
        type=int,
        default=20_000,
        help="SNGs in the series that compares --dask local with --workers 2 (default 20,000)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, float] = {}
    sizes = {"sng": (9, 200), "mtt180": (180, 40)}
    for _ in range(args.repeat):  # best of the rounds
        for name, (entrants, runs) in sizes.items():
            for workers in (1, 2):
                key = f"{name}_workers{workers}"
                report[key] = max(report.get(key, 0.0), rate(entrants, runs, workers, args.seed))
            if not args.no_dask:
                for key, measure in (
                    (f"{name}_dask_local", lambda e=entrants, r=runs: rate(e, r, 2, args.seed, dask="local")),
                    (
                        f"{name}_dask_running",
                        lambda e=entrants, r=runs: on_running_cluster(e, r, 2, args.seed),
                    ),
                ):
                    report[key] = max(report.get(key, 0.0), measure())
        if not args.no_dask:  # a long series, where Dask's start-up is a small part of the time
            for key, dask in (("series_workers2", None), ("series_dask_local", "local")):
                report[key] = max(report.get(key, 0.0), rate(9, args.series, 2, args.seed, dask=dask))
        sng, players = sng_hands(200, args.seed)
        report["sng_hands_per_s"] = max(report.get("sng_hands_per_s", 0.0), sng)
        vector = vector_sng_rates(4096, 9, 120, args.seed)
        if vector["hands_per_s"] > report.get("vector_sng_hands_per_s", 0.0):
            report["vector_sng_hands_per_s"] = vector["hands_per_s"]
            vector_players = Counter({n: int(vector[f"hands_with_{n}"]) for n in range(2, 10)})
        for n in range(2, 10):
            key = f"engine_{n}p_hands_per_s"
            report[key] = max(report.get(key, 0.0), random_policy_hands(n, 20_000, args.seed))
    report["engine_at_sng_mix_hands_per_s"] = engine_at(players, report)
    report["sng_mean_players_per_hand"] = mean_players(players)
    report["engine_at_vector_sng_mix_hands_per_s"] = engine_at(vector_players, report)
    report["vector_sng_mean_players_per_hand"] = mean_players(vector_players)
    report["icm_12_players_9_paid_ms"] = icm_ms(20)
    if args.json:
        print(json.dumps(report))
        return
    for name, label in (("sng", "9-entrant SNG"), ("mtt180", "180-entrant MTT")):
        one, two = report[f"{name}_workers1"], report[f"{name}_workers2"]
        line = f"{label:16s} {one:8.1f} tournaments/s on 1 worker, {two:8.1f} on 2 ({two / one:.2f}x)"
        if not args.no_dask:
            local, running = report[f"{name}_dask_local"], report[f"{name}_dask_running"]
            line += (
                f"; Dask, 2 workers: {local:.1f} with a LocalCluster started for it ({local / two:.2f} of"
                f" --workers 2), {running:.1f} on a running cluster ({running / two:.2f})"
            )
        print(line)
    if not args.no_dask:
        two, local = report["series_workers2"], report["series_dask_local"]
        print(
            f"{args.series:,} SNGs: {two:.0f}/s on --workers 2, {local:.0f}/s with --dask local "
            f"(its start-up included): {local / two:.2f} of it"
        )
    sng, nine = report["sng_hands_per_s"], report["engine_9p_hands_per_s"]
    mixed = report["engine_at_sng_mix_hands_per_s"]
    print(
        f"hands/s inside 9-entrant SNGs: {sng:,.0f}; bare engine, same policy: {nine:,.0f} at 9 players "
        f"({sng / nine:.2f}), {mixed:,.0f} at the SNG's mix of table sizes "
        f"(mean {report['sng_mean_players_per_hand']:.1f} players; {sng / mixed:.2f})"
    )
    vector, mixed = report["vector_sng_hands_per_s"], report["engine_at_vector_sng_mix_hands_per_s"]
    print(
        f"hands/s inside 9-entrant SNGs of holdem.vector (4,096 at once, the same policy over arrays): "
        f"{vector:,.0f}; bare engine at their mix of table sizes (mean "
        f"{report['vector_sng_mean_players_per_hand']:.1f} players): {mixed:,.0f} ({vector / mixed:.2f})"
    )
    print(f"exact ICM, 12 players, 9 paid: {report['icm_12_players_9_paid_ms']:.1f} ms")


if __name__ == "__main__":
    main()
