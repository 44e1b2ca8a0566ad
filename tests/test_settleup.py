"""Settling up a home game: the payments even every player out, and there are as few as possible."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem.errors import InvalidConfigError
from holdem.table.settleup import Payment, settle_up


def apply(nets: dict[str, int], payments: list[Payment]) -> dict[str, int]:
    after = dict(nets)
    for payment in payments:
        assert payment.chips > 0
        after[payment.payer] += payment.chips
        after[payment.payee] -= payment.chips
    return after


def fewest(nets: list[int]) -> int:
    """The fewest payments by brute force: the players with a non-zero net, less the most groups
    that each sum to zero, over every way of splitting them (small games only)."""
    owed = [net for net in nets if net]

    def most_groups(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        found = 0
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                if first + sum(others[k] for k in chosen) == 0:
                    left = tuple(v for k, v in enumerate(others) if k not in chosen)
                    found = max(found, 1 + most_groups(left))
        return found

    return len(owed) - most_groups(tuple(owed))


def test_the_losers_pay_the_winner() -> None:
    assert [Payment("bob", "ann", 30), Payment("cid", "ann", 20)] == settle_up(
        {"ann": 50, "bob": -30, "cid": -20}
    )
    assert [] == settle_up({"ann": 0, "bob": 0})


def test_players_who_even_out_among_themselves_settle_apart() -> None:
    """b and f are 7 up and 7 down: one payment between them. Paying the largest debt to the largest
    credit across everyone would take five payments; four are enough."""
    nets = {"a": -9, "b": 7, "c": -2, "d": 5, "e": 6, "f": -7}
    payments = settle_up(nets)
    assert Payment("f", "b", 7) in payments
    assert 4 == len(payments) == fewest(list(nets.values()))
    assert all(net == 0 for net in apply(nets, payments).values())


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=7))
def test_any_game_settles_exactly_in_the_fewest_payments(nets: list[int]) -> None:
    values = [*nets, -sum(nets)]
    game = {f"p{k}": net for k, net in enumerate(values)}
    payments = settle_up(game)
    assert all(net == 0 for net in apply(game, payments).values())
    assert fewest(values) == len(payments)


def test_a_large_game_still_settles_exactly() -> None:
    """Past the exact limit everyone settles as one group: every net evened, at most one payment
    fewer than the players."""
    game = {f"p{k}": (k + 1) * (-1) ** k for k in range(19)}
    game["p19"] = -sum(game.values())
    payments = settle_up(game)
    assert all(net == 0 for net in apply(game, payments).values())
    assert len(payments) <= 19


@pytest.mark.parametrize(
    ("nets", "message"),
    [
        ({"ann": 10, "bob": -5}, "the nets must sum to zero (every chip won was lost), got +5"),
        ({"ann": 1.5, "bob": -1.5}, "ann's net must be a whole number of chips, got 1.5"),
        ({"ann": True, "bob": -1}, "ann's net must be a whole number of chips, got True"),
    ],
)
def test_nets_that_cannot_be_settled_are_refused_by_name(nets: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidConfigError) as refused:
        settle_up(nets)  # type: ignore[arg-type]
    assert message == str(refused.value)
