"""Payouts (rule 29): standard shares by field size, or custom ones, turned into whole prizes that add
up to the prize pool exactly (any remainder from rounding goes one unit each to the top places).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from holdem.errors import InvalidConfigError

__all__ = ["payout_shares", "prizes"]

# Small fields, as sit-and-gos pay: (largest field, shares of the pool in percent).
_SMALL_FIELDS = ((4, (100,)), (7, (65, 35)), (10, (50, 30, 20)), (20, (40, 30, 20, 10)))


def payout_shares(entrants: int) -> tuple[float, ...]:
    """The standard shares (percent of the prize pool, highest place first) for a field of `entrants`.

    Up to 4 entrants the winner takes all; 5-7 pay 65/35; 8-10 pay 50/30/20; 11-20 pay
    40/30/20/10. Larger fields pay about 15% of the entrants (at least 4) on a smooth top-heavy
    curve: place k's share is proportional to 1/k, so first gets about a quarter of the pool in a
    180-player field and every paid place more than the place below it.
    """
    if type(entrants) is not int or entrants < 2:
        raise InvalidConfigError(f"a tournament needs at least 2 entrants, got {entrants!r}")
    for largest, shares in _SMALL_FIELDS:
        if entrants <= largest:
            return tuple(float(share) for share in shares)
    paid = max(4, round(0.15 * entrants))
    weights = [1 / k for k in range(1, paid + 1)]
    return tuple(100 * w / sum(weights) for w in weights)


def prizes(pool: int, shares: Sequence[float]) -> tuple[int, ...]:
    """Whole prizes from a prize pool and shares (any positive numbers, highest place first; they
    are scaled to the pool): each place gets its share rounded down, and the units left over go
    one each to the places from first down (rule 29), so the prizes add up to `pool` exactly."""
    if type(pool) is not int or pool < 0:
        raise InvalidConfigError(f"the prize pool must be a non-negative whole number, got {pool!r}")
    if not shares or any(isinstance(s, bool) or not isinstance(s, int | float) or not s > 0 for s in shares):
        raise InvalidConfigError(f"payout shares must be positive numbers, got {list(shares)!r}")
    if any(later > earlier for earlier, later in itertools.pairwise(shares)):
        raise InvalidConfigError(f"payout shares must not grow down the places, got {list(shares)!r}")
    total = sum(shares)
    amounts = [int(pool * share // total) for share in shares]
    for k in range(pool - sum(amounts)):
        amounts[k % len(amounts)] += 1
    return tuple(amounts)
