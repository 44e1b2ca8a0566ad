"""Tournament equity by the Malmuth-Harville model (rule 31): exact for small fields, sampled beyond.

A player finishes first with probability equal to their share of the chips; given the players
placed so far, each remaining player takes the next place with probability equal to their share
of the remaining chips. A player's equity is the sum over places of P(place) x prize(place).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Literal

import attrs
import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.errors import InvalidConfigError

__all__ = ["EXACT_LIMIT", "ICMResult", "icm", "icm_rows"]

EXACT_LIMIT = 14
"""Fields of up to this many players with chips are computed exactly (2**14 sets of placed players)."""


@attrs.frozen
class ICMResult:
    """Each player's equity (in prize units), how it was found, and its standard error (0 when exact)."""

    equities: tuple[float, ...]
    method: Literal["exact", "sampled"]
    stderr: tuple[float, ...]


def icm(
    stacks: Sequence[int],
    prizes: Sequence[float],
    *,
    method: Literal["auto", "exact", "sampled"] = "auto",
    samples: int = 200_000,
    rng: random.Random | int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ICMResult:
    """The ICM equity of each stack for the prizes of places 1, 2, … among the players with chips.

    Busted players (stack 0) have equity 0; prizes for more places than there are players with
    chips are not in play (those places are already decided). `method="auto"` is exact up to
    `EXACT_LIMIT` players with chips and sampled beyond (then `samples` finishing orders drawn from
    `rng`, a seed or a `random.Random`; `progress(done, samples)` is told how many are drawn).

    >>> result = icm([5000, 3000, 2000], [50, 30, 20])
    >>> result.method, [round(e, 2) for e in result.equities]
    ('exact', [38.39, 32.75, 28.86])
    """
    _check(stacks, prizes)
    live = [i for i, stack in enumerate(stacks) if stack > 0]
    paid = [float(p) for p in prizes[: len(live)]]
    if method == "auto":
        method = "exact" if len(live) <= EXACT_LIMIT else "sampled"
    if method == "exact":
        values = _exact([stacks[i] for i in live], paid)
        errors = [0.0] * len(live)
    elif method == "sampled":
        if type(samples) is not int or samples < 2:
            raise InvalidConfigError(f"samples must be a whole number of at least 2, got {samples!r}")
        generator = rng if isinstance(rng, random.Random) else random.Random(rng)
        values, errors = _sampled([stacks[i] for i in live], paid, samples, generator, progress)
    else:
        raise InvalidConfigError(f"method must be 'auto', 'exact' or 'sampled', got {method!r}")
    equities, stderr = [0.0] * len(stacks), [0.0] * len(stacks)
    for k, i in enumerate(live):
        equities[i], stderr[i] = values[k], errors[k]
    return ICMResult(tuple(equities), method, tuple(stderr))


def _check(stacks: Sequence[int], prizes: Sequence[float]) -> None:
    if not stacks or any(type(s) is not int or s < 0 for s in stacks):
        raise InvalidConfigError(f"stacks must be non-negative whole numbers, got {list(stacks)!r}")
    if not any(stacks):
        raise InvalidConfigError("at least one stack must have chips")
    if not prizes or any(not isinstance(p, int | float) or isinstance(p, bool) for p in prizes):
        raise InvalidConfigError(f"prizes must be numbers, got {list(prizes)!r}")
    if any(p < 0 or not math.isfinite(p) for p in prizes):
        raise InvalidConfigError(f"prizes must be finite and non-negative, got {list(prizes)!r}")
    for place, (better, worse) in enumerate(itertools.pairwise(prizes), start=2):
        if worse > better:
            raise InvalidConfigError(
                f"prizes go by place, the first the largest: place {place} pays {worse:g}, more than"
                f" place {place - 1}'s {better:g}"
            )


def _exact(stacks: list[int], prizes: list[float]) -> list[float]:
    """Dynamic programming over the sets of players already placed (bit masks), one place at a time."""
    n = len(stacks)
    total = sum(stacks)
    equities = [0.0] * n
    layer = {0: 1.0}  # placed players -> probability that exactly they took the places so far
    for prize in prizes:
        following: dict[int, float] = {}
        for placed, probability in layer.items():
            left = total - sum(stacks[i] for i in range(n) if placed >> i & 1)
            for i in range(n):
                if placed >> i & 1:
                    continue
                chance = probability * stacks[i] / left
                equities[i] += chance * prize
                key = placed | 1 << i
                following[key] = following.get(key, 0.0) + chance
        layer = following
    return equities


def icm_rows(stacks: npt.NDArray[np.int64], prizes: Sequence[float]) -> npt.NDArray[np.float64]:
    """Exact ICM equities for many tables at once: a row of stacks each (players with no chips
    get 0, prizes beyond the players with chips are not in play, as in `icm`). The same dynamic
    programming as `icm`'s, each step done for every row together (a push/fold end-game values
    thousands of finishing stacks; 9 players, 7 prizes: 45,000 rows in 0.3 s against 45 s one
    by one). For one row `icm`'s plain loop stays: NumPy's cost per operation would make it
    several times slower there."""
    rows, n = stacks.shape
    chips = stacks.astype(np.float64)
    equities = np.zeros((rows, n))
    layer = {0: (np.ones(rows), chips.sum(axis=1))}  # placed players -> (chance, chips left)
    for prize in [float(p) for p in prizes[:n]]:
        following: dict[int, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}
        for placed, (chance, left) in layer.items():
            share = chance / np.where(left > 0, left, 1.0)  # with no chips left, no place is given
            for i in range(n):
                if placed >> i & 1:
                    continue
                taken = share * chips[:, i]
                equities[:, i] += taken * prize
                key = placed | 1 << i
                if key in following:
                    following[key][0][:] += taken
                else:
                    following[key] = (taken, left - chips[:, i])
        layer = following
    return equities


def _sampled(
    stacks: list[int],
    prizes: list[float],
    samples: int,
    rng: random.Random,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[float], list[float]]:
    """Finishing orders drawn with the model's probabilities, and each player's mean prize.

    Each player's key is an exponential variable divided by their stack; sorting the keys gives a
    finishing order with exactly the model's probabilities. Players with equal stacks have equal
    equity under the model (rule 31), so each is given their group's mean prize per order, which
    also lowers its variance. NumPy, in chunks of samples.
    """
    n = len(stacks)
    gen = default_rng(rng.getrandbits(128))
    weights = np.array(stacks, dtype=np.float64)
    prize_of_place = np.zeros(n)
    prize_of_place[: len(prizes)] = prizes
    _, group = np.unique(weights, return_inverse=True)  # players with equal stacks share a group
    share = np.zeros((n, int(group.max()) + 1))
    share[np.arange(n), group] = 1.0
    share /= share.sum(axis=0)  # a sample's prizes -> each group's mean prize
    sums, squares = np.zeros(share.shape[1]), np.zeros(share.shape[1])
    chunk = max(1, 2_000_000 // n)
    for start in range(0, samples, chunk):
        size = min(chunk, samples - start)
        order = np.argsort(gen.exponential(size=(size, n)) / weights, axis=1)
        won = np.empty((size, n))
        np.put_along_axis(won, order, np.broadcast_to(prize_of_place, (size, n)), axis=1)
        mean_won = won @ share
        sums += mean_won.sum(axis=0)
        squares += (mean_won * mean_won).sum(axis=0)
        if progress is not None:
            progress(start + size, samples)
    means = sums / samples
    variance = np.maximum(squares / samples - means * means, 0.0) * samples / (samples - 1)
    return means[group].tolist(), np.sqrt(variance / samples)[group].tolist()
