"""Tournament foundations: structures (rule 23), places and prizes (rule 29), ICM (rule 31)."""

import itertools
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cli import main
from holdem.errors import InvalidConfigError
from holdem.tournament import SHIPPED, StructureError, icm, load_structure, payout_shares, prizes
from tests.strategies import examples


def brute_force_icm(stacks: list[int], prizes_by_place: list[float]) -> list[float]:
    """Every finishing order with its Malmuth-Harville probability, summed up (rule 31's definition)."""
    equities = [0.0] * len(stacks)
    live = [i for i, s in enumerate(stacks) if s]
    for order in itertools.permutations(live):
        probability, left = 1.0, sum(stacks)
        for i in order:
            probability *= stacks[i] / left
            left -= stacks[i]
        for place, i in enumerate(order):
            if place < len(prizes_by_place):
                equities[i] += probability * prizes_by_place[place]
    return equities


def test_rule_31_icm_matches_a_hand_computation() -> None:
    """5000/3000/2000 for 50/30/20: A is first half the time, second 0.3*5/7 + 0.2*5/8, and so on."""
    a_second = 0.3 * 5 / 7 + 0.2 * 5 / 8
    a = 50 * 0.5 + 30 * a_second + 20 * (1 - 0.5 - a_second)
    result = icm([5000, 3000, 2000], [50, 30, 20])
    assert "exact" == result.method
    assert pytest.approx([a, 32.75, 100 - a - 32.75]) == list(result.equities)


@given(
    stacks=st.lists(st.integers(0, 10_000), min_size=2, max_size=7).filter(
        lambda s: sum(1 for x in s if x) >= 1
    ),
    paid=st.lists(st.integers(0, 1000), min_size=1, max_size=7),
)
@settings(max_examples=examples(150), deadline=None)
def test_rule_31_icm_agrees_with_every_finishing_order(stacks: list[int], paid: list[int]) -> None:
    prizes_by_place = sorted(paid, reverse=True)
    expected = brute_force_icm(stacks, prizes_by_place)
    assert pytest.approx(expected, abs=1e-9, rel=1e-9) == list(icm(stacks, prizes_by_place).equities)


def test_rule_31_busted_players_have_nothing_and_equal_stacks_are_equal() -> None:
    result = icm([4000, 0, 4000, 2000], [60, 40])
    assert 0.0 == result.equities[1]
    assert result.equities[0] == pytest.approx(result.equities[2])
    assert pytest.approx(100.0) == sum(result.equities)


def test_rule_31_sampled_estimates_agree_with_exact_within_three_standard_errors() -> None:
    stacks = [9000, 7000, 6500, 5000, 4200, 3000, 2500, 1800, 1200, 600, 200, 50]
    paid = [30.0, 20, 14, 10, 8, 6, 5, 4, 3]
    exact, sampled = icm(stacks, paid), icm(stacks, paid, method="sampled", samples=100_000, rng=3)
    assert "sampled" == sampled.method and all(e > 0 for e in sampled.stderr)
    for e, s, error in zip(exact.equities, sampled.equities, sampled.stderr, strict=True):
        assert abs(e - s) <= 3 * error


def test_rule_31_large_fields_are_sampled() -> None:
    result = icm([1000 + 7 * k for k in range(40)], [50, 30, 20], samples=2000, rng=1)
    assert "sampled" == result.method and pytest.approx(100.0) == sum(result.equities)


@pytest.mark.parametrize(
    ("stacks", "prizes_by_place", "message"),
    [([100, -1], [1], "non-negative whole"), ([0, 0], [1], "at least one stack"), ([5, 5], [], "prizes"),
     ([5, 5], [float("nan")], "finite"), ([5, 5.5], [1], "whole numbers")],  # type: ignore[list-item]
)  # fmt: skip
def test_rule_31_bad_icm_input_is_a_clear_error(
    stacks: list[int], prizes_by_place: list[float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        icm(stacks, prizes_by_place)


def test_rule_31_sampled_equal_stacks_have_equal_equity() -> None:
    """Above the exact limit, equal stacks still get exactly equal equity (and error)."""
    stacks = [1000] * 10 + [500] * 6
    result = icm(stacks, [50, 30, 20, 10, 5], samples=20_000, rng=7)
    assert "sampled" == result.method
    assert {result.equities[0]} == set(result.equities[:10]) and {result.equities[-1]} == set(
        result.equities[10:]
    )
    assert {result.stderr[0]} == set(result.stderr[:10])
    assert pytest.approx(115.0) == sum(result.equities)


def test_icm_command_says_when_prizes_outnumber_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["icm", "--stacks", "1,2", "--prizes", "10,5,3"])
    assert "3 prizes but 2 players with chips" in capsys.readouterr().out


def test_icm_command_reports_a_negative_stack(capsys: pytest.CaptureFixture[str]) -> None:
    """`--stacks -1,2` reaches the stacks' own check, not argparse's "expected one argument"."""
    assert 2 == main(["icm", "--stacks", "-1,2", "--prizes", "10"])
    assert "stacks must be non-negative whole numbers, got [-1, 2]" in capsys.readouterr().err


def test_icm_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["icm", "--stacks", "5000,3000,2000", "--prizes", "50,30,20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert ("exact", [0.0, 0.0, 0.0]) == (data["method"], data["stderr"])
    assert pytest.approx([38.392857, 32.75, 28.857143]) == data["equities"]


@pytest.mark.parametrize(
    ("entrants", "expected"),
    [(2, (100,)), (3, (100,)), (4, (100,)), (5, (65, 35)), (6, (65, 35)), (7, (65, 35)), (8, (50, 30, 20)),
     (9, (50, 30, 20)), (10, (50, 30, 20)), (11, (40, 30, 20, 10)), (18, (40, 30, 20, 10)),
     (20, (40, 30, 20, 10))],
)  # fmt: skip
def test_rule_29_standard_payouts_for_small_fields(entrants: int, expected: tuple[int, ...]) -> None:
    assert expected == payout_shares(entrants)


@pytest.mark.parametrize(("entrants", "paid"), [(21, 4), (27, 4), (30, 4), (37, 6), (44, 7), (100, 15)])
def test_rule_29_a_large_field_pays_15_percent_of_it_rounded_to_the_nearest_place(
    entrants: int, paid: int
) -> None:
    """15% of 37 is 5.55: six places, not five (rounded, not truncated); of 44, 6.6: seven; of 30,
    4.5: four (to the even place); never fewer than four. Place k's share is 1/k of place 1's, so
    with six places first gets 100 / (1 + 1/2 + … + 1/6) = 100 / 2.45 of the pool."""
    shares = payout_shares(entrants)
    assert paid == len(shares)
    harmonic = sum(1 / k for k in range(1, paid + 1))
    assert pytest.approx([100 / harmonic / k for k in range(1, paid + 1)]) == list(shares)


def test_rule_29_large_fields_pay_about_15_percent_top_heavy() -> None:
    shares = payout_shares(180)
    assert 27 == len(shares) and pytest.approx(100.0) == sum(shares)
    assert all(a > b for a, b in itertools.pairwise(shares))
    assert 20 < shares[0] < 30


@given(pool=st.integers(0, 10**9), shares=st.lists(st.floats(0.01, 100), min_size=1, max_size=40))
@settings(max_examples=examples(300), deadline=None)
def test_rule_29_prizes_add_up_to_the_pool_with_remainders_to_the_top(pool: int, shares: list[float]) -> None:
    shares.sort(reverse=True)
    paid = prizes(pool, shares)
    assert pool == sum(paid)
    exact = [pool * s / sum(shares) for s in shares]
    assert all(p >= math.floor(e) - 1 and p <= math.floor(e) + 2 for p, e in zip(paid, exact, strict=True))


def test_rule_29_odd_units_go_one_each_from_first() -> None:
    assert (34, 33, 33) == prizes(100, [1, 1, 1])
    assert (450, 270, 180) == prizes(900, payout_shares(9))


@pytest.mark.parametrize("shares", [[], [30, 50], [50, 0], [50, -5], [True]])
def test_rule_29_bad_shares_are_refused(shares: list[float]) -> None:
    with pytest.raises(ValueError, match="shares"):
        prizes(100, shares)


@pytest.mark.parametrize("name", SHIPPED)
def test_rule_23_shipped_structures_load_and_escalate(name: str) -> None:
    structure = load_structure(name)
    assert structure.starting_stack > 0 and len(structure.levels) >= 10
    bigs = [level.big_blind for level in structure.levels]
    assert bigs == sorted(bigs) and len(set(bigs)) == len(bigs)
    assert all(level.ante < level.big_blind for level in structure.levels)


def test_rule_23_levels_change_on_the_tournament_clock() -> None:
    structure = load_structure("turbo")  # 5-minute levels, 21 of them
    assert [0, 0, 1, 2, 20, 21, 22] == [structure.level_at(t) for t in (0, 4.99, 5, 12, 104.9, 105, 110)]
    assert 30 == structure.level(1).stakes().big_blind


def test_rule_23_past_its_last_level_a_structure_keeps_doubling() -> None:
    """So that every tournament ends, even between players who never risk a chip."""
    structure = load_structure("turbo")
    last = structure.levels[-1]
    assert (2 * last.big_blind, 4 * last.big_blind, 4 * last.ante) == (
        structure.level(21).big_blind, structure.level(22).big_blind, structure.level(22).ante,
    )  # fmt: skip


def level(small: int, big: int, **more: object) -> dict[str, object]:
    return {"small_blind": small, "big_blind": big, "duration": 5} | more


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        ([], "at least one level"),
        ([{"small_blind": 10, "big_blind": 20, "duration": 0}], "duration must be a positive"),
        ([level(30, 20)], "small blind 30 is more than the big blind 20"),
        ([level(10, 20, ante=20)], "ante 20 must be less than"),
        ([level(20, 40), level(10, 20)], "level 2: blinds 10/20 are lower"),
        ([level(10, 20)] * 2, "level 2: the same blinds"),
        ([level(10, 20, color_up=True)], "unknown fields"),
        ([level("10", 20)], "small_blind must be a whole number"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_rule_23_malformed_structures_are_refused(levels: list[object], message: str, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"starting_stack": 1000, "levels": levels}))
    with pytest.raises(StructureError, match=message):
        load_structure(path)


def test_rule_23_custom_structures_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(
        "starting_stack = 2000\n[[levels]]\nsmall_blind = 5\nbig_blind = 10\nduration = 12\n"
        "[[levels]]\nsmall_blind = 10\nbig_blind = 20\nante = 15\nbig_blind_ante = true\nduration = 12\n"
    )
    structure = load_structure(path)
    assert ("club", 2000, 15) == (
        structure.name,
        structure.starting_stack,
        structure.levels[1].stakes().big_blind_ante,
    )
    for bad in (tmp_path / "nope.toml", tmp_path / "club.txt", "no-such-structure"):
        with pytest.raises(StructureError):
            load_structure(bad)


def test_rule_23_the_level_in_force_is_one_rule_for_one_clock_and_for_many() -> None:
    """`BlindStructure.level_at` (the tournament director's) and `BlindStructure.levels_at` (the vector
    sit-and-gos', one clock per table) agree at every minute, on each level's end, and past the last
    listed level, where the doubled levels follow one a last level's duration apart."""
    import numpy as np

    turbo = load_structure("turbo")
    minutes = np.array(
        sorted({*np.linspace(0, 3 * turbo.ends[-1], 997), *turbo.ends, *(e - 1e-9 for e in turbo.ends)})
    )
    assert [turbo.level_at(float(m)) for m in minutes] == turbo.levels_at(minutes).tolist()
    assert turbo.level_at(turbo.ends[0]) == 1 and turbo.level_at(turbo.ends[0] - 1e-9) == 0
    last = turbo.levels[-1].duration
    assert len(turbo.levels) + 2 == turbo.level_at(turbo.ends[-1] + 2 * last)


def test_the_blind_structure_has_its_own_name_and_the_old_one_warns() -> None:
    """`holdem.Structure` is the betting structure; the tournament's is `BlindStructure`. The old
    `holdem.tournament.Structure` still works for a release, with a DeprecationWarning."""
    import holdem.tournament
    import holdem.tournament.structure
    from holdem.tournament import BlindStructure

    with pytest.warns(DeprecationWarning, match="now BlindStructure"):
        assert holdem.tournament.Structure is BlindStructure  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match="now BlindStructure"):
        assert holdem.tournament.structure.Structure is BlindStructure  # type: ignore[attr-defined]
    assert isinstance(load_structure("turbo"), BlindStructure)


@pytest.mark.parametrize("entrants", [1, 0, -3, 2.0, True, "9"])
def test_rule_29_fewer_than_two_entrants_or_not_a_whole_number_is_refused(entrants: object) -> None:
    with pytest.raises(InvalidConfigError, match=r"a tournament needs at least 2 entrants, got"):
        payout_shares(entrants)  # type: ignore[arg-type]


@pytest.mark.parametrize("pool", [-1, 1.5, True, "100"])
def test_rule_29_a_prize_pool_that_is_not_a_non_negative_whole_number_is_refused(pool: object) -> None:
    with pytest.raises(InvalidConfigError, match=r"the prize pool must be a non-negative whole number, got"):
        prizes(pool, [1, 1])  # type: ignore[arg-type]
