"""Evaluate all 133,784,560 seven-card hands with evaluate_many and check the published counts.

The same check runs in CI (tests/test_evaluator.py); this prints the timing and the table.

Compares the count and number of distinct strengths per category with
../shared/data/evaluator-counts.txt; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from holdem import HandCategory
from holdem.cards._tables import CATEGORY_STARTS
from holdem.cards.batch import strength_counts

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "evaluator-counts.txt"


def published(path: Path) -> dict[str, tuple[int, int]]:
    """Seven-card (count, classes) per category name."""
    rows = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[0] in {c.name.lower() for c in HandCategory} | {"total"}:
            rows[parts[0]] = (int(parts[3]), int(parts[4]))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=Path, default=DATA)
    args = parser.parse_args()
    start = time.perf_counter()
    hits = strength_counts(7)
    seconds = time.perf_counter() - start
    total = int(hits.sum())
    print(f"evaluated {total:,} hands in {seconds:.1f} s ({total / seconds / 1e6:.1f} M/s)")
    expected = published(args.counts)
    ok = expected["total"] == (total, int((hits > 0).sum()))
    for category in HandCategory:
        lo = CATEGORY_STARTS[category]
        hi = CATEGORY_STARTS[category + 1] if category < HandCategory.STRAIGHT_FLUSH else 7463
        got = (int(hits[lo:hi].sum()), int((hits[lo:hi] > 0).sum()))
        want = expected[category.name.lower()]
        ok &= got == want
        print(
            f"{category.name.lower():16s} {got[0]:>11,} {got[1]:>5}   "
            + ("ok" if got == want else f"expected {want}")
        )
    print(f"{'total':16s} {total:>11,} {int((hits > 0).sum()):>5}   {'ok' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
