"""Equity: exact vectors, ranges, Monte Carlo and impossible spots."""

from pathlib import Path

import pytest

from holdem import ImpossibleSpotError, InvalidRangeError, equity, parse_range


def published_equities(data_dir: Path) -> list[tuple[str, str, int, int, int]]:
    rows = []
    for line in (data_dir / "evaluator-counts.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) == 5 and len(parts[0]) == 4 and parts[2].isdigit():
            rows.append((parts[0], parts[1], int(parts[2]), int(parts[3]), int(parts[4])))
    return rows


def test_heads_up_preflop_equity_is_exact(data_dir: Path) -> None:
    """Every published heads-up preflop vector is reproduced over all 1,712,304 boards."""
    vectors = published_equities(data_dir)
    assert len(vectors) >= 6
    for a, b, wins, losses, ties in vectors:
        result = equity([a, b])
        first, second = result.players
        assert ("exact", 1_712_304) == (result.method, result.deals)
        assert (wins, losses, ties) == (
            round(first.win * result.deals),
            round(second.win * result.deals),
            round(first.tie * result.deals),
        )


def test_postflop_equity_enumerates_the_turn_and_river() -> None:
    """With a flop, AsAh vs KsKh is decided over the 990 remaining turn-river pairs."""
    result = equity(["AsAh", "KsKh"], board="7d5h9d")
    assert (990, 891, 83) == (
        result.deals,
        round(result.players[0].win * 990),
        round(result.players[1].win * 990),
    )


def test_dead_cards_are_removed_from_the_runouts() -> None:
    """A dead card is never dealt: killing both remaining aces zeroes their outs."""
    result = equity(["KsKh", "AsKd"], board="7d5h9d2c", dead="AhAdAc")
    assert 0.0 == result.players[1].win


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AKs", 4),
        ("KQo", 12),
        ("AK", 16),
        ("TT+", 30),
        ("22-55", 24),
        ("A5s-A2s", 16),
        ("K9s+", 16),
        ("AsKd", 1),
    ],
)
def test_range_notation_counts_combinations(text: str, count: int) -> None:
    """Standard range notation expands to the right number of combinations."""
    assert count == len(parse_range(text))


def test_range_weights_apply() -> None:
    """A weight after a colon applies to that item's combinations."""
    assert {0.5} == {w for _, _, w in parse_range("AKs:0.5")}


@pytest.mark.parametrize("text", ["AKx", "A", "AA-KQ", "AKs:2", "QQs"])
def test_bad_range_is_a_clear_error(text: str) -> None:
    """Malformed ranges raise InvalidRangeError naming the item."""
    with pytest.raises(InvalidRangeError):
        parse_range(text)


def test_ranges_drop_combinations_that_clash() -> None:
    """A range is trimmed by the board and the other player's cards, not rejected."""
    exact = equity(["AsAd", "AA"], board="2c7h9d")
    assert 1 == exact.deals // 990  # only AhAc is left for the range
    assert pytest.approx(0.5) == exact.players[0].equity


def test_impossible_spot_is_a_clear_error() -> None:
    """No combination left for a player is an error, not a zero."""
    with pytest.raises(ImpossibleSpotError):
        equity(["AsAh", "AA"], dead="AdAc")


def test_monte_carlo_is_seeded_and_close_to_exact() -> None:
    """Monte Carlo with a seed is reproducible and within 4 standard errors of the exact answer."""
    exact = equity(["AhKh", "QsQd"]).players[0].equity
    first = equity(["AhKh", "QsQd"], samples=50_000, rng=3)
    assert first == equity(["AhKh", "QsQd"], samples=50_000, rng=3)
    player = first.players[0]
    assert player.stderr is not None
    assert abs(player.equity - exact) < 4 * player.stderr


def test_three_way_equities_sum_to_one() -> None:
    """Pot shares of all players add up to one."""
    result = equity(["AsAh", "KsKh", "7c7d"])
    assert pytest.approx(1.0) == sum(p.equity for p in result.players)
