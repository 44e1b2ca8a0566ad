"""Settlement by hand (rules 16-20): pots built from contributions, the rake, and awards, each
expected value worked out from the rule, not from the engine's output."""

from __future__ import annotations

import pytest

from holdem.hand.pots import Pot, award, build_pots, take_rake


def test_rule_17_chips_a_folded_player_put_above_every_live_level_join_the_last_pot() -> None:
    """Contributions 10, 50 (folded) and 30: the main pot is 10 from each (30, players 0 and 2),
    the side pot 20 from players 1 and 2 (40, player 2 alone), and the folded player's last 20
    join it: 60."""
    assert [Pot(30, (0, 2)), Pot(60, (2,))] == build_pots([10, 50, 30], [False, True, False])


def test_rule_17_with_three_pots_the_folded_excess_joins_the_last() -> None:
    """Contributions 10, 20, 50 (folded) and 30: pots of 40 (players 0, 1, 3), 30 (1, 3) and 20
    (3), and the folded player's last 20 join the last: 40."""
    expected = [Pot(40, (0, 1, 3)), Pot(30, (1, 3)), Pot(40, (3,))]
    assert expected == build_pots([10, 20, 50, 30], [False, False, True, False])


def test_rule_17_a_player_all_in_for_one_chip_has_a_pot_of_their_own() -> None:
    """Contributions 1, 5 and 5: a main pot of 3 for everyone, a side pot of 8 for players 1 and 2."""
    assert [Pot(3, (0, 1, 2)), Pot(8, (1, 2))] == build_pots([1, 5, 5], [False, False, False])


def test_rule_17_a_player_who_put_in_nothing_makes_no_pot() -> None:
    """Contributions 0, 20 and 20: one pot of 40 for players 1 and 2 only, not an empty pot first."""
    assert [Pot(40, (1, 2))] == build_pots([0, 20, 20], [False, False, False])


def test_rule_05_dead_money_alone_is_one_pot_for_every_player_still_in() -> None:
    """Nothing contributed but a dead big-blind ante of 3: one pot of 3 for both players."""
    assert [Pot(3, (0, 1))] == build_pots([0, 0], [False, False], dead=3)
    assert [Pot(23, (0, 1)), Pot(10, (1,))] == build_pots([10, 20], [False, False], dead=3)


def test_rule_20_rake_is_the_percentage_of_the_pot_rounded_down_from_the_main_pot_first() -> None:
    """5% of 200 is 10; 5% of 219 is 10.95, rounded down to 10; taken from the main pot first,
    then the side pot once the main pot is empty."""
    assert ([Pot(90, (0, 1)), Pot(100, (1,))], 10) == take_rake([Pot(100, (0, 1)), Pot(100, (1,))], 5, None)
    assert ([Pot(109, (0, 1)), Pot(100, (1,))], 10) == take_rake([Pot(119, (0, 1)), Pot(100, (1,))], 5, None)
    assert ([Pot(0, (0, 1)), Pot(5, (1,))], 10) == take_rake([Pot(5, (0, 1)), Pot(10, (1,))], 100, 10)


def test_rule_18_a_pot_nobody_shows_for_is_split_among_its_players() -> None:
    """Every player of a pot mucked (none can win it): the pot is split among them, the odd chip to
    the first of them left of the button, and the winners say so."""
    assert ([6, 5], [(0, 1)]) == award([Pot(11, (0, 1))], [None, None])


def test_rule_18_the_odd_chips_go_one_at_a_time_from_the_first_player_left_of_the_button() -> None:
    """Three tie for 14: 4 each and 2 odd chips, to players 0 and 1; the side pot of 5 to player 2."""
    payouts, winners = award([Pot(14, (0, 1, 2)), Pot(5, (2,))], [7, 7, 7])
    assert [5, 5, 4 + 5] == payouts and [(0, 1, 2), (2,)] == winners


def test_contributions_and_folds_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="zip"):
        build_pots([10, 20], [False])
