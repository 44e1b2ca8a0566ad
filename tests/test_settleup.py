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


def test_within_a_group_the_largest_debt_pays_the_largest_credit_ties_by_name() -> None:
    """Worked by hand: no smaller group evens out, so the four settle as one. dan owes most (8) and
    pays the largest credit, ann (6; ann before bea at 6 each); then cat owes most (4, to dan's 2)
    and pays bea, and dan pays bea the rest."""
    nets = {"ann": 6, "bea": 6, "cat": -4, "dan": -8}
    expected = [Payment("dan", "ann", 6), Payment("cat", "bea", 4), Payment("dan", "bea", 2)]
    assert expected == settle_up(nets)
    # The largest credit first, whatever its name: bea's 8 before ann's 2.
    assert [Payment("cat", "bea", 8), Payment("cat", "ann", 2)] == settle_up({"ann": 2, "bea": 8, "cat": -10})


def test_seven_players_in_three_groups_that_each_even_out() -> None:
    """Two games of seven that split into three groups each, so 7 - 3 = 4 payments (found by a search
    for games that tell a wrong subset walk from the right one: it finds two groups, and five
    payments for the second game)."""
    first = {"p0": 6, "p1": -2, "p2": -1, "p3": -5, "p4": -4, "p5": 5, "p6": 1}
    payments = settle_up(first)
    assert 4 == len(payments) == fewest(list(first.values()))
    assert {Payment("p3", "p5", 5), Payment("p2", "p6", 1)} <= set(payments)
    second = {"p0": 4, "p1": 2, "p2": -6, "p3": 1, "p4": 6, "p5": -2, "p6": -5}
    assert 4 == len(settle_up(second)) == fewest(list(second.values()))


def test_past_the_exact_limit_everyone_settles_as_one_group() -> None:
    """17 players with a non-zero net: six pairs that even out (100 to 600 up and down) and five who
    could settle in three payments ({+4, -4} and {+3, +2, -5}). As one group, the pairs still pay each
    other (largest debt to largest credit), and the five take four payments: ten, one more than the
    fewest (nine), which only the exact search below the limit finds."""
    pairs = {f"up{k}": 100 * k for k in range(1, 7)} | {f"down{k}": -100 * k for k in range(1, 7)}
    game = pairs | {"a": 4, "b": 3, "c": 2, "d": -5, "e": -4}
    assert 17 == len(game)
    payments = settle_up(game)
    assert all(net == 0 for net in apply(game, payments).values())
    assert 10 == len(payments) and 9 == fewest(list(game.values()))
    for k in range(1, 7):
        assert Payment(f"down{k}", f"up{k}", 100 * k) in payments


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
