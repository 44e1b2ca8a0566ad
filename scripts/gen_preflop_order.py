"""Rebuild holdem/cards/preflop.txt: the 169 starting-hand classes ordered by all-in equity against one
random hand, the order behind percentage ranges (``20%``) and the equity bot's starting ranges.

Monte Carlo with NumPy batch evaluation, a fixed seed and 2,000,000 deals per class (standard
error about 0.0004), so the file is reproducible: ``python scripts/gen_preflop_order.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from holdem.cards.batch import evaluate_many
from holdem.cards.card import RANK_CHARS

DEALS = 2_000_000
CHUNK = 250_000
SEED = 20261123


def class_name(high: int, low: int, suited: bool) -> str:
    pair = high == low
    return RANK_CHARS[high] + RANK_CHARS[low] + ("" if pair else "s" if suited else "o")


def equity_vs_random(a: int, b: int, gen: np.random.Generator) -> float:
    """All-in equity of holding (a, b) against one random hand, on random boards."""
    rest = np.array([c for c in range(52) if c not in (a, b)])
    won = 0.0
    for _ in range(DEALS // CHUNK):
        picks = rest[np.argpartition(gen.random((CHUNK, 50)), 7, axis=1)[:, :7]]
        mine = np.concatenate([np.tile([a, b], (CHUNK, 1)), picks[:, 2:]], axis=1)
        ours, theirs = evaluate_many(mine), evaluate_many(picks)
        won += float((ours > theirs).sum() + 0.5 * (ours == theirs).sum())
    return won / DEALS


def main() -> None:
    gen = np.random.default_rng(SEED)
    rows = []
    for high in range(12, -1, -1):
        for low in range(high, -1, -1):
            for suited in (True, False) if high != low else (False,):
                a, b = 4 * high, 4 * low + (0 if suited else 1)  # a representative combination
                rows.append((equity_vs_random(a, b, gen), class_name(high, low, suited)))
    rows.sort(key=lambda row: -row[0])
    path = Path(__file__).resolve().parent.parent / "holdem" / "preflop.txt"
    lines = [
        "# The 169 starting-hand classes, strongest first: all-in equity against one random hand",
        f"# (Monte Carlo, {DEALS:,} deals per class, seed {SEED}; scripts/gen_preflop_order.py).",
        *(f"{name} {equity:.4f}" for equity, name in rows),
    ]
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path} (169 classes, strongest {rows[0][1]}, weakest {rows[-1][1]})")


if __name__ == "__main__":
    main()
