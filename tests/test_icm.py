"""ICM (rule 31) at its edges: every refusal word for word, where exact gives way to sampling, the
sampled estimate's standard error against the model's own variance, and the progress it reports."""

from __future__ import annotations

import math
import random

import pytest

from holdem.errors import InvalidConfigError
from holdem.tournament.icm import EXACT_LIMIT, icm


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([100, -1], [1], "stacks must be non-negative whole numbers, got [100, -1]"),
        ([], [1], "stacks must be non-negative whole numbers, got []"),
        ([5, 2.5], [1], "stacks must be non-negative whole numbers, got [5, 2.5]"),
        ([0, 0], [1], "at least one stack must have chips"),
        ([5, 5], [], "prizes must be numbers, got []"),
        ([5, 5], [True], "prizes must be numbers, got [True]"),
        ([5, 5], ["1"], "prizes must be numbers, got ['1']"),
        ([5, 5], [float("inf")], "prizes must be finite and non-negative, got [inf]"),
        ([5, 5], [-1], "prizes must be finite and non-negative, got [-1]"),
        (
            [5, 5],
            [50, 30, 35],
            "prizes go by place, the first the largest: place 3 pays 35, more than place 2's 30",
        ),
        (
            [5, 5],
            [20, 30.5],
            "prizes go by place, the first the largest: place 2 pays 30.5, more than place 1's 20",
        ),
    ],
)
def test_bad_input_is_refused_word_for_word(stacks: list[int], prizes: list[float], message: str) -> None:
    with pytest.raises(InvalidConfigError) as raised:
        icm(stacks, prizes)
    assert str(raised.value) == message


def test_a_bad_method_or_number_of_samples_is_refused() -> None:
    with pytest.raises(InvalidConfigError) as raised:
        icm([5, 5], [1], method="guess")  # type: ignore[arg-type]
    assert str(raised.value) == "method must be 'auto', 'exact' or 'sampled', got 'guess'"
    for samples in (1, 2.0, True):
        with pytest.raises(InvalidConfigError) as raised:
            icm([5, 3], [1], method="sampled", samples=samples)  # type: ignore[arg-type]
        assert str(raised.value) == f"samples must be a whole number of at least 2, got {samples!r}"
    assert icm([5, 3], [1], method="sampled", samples=2, rng=1).method == "sampled"


def test_exact_up_to_the_limit_of_players_with_chips_then_sampled() -> None:
    """Only players with chips count towards the limit; equal prizes make every equity exact anyway."""
    assert EXACT_LIMIT == 14
    assert icm([10] * EXACT_LIMIT + [0, 0], [3, 2, 1]).method == "exact"
    assert icm([10] * (EXACT_LIMIT + 1), [3, 2, 1], samples=100, rng=1).method == "sampled"
    assert icm([10, 20], [1], method="sampled", samples=100, rng=1).method == "sampled"
    assert icm([10] * 20, [1], method="exact").method == "exact"


def test_a_busted_player_has_nothing_and_prizes_beyond_the_players_with_chips_are_not_in_play() -> None:
    """Three players with chips share the first three prizes only: the fourth place is already decided."""
    result = icm([0, 600, 300, 100], [50, 30, 15, 5])
    assert result.equities[0] == 0.0 and result.stderr == (0.0, 0.0, 0.0, 0.0)
    assert sum(result.equities) == pytest.approx(95.0)
    first = [0.6, 0.3, 0.1]
    # The 100-chip player: third unless first, or second after either of the others won.
    second = 0.6 * 100 / 400 + 0.3 * 100 / 700
    assert result.equities[3] == pytest.approx(50 * first[2] + 30 * second + 15 * (1 - first[2] - second))


def test_the_sampled_standard_error_is_the_models_own() -> None:
    """3,000 chips against 1,000, winner takes 1: the big stack wins with probability 3/4, a coin with
    standard deviation sqrt(3/16), so its mean over n orders has standard error sqrt(3/16 / n)."""
    n = 200_000
    result = icm([3000, 1000], [1], method="sampled", samples=n, rng=11)
    expected = math.sqrt(0.75 * 0.25 / n)
    assert result.stderr[0] == pytest.approx(expected, rel=0.02)
    assert result.stderr[1] == pytest.approx(expected, rel=0.02)
    assert abs(result.equities[0] - 0.75) < 4 * expected
    small = icm([3000, 1000], [1], method="sampled", samples=8, rng=11)
    wins = round(small.equities[0] * 8)  # how many of the 8 orders the big stack won
    assert 0 < wins < 8  # (for this seed) so the variance is not zero
    p = wins / 8
    assert small.stderr[0] == pytest.approx(math.sqrt(p * (1 - p) * 8 / 7 / 8), abs=1e-12)  # n - 1


def test_sampling_reports_its_progress_in_chunks_and_counts_every_chunk() -> None:
    """Chunks of two million keys: 20 players make chunks of 100,000 orders, 3 players 666,666. Every
    chunk counts in the estimate: the equities add up to the prize, within their errors."""
    seen: list[tuple[int, int]] = []
    stacks = [1000 + k for k in range(20)]
    result = icm(stacks, [1], samples=250_000, rng=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(100_000, 250_000), (200_000, 250_000), (250_000, 250_000)]
    assert sum(result.equities) == pytest.approx(1.0)
    assert result.equities[0] == pytest.approx(1000 / sum(stacks), abs=4 * result.stderr[0])
    p = 1000 / sum(stacks)  # the chance the first player wins, and a coin's variance p(1 - p)
    assert result.stderr[0] == pytest.approx(math.sqrt(p * (1 - p) / 250_000), rel=0.05)
    seen.clear()
    icm([3, 2, 1], [1], method="sampled", samples=1_000_000, rng=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(666_666, 1_000_000), (1_000_000, 1_000_000)]


def test_a_seed_or_a_random_source_gives_the_same_estimate_and_the_default_is_200000_orders() -> None:
    stacks = [1000 + 10 * k for k in range(EXACT_LIMIT + 1)]
    seeded = icm(stacks, [5, 3, 2], rng=9)
    assert seeded == icm(stacks, [5, 3, 2], rng=9) == icm(stacks, [5, 3, 2], rng=random.Random(9))
    assert seeded == icm(stacks, [5, 3, 2], rng=9, samples=200_000)


def test_many_tables_at_once_get_what_each_gets_alone() -> None:
    """`icm_rows` (a push/fold end-game's finishing stacks, thousands at a time) gives each row of
    stacks the exact equities `icm` gives it, busted players and prizes beyond the players with
    chips included, whatever the number of players."""
    import numpy as np

    from holdem.tournament.icm import icm_rows

    rng = random.Random(7)
    for players, prizes in ((2, [1.0]), (4, [50, 30, 20]), (9, [35, 22, 15, 10, 8, 6, 4])):
        rows = [[rng.choice([0, rng.randint(1, 5000)]) for _ in range(players)] for _ in range(200)]
        rows = [row for row in rows if any(row)]
        expected = [icm(row, prizes).equities for row in rows]
        assert icm_rows(np.array(rows), prizes) == pytest.approx(np.array(expected), abs=1e-12)
