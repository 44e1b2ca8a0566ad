"""Benchmark the evaluator against the peer libraries, in one run, on the same random hands.

Peers (treys, eval7, phevaluator, pokerkit) are measured when installed (``pip install -e '.[bench]'``).
Prints evaluations per second and ratios; ``--json`` prints one JSON object instead.
This is a benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

RANKS, SUITS = "23456789TJQKA", "cdhs"


def best_rate(run: Callable[[], object], count: int, repeat: int) -> float:
    """Items per second of the fastest of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def contenders(hands: list[tuple[int, ...]]) -> dict[str, tuple[Callable[[], object], int]]:
    """Per-call seven-card runs of holdem and the installed peers: name -> (run, hands per run)."""
    import holdem

    strength = holdem.strength
    runs: dict[str, tuple[Callable[[], object], int]] = {
        "holdem strength (pure Python)": (lambda: [strength(h) for h in hands], len(hands)),
    }
    try:
        import eval7

        e7 = [[eval7.Card(text(c)) for c in h] for h in hands]
        ev = eval7.evaluate
        runs["eval7 evaluate (Cython)"] = (lambda: [ev(h) for h in e7], len(e7))
    except ImportError:
        pass
    try:
        from phevaluator import _pheval

        raw = _pheval.evaluate_7cards
        runs["phevaluator raw C call"] = (lambda: [raw(*h) for h in hands], len(hands))
    except ImportError:
        pass
    try:
        from treys import Card as TCard
        from treys import Evaluator

        te = Evaluator().evaluate
        tr = [
            ([TCard.new(text(c)) for c in h[:5]], [TCard.new(text(c)) for c in h[5:]]) for h in hands[:20000]
        ]
        runs["treys Evaluator.evaluate"] = (lambda: [te(b, p) for b, p in tr], len(tr))
    except ImportError:
        pass
    try:
        from pokerkit import Card as PCard
        from pokerkit import StandardHighHand

        pk = [
            (list(PCard.parse("".join(map(text, h[:2])))), list(PCard.parse("".join(map(text, h[2:])))))
            for h in hands[:1000]
        ]
        fg = StandardHighHand.from_game
        runs["pokerkit StandardHighHand"] = (lambda: [fg(p, b) for p, b in pk], len(pk))
    except ImportError:
        pass
    return runs


def interleaved_rates(runs: dict[str, tuple[Callable[[], object], int]], repeat: int) -> dict[str, float]:
    """Best rate of each run, the runs taking turns so that all see the same machine conditions."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, (run, _count) in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: runs[name][1] / best[name] for name in runs}


def import_time(repeat: int) -> float:
    """Seconds for ``python -c "import holdem"``, best of `repeat` fresh processes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import holdem"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random 7-card hands per-call paths use")
    parser.add_argument("--batch", type=int, default=2_000_000, help="hands for evaluate_many")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    base_rss = rss_mb()
    import holdem
    from holdem.cards.batch import combinations, evaluate_many, tables

    scalar_rss = rss_mb()
    tables()
    batch_rss = rss_mb()
    combinations(48, 5)

    rng = random.Random(args.seed)
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(args.hands)]
    results: dict[str, Any] = {"per_call": interleaved_rates(contenders(hands), args.repeat)}

    gen = np.random.default_rng(args.seed)
    array = np.argpartition(gen.random((args.batch, 52)), 7, axis=1)[:, :7].astype(np.int8)
    results["evaluate_many_per_s"] = best_rate(lambda: evaluate_many(array), args.batch, args.repeat)
    start = time.perf_counter()
    holdem.equity(["AsAh", "KsKh"])
    results["hu_preflop_equity_s_first"] = time.perf_counter() - start
    results["hu_preflop_equity_s"] = 1 / best_rate(lambda: holdem.equity(["AsAh", "KsKh"]), 1, args.repeat)
    results["import_s"] = import_time(args.repeat)
    results["tables_mb"] = {"scalar": scalar_rss - base_rss, "with_batch": batch_rss - base_rss}

    ours = results["per_call"]["holdem strength (pure Python)"]
    phe = results["per_call"].get("phevaluator raw C call")
    results["ratios"] = {
        f"holdem strength / {name}": ours / rate
        for name, rate in results["per_call"].items()
        if not name.startswith("holdem")
    }
    if phe:
        results["ratios"]["evaluate_many / phevaluator raw C loop"] = results["evaluate_many_per_s"] / phe
    if args.json:
        print(json.dumps(results))
        return
    print(f"per-call seven-card evaluation ({len(hands):,} hands, best of {args.repeat}):")
    for name, rate in results["per_call"].items():
        print(f"  {name:34s} {rate / 1e6:8.3f} M/s")
    print(f"evaluate_many ({args.batch:,} hands):   {results['evaluate_many_per_s'] / 1e6:8.1f} M/s")
    print(
        f"exact heads-up preflop equity:     {results['hu_preflop_equity_s']:8.3f} s"
        f"  (first call {results['hu_preflop_equity_s_first']:.3f} s)"
    )
    print(f"import holdem:                     {results['import_s']:8.3f} s")
    tb = results["tables_mb"]
    print(
        f"tables resident:                   {tb['scalar']:8.1f} MB (holdem + scalar),"
        f" {tb['with_batch']:.1f} MB with batch tables"
    )
    print("ratios:")
    for name, ratio in results["ratios"].items():
        print(f"  {name:50s} {ratio:7.2f}x")


if __name__ == "__main__":
    main()
