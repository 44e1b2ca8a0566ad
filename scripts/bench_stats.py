"""Player statistics speed: `holdem stats` on the 2,502 Pluribus hands and on a 1,000,000-hand match
history, end to end (a new process: start-up, reading and counting), and PokerKit in the same run.

PokerKit has no player statistics; what it would need for them is its hands read (`HandHistory.loads`)
and played through (iterating each hand's states: a check and a call look alike in PHH until the bet
is known). Both are timed on the same Pluribus texts, and holdem's reading and counting in-process
beside them. The match history (heads-up, `random` against `calling-station`, seed 1) is written once
into `--folder` and kept for later runs. Best of `--repeat`. A benchmark, never a timed test.

    python scripts/bench_stats.py [--repeat 3] [--hands 1000000] [--folder /tmp/holdem-bench-stats]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from holdem.stats import Collection
from holdem.stats.sources import documents

ROOT = Path(__file__).resolve().parent.parent
PLURIBUS = ROOT / "tests" / "data" / "pluribus.tar.xz"


def best(repeat: int, work: Callable[[], object]) -> float:
    """The fastest of `repeat` runs of `work`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def command(*args: str) -> Callable[[], object]:
    """`holdem stats ARGS` in a new process, its output dropped (a failure stops the benchmark)."""
    return lambda: subprocess.run(
        [sys.executable, "-m", "holdem", "stats", *args], check=True, stdout=subprocess.DEVNULL
    )


def pluribus_texts() -> list[str]:
    with tarfile.open(PLURIBUS) as archive:
        return [archive.extractfile(m).read().decode() for m in archive if m.isfile()]  # type: ignore[union-attr]


def holdem_in_process() -> None:
    collection = Collection()
    collection.add_all(documents([PLURIBUS]))
    assert collection.hands == 2502 and not collection.skipped


def pokerkit(texts: list[str], play: bool) -> Callable[[], object]:
    from pokerkit import HandHistory

    def run() -> None:
        for text in texts:
            history = HandHistory.loads(text)
            if play:
                for _ in history:
                    pass

    return run


def match_history(folder: Path, hands: int) -> Path:
    """The match history of `hands` hands, written by `holdem match` once."""
    path = folder / f"match-{hands}" / "match.phhs"
    if not path.exists():
        print(f"writing a {hands:,}-hand match history to {path.parent} (once) ...", flush=True)
        subprocess.run(
            [sys.executable, "-m", "holdem", "match", "random", "calling-station", "--hands", str(hands),
             "--seed", "1", "--history", str(path.parent), "--json"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    return path


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/holdem-bench-stats"))
    args = parser.parse_args()
    texts = pluribus_texts()
    rows = [("holdem stats, Pluribus 2,502 hands, end to end", best(args.repeat, command(str(PLURIBUS))))]
    rows.append(("holdem, Pluribus read and counted in-process", best(args.repeat, holdem_in_process)))
    try:
        for name, play in (("read (HandHistory.loads)", False), ("read and played through", True)):
            rows.append((f"pokerkit, Pluribus {name}", best(args.repeat, pokerkit(texts, play))))
    except ImportError:
        print("pokerkit is not installed (pip install -e '.[bench]'): its rows are left out")
    path = match_history(args.folder, args.hands)
    end_to_end = best(args.repeat, command(str(path)))
    rows.append((f"holdem stats, a {args.hands:,}-hand match history, end to end", end_to_end))
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:7.2f} s")
    ours = rows[1][1]
    for name, seconds in rows[2:4]:
        print(f"{name}: {seconds / ours:.1f}x holdem's read and count")


if __name__ == "__main__":
    main()
