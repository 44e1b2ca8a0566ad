"""Match memory: peak resident memory of a match of 10,000 hands beside one of 1,000,000.

Statistics are aggregated as hands stream in, so memory should not grow with the number of
hands. Each size runs in a fresh process (peak RSS is per process). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

CHILD = """
import resource, sys, time
from holdem.bots.match import MatchConfig, play_match
hands = int(sys.argv[1])
start = time.perf_counter()
result = play_match(MatchConfig(("folder", "calling-station"), seed=1), hands, workers=int(sys.argv[2]))
seconds = time.perf_counter() - start
print(result.hands, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measure(hands: int, workers: int) -> dict[str, float]:
    """Hands played, seconds and peak RSS (MB) of one match in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(hands), str(workers)], capture_output=True, text=True, check=True
    )
    played, seconds, kilobytes = done.stdout.split()
    return {"hands": int(played), "seconds": float(seconds), "peak_rss_mb": int(kilobytes) / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,1000000", help="hands per match, comma-separated")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    rows = [measure(int(size), args.workers) for size in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(f"{row['hands']:>10,} hands: peak {row['peak_rss_mb']:6.1f} MB, {row['seconds']:6.1f} s")
    print(f"ratio of peaks, largest to smallest: {rows[-1]['peak_rss_mb'] / rows[0]['peak_rss_mb']:.2f}"
          f" (total {time.perf_counter() - start:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
