"""The vector showdown settled by hand (rules 17, 18): each column a table, worked out from the rules,
not from the one-hand engine, so that a slip shared by both would still show."""

from __future__ import annotations

import numpy as np
import pytest

from holdem.vector.showdown import board_columns, payouts

# Three players per table, in dealing order (player 0 first left of the button). Each case:
# chips put in, folded, dead money, strengths (higher wins), and what each player wins.
TABLES = {
    "a tie splits one pot": ([10, 10, 10], [0, 0, 0], 0, [5, 7, 7], [0, 15, 15]),
    "the odd chip to the first left of the button": ([5, 5, 5], [0, 0, 0], 2, [6, 1, 6], [9, 0, 8]),
    "a side pot to the best of the deeper two": ([20, 50, 50], [0, 0, 0], 0, [9, 3, 5], [60, 0, 60]),
    "a folded player's chips above every live level join the last pot": (
        [20, 50, 80], [0, 0, 1], 0, [9, 3, 99], [60, 90, 0]
    ),
    "dead money to the main pot, split, odd chip": ([10, 30, 30], [0, 0, 0], 5, [1, 4, 4], [0, 38, 37]),
    "a tie in the main pot, the side pot to one": ([7, 12, 12], [0, 0, 0], 0, [8, 8, 2], [11, 20, 0]),
    "everyone else folded": ([2, 4, 1], [1, 0, 1], 0, [9, 1, 9], [0, 7, 0]),
    "three levels, the shortest best": ([5, 10, 15], [0, 0, 0], 1, [7, 6, 5], [16, 10, 5]),
}  # fmt: skip


def columns(names: list[str]) -> tuple[np.ndarray, ...]:  # type: ignore[type-arg]
    cases = [TABLES[name] for name in names]
    contrib = np.array([c[0] for c in cases], dtype=np.int64).T
    folded = np.array([c[1] for c in cases], dtype=bool).T
    dead = np.array([c[2] for c in cases], dtype=np.int64)
    strength = np.array([c[3] for c in cases], dtype=np.int32).T
    wins = np.array([c[4] for c in cases], dtype=np.int64).T
    return contrib, folded, dead, strength, wins


@pytest.mark.parametrize("name", TABLES)
def test_each_table_alone(name: str) -> None:
    contrib, folded, dead, strength, wins = columns([name])
    assert payouts(contrib, folded, dead, strength).tolist() == wins.tolist()
    assert wins.sum() == contrib.sum() + dead.sum()  # every chip goes to someone


def test_every_table_at_once_single_pots_and_side_pots_mixed() -> None:
    contrib, folded, dead, strength, wins = columns(list(TABLES))
    assert payouts(contrib, folded, dead, strength).tolist() == wins.tolist()


def test_the_board_is_dealt_after_the_hole_cards_with_a_burn_before_each_street() -> None:
    """Two players: hole cards 0-3, burn 4, flop 5-7, burn 8, turn 9, burn 10, river 11."""
    assert board_columns(2) == [5, 6, 7, 9, 11]
    assert board_columns(6) == [13, 14, 15, 17, 19]


def test_rule_18_a_three_way_split_gives_its_odd_chips_one_at_a_time_from_the_left_of_the_button() -> None:
    """One pot of 32 (10 each and 2 dead) split three ways: 10 each, and the two odd chips to players
    0 and 1, the first two left of the button."""
    contrib = np.array([[10], [10], [10]], dtype=np.int64)
    folded = np.zeros((3, 1), dtype=bool)
    strength = np.array([[7], [7], [7]], dtype=np.int32)
    assert [[11], [11], [10]] == payouts(contrib, folded, np.array([2], dtype=np.int64), strength).tolist()
