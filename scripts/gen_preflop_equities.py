"""The exact all-in equity of every pair of the 169 starting-hand classes, with card removal, for
`holdem.pushfold`: writes ``holdem/pushfold/equities.npz`` (the equity with ties counted half, and
the chance of winning outright: ties are the rest).

For each pair of classes: the equity of the first against the second averaged over every pair of
hands of the two that share no card, and over every board of five of the other 48 cards (ties
count half), from the evaluator. Worked out board by board: each of the 2,598,960 boards up to a
permutation of the suits (134,459 of them, each weighted by how many boards it stands for), every
hand ranked on it, and for each pair of hands the boards on which the first beats the second
counted. A board that shares a card with a hand ranks that hand below every other; over all boards
such boards add as many wins as losses to each pair of disjoint hands, so no mask is needed. The
class sums are the same for suit-permuted boards, which is what lets one board stand for its
permutations. About 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import time
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

from holdem.cards.batch import combinations, strengths_of
from holdem.pushfold.classes import CLASSES, class_of_hands, hands

OUT = Path(__file__).resolve().parent.parent / "holdem" / "pushfold" / "equities.npz"


def canonical_boards() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every five-card board up to a permutation of the suits, and how many boards each stands for."""
    boards = combinations(52, 5).astype(np.int64)
    ranks, suits = boards // 4, boards % 4
    powers = 52 ** np.arange(4, -1, -1, dtype=np.int64)
    best = None
    for perm in itertools.permutations(range(4)):
        mapped = np.sort(ranks * 4 + np.asarray(perm)[suits], axis=1)
        key = mapped @ powers
        best = key if best is None else np.minimum(best, key)
    assert best is not None
    keys, counts = np.unique(best, return_counts=True)
    canonical = (keys[:, None] // powers[None, :]) % 52
    return canonical, counts


def wins(boards: npt.NDArray[np.int64], weights: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``(1326, 1326)``: for each pair of hands, the weighted boards on which the first ranks above
    the second (a hand sharing a card with the board ranks 0)."""
    table = hands()
    total = np.zeros((len(table), len(table)), dtype=np.int64)
    by_weight = {w: np.zeros((len(table), len(table)), dtype=np.int32) for w in np.unique(weights).tolist()}
    for board, weight in zip(boards, weights.tolist(), strict=True):
        clash = np.isin(table, board).any(axis=1)
        cards = np.concatenate([table, np.broadcast_to(board, (len(table), 5))], axis=1)
        cards[clash] = np.array([0, 1, 2, 3, 4, 5, 6])  # any distinct cards: ranked 0 below
        rank = strengths_of(cards).astype(np.int16)
        rank[clash] = 0
        by_weight[weight] += rank[:, None] > rank[None, :]
    for weight, count in by_weight.items():
        total += weight * count.astype(np.int64)
    return total


def _work(part: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]) -> npt.NDArray[np.int64]:
    return wins(*part)


def class_equities(
    won: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Class by class: the equity (ties half), the chance of winning outright, and the number of
    disjoint hand pairs, from the hand-by-hand wins."""
    table, cls = hands(), class_of_hands()
    held = (np.int64(1) << table[:, 0]) | (np.int64(1) << table[:, 1])
    disjoint = (held[:, None] & held[None, :]) == 0
    margin = (won - won.T) * disjoint  # boards won less boards lost, each pair of disjoint hands
    onehot = np.zeros((len(table), CLASSES), dtype=np.int64)
    onehot[np.arange(len(table)), cls] = 1
    pairs = onehot.T @ disjoint.astype(np.int64) @ onehot
    net = onehot.T @ margin @ onehot
    boards = comb(48, 5)
    # Over all boards, a disjoint pair's count of "first ranks above" holds, besides the real wins,
    # every board that shares a card with the second hand alone (it ranks 0): C(50,5) - C(48,5).
    wins = onehot.T @ (won * disjoint) @ onehot - (comb(50, 5) - boards) * pairs
    with np.errstate(invalid="ignore"):
        equity = 0.5 + net / (2.0 * boards * pairs)
        win = wins / (boards * pairs)
    return np.where(pairs > 0, equity, np.nan), np.where(pairs > 0, win, np.nan), pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.perf_counter()
    boards, weights = canonical_boards()
    assert weights.sum() == comb(52, 5)
    print(f"{len(boards):,} boards up to suits ({time.perf_counter() - start:.0f} s)", flush=True)
    parts = [(boards[k::16], weights[k::16]) for k in range(16)]
    with multiprocessing.Pool(args.workers) as pool:
        won = sum(pool.imap_unordered(_work, parts))
    equity, win, pairs = class_equities(np.asarray(won))
    np.savez_compressed(args.out, equity=equity, win=win, pairs=pairs)
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
