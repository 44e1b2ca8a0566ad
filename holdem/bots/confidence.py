"""Match statistics: means with normal-approximation confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul
from statistics import NormalDist

__all__ = ["RunningMean", "mean_ci"]


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


class RunningMean:
    """Mean and confidence interval of whole-number samples, kept as exact integer sums.

    Memory does not grow with the number of samples, and the result is the same whatever order
    the samples arrive in; `mean_ci` on the same samples agrees to float precision.
    """

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0
        self.squares = 0

    def add(self, sample: int) -> None:
        self.count += 1
        self.total += sample
        self.squares += sample * sample

    def add_all(self, samples: Sequence[int]) -> None:
        """Add every sample (the same as `add` on each, in one pass)."""
        self.count += len(samples)
        self.total += sum(samples)
        self.squares += sum(map(mul, samples, samples))

    def ci(self, scale: float = 1.0, confidence: float = 0.95) -> tuple[float, float, float]:
        """(mean, low, high) of the samples times `scale`; infinite bounds below two samples."""
        n = self.count
        if n == 0:
            return math.nan, -math.inf, math.inf
        mean = self.total / n * scale
        if n < 2:
            return mean, -math.inf, math.inf
        variance = (n * self.squares - self.total * self.total) / (n * (n - 1))  # exact numerator
        half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(variance / n) * abs(scale)
        return mean, mean - half, mean + half
