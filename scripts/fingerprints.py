"""Fingerprints of what the package writes: run before and after a refactor, and diff the two.

Each line is a SHA-256 of one output, made with fixed seeds: two matches (JSON and PHH history), a
tournament series (JSON), the Pluribus hands replayed (JSON), the same hands converted to PokerStars
text and back to PHH, and the statistics of the PokerStars test files. A refactor that changes no
behaviour leaves every line as it was::

    python scripts/fingerprints.py > before.txt   # on the old commit
    python scripts/fingerprints.py > after.txt    # on the new one
    diff before.txt after.txt
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def holdem(*args: str, cwd: Path | None = None) -> bytes:
    """What ``holdem ARGS`` prints (standard output), failing loudly."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's package, whatever is installed
    done = subprocess.run(
        [sys.executable, "-m", "holdem", *args], capture_output=True, cwd=cwd, env=env, check=False
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"holdem {' '.join(args)} failed:\n{done.stderr.decode()}")
    return done.stdout.replace(str(ROOT).encode(), b"ROOT")


def digest(data: bytes, work: Path | None = None) -> str:
    """A short SHA-256 of `data`, with the temporary directory's path taken out."""
    if work is not None:
        data = data.replace(str(work).encode(), b"WORK")
    return hashlib.sha256(data).hexdigest()[:16]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, bots, extra in (
            ("match heads-up", ["equity", "tight-aggressive"], ["--duplicate"]),
            ("match 6-max", ["random", "calling-station", "rock", "maniac", "equity", "folder"], []),
        ):
            history = work / name.replace(" ", "-")
            out = holdem(
                "match", *bots, "--hands", "400", "--seed", "7", "--json", "--history", str(history), *extra
            )
            print(f"{name + ' (JSON)':31}{digest(out, work)}")
            print(f"{name + ' (PHH history)':31}{digest((history / 'match.phhs').read_bytes())}")
        series = holdem(
            "tournament",
            "random",
            "random",
            "equity",
            "--runs",
            "6",
            "--entrants",
            "6",
            "--seed",
            "3",
            "--json",
        )
        print(f"tournament series (JSON)       {digest(series)}")
        with tarfile.open(DATA / "pluribus.tar.xz") as archive:
            archive.extractall(work / "pluribus", filter="data")
        hands = sorted((work / "pluribus").rglob("*.phh"))[:300]
        print(f"Pluribus replay (JSON)         {digest(holdem('replay', '--json', *map(str, hands)), work)}")
        stars = work / "hands.txt"
        holdem("convert", "--to", "pokerstars", "--out", str(stars), "--date", "2026-01-01", *map(str, hands))
        print(f"PokerStars export              {digest(stars.read_bytes())}")
        back = holdem("convert", "--to", "phh", str(stars))
        print(f"PHH export from PokerStars     {digest(back)}")
        texts = sorted(str(p) for p in (DATA / "pokerstars").glob("*.txt"))
        print(f"stats of PokerStars text       {digest(holdem('stats', '--json', *texts))}")


if __name__ == "__main__":
    main()
