"""Match statistics: means with normal-approximation confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

__all__ = ["mean_ci"]


def mean_ci(samples: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of `samples` and its two-sided confidence interval.

    Uses the sample standard deviation and the normal quantile (1.96 for 95%); with fewer than
    two samples the interval is infinite.
    """
    n = len(samples)
    if n == 0:
        return math.nan, -math.inf, math.inf
    mean = math.fsum(samples) / n
    if n < 2:
        return mean, -math.inf, math.inf
    variance = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(variance / n)
    return mean, mean - half, mean + half
