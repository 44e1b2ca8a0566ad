"""Every refusal of an action, word for word: the error names the problem, the player and the street
(checks.py), and the hand is unchanged. Also the seat-order rules (positions.py, rules 1-3) from
worked examples: the names of the positions, who posts the big blind, where the button goes."""

from __future__ import annotations

import pytest

from holdem import Action, Hand, Stakes
from holdem.errors import (
    HandOverError,
    HoldemError,
    IllegalActionError,
    InvalidAmountError,
    InvalidConfigError,
    NotYourTurnError,
)
from holdem.hand.positions import (
    big_blind_player,
    dealing_order,
    default_blinds,
    place_blinds,
    position_names,
)
from holdem.hand.stakes import Structure
from holdem.table.snapshot import to_dict as hand_to_dict


def refused(hand: Hand, action: object, player: int | None, error: type[HoldemError]) -> str:
    """The message of the refusal, the hand checked unchanged by it."""
    before = hand_to_dict(hand)
    with pytest.raises(error) as raised:
        hand.act(action, player)  # type: ignore[arg-type]
    assert hand_to_dict(hand) == before
    return str(raised.value)


def three_handed() -> Hand:
    return Hand.start([100, 100, 100], Stakes(1, 2))


def test_an_action_after_the_hand_is_over() -> None:
    hand = Hand.start([100, 100], Stakes(1, 2))
    hand.act(Action.fold())
    assert refused(hand, Action.call(), None, HandOverError) == "the hand is over; call not accepted"


def test_a_player_number_that_is_not_a_number() -> None:
    message = refused(three_handed(), Action.call(), "2", IllegalActionError)  # type: ignore[arg-type]
    assert message == "player must be a player number, got '2' (player 2, preflop)"


def test_out_of_turn_names_who_is_to_act_and_the_street() -> None:
    hand = three_handed()
    assert refused(hand, Action.call(), 0, NotYourTurnError) == (
        "player 0 acted out of turn; player 2 is to act (preflop)"
    )
    for action in (Action.call(), Action.call(), Action.check()):
        hand.act(action)
    assert refused(hand, Action.check(), 1, NotYourTurnError) == (
        "player 1 acted out of turn; player 0 is to act (flop)"
    )


def test_something_that_is_not_an_action() -> None:
    assert (
        refused(three_handed(), "call", None, IllegalActionError)
        == "not an action: 'call' (player 2, preflop)"
    )


def test_a_fold_when_checking_is_free_under_the_rule_that_forbids_it() -> None:
    from holdem.hand.stakes import Rules

    hand = Hand.start([100, 100], Stakes(1, 2), rules=Rules(forbid_free_fold=True))
    hand.act(Action.call())
    assert refused(hand, Action.fold(), None, IllegalActionError) == (
        "fold when checking is free is not allowed (player 0, preflop)"
    )


def test_a_check_facing_a_bet_says_the_bet_and_what_is_owed() -> None:
    hand = three_handed()
    hand.act(Action.raise_to(6))
    assert refused(hand, Action.check(), None, IllegalActionError) == (
        "cannot check facing a bet of 6; call 5 or fold (player 0, preflop)"  # the small blind owes 6 - 1
    )


def test_a_call_with_nothing_owed_is_a_check() -> None:
    hand = Hand.start([100, 100], Stakes(1, 2))
    hand.act(Action.call())
    hand.act(Action.call())  # the big blind owes nothing: a check (rule 15's note)
    assert hand.history[-1][1] == Action.check()


def test_bets_and_raises_out_of_bounds_say_which_and_the_bound() -> None:
    hand = three_handed()
    assert refused(hand, Action.raise_to(3), None, InvalidAmountError) == (
        "raise to 3 is below the minimum 4 (player 2, preflop)"
    )
    assert refused(hand, Action.raise_to(101), None, InvalidAmountError) == (
        "raise to 101 is above the maximum 100 (player 2, preflop)"
    )
    for action in (Action.call(), Action.call(), Action.check()):
        hand.act(action)
    assert refused(hand, Action.raise_to(1), None, InvalidAmountError) == (
        "bet to 1 is below the minimum 2 (player 0, flop)"  # no bet yet on the flop: a bet
    )
    assert refused(hand, Action.raise_to(99), None, InvalidAmountError) == (
        "bet to 99 is above the maximum 98 (player 0, flop)"
    )


def test_a_raise_or_all_in_when_no_raise_is_allowed() -> None:
    """A short all-in that is not a full raise does not reopen the betting for the raiser (rule 9):
    neither a raise nor an all-in (which would be one) is allowed; fixed-limit caps the raise-to."""
    hand = Hand.start([9, 100, 100], Stakes(1, 2))
    hand.act(Action.raise_to(6))  # the button
    hand.act(Action.raise_to(9))  # the small blind moves in: 3 more, not a full raise of 4
    hand.act(Action.fold())
    assert refused(hand, Action.raise_to(20), None, IllegalActionError) == (
        "raise not allowed; call or fold (player 2, preflop)"
    )
    assert refused(hand, Action.all_in(), None, InvalidAmountError) == (
        "all-in to 100 is not allowed: no raise is allowed (player 2, preflop)"
    )
    limit = Hand.start([100, 100, 100], Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    assert refused(limit, Action.all_in(), None, InvalidAmountError) == (
        "all-in to 100 is not allowed: the maximum raise-to is 4 (player 2, preflop)"
    )


def test_all_in_is_a_call_when_the_chips_just_cover_the_bet() -> None:
    """A player whose chips equal what is owed goes all-in by calling."""
    hand = Hand.start([100, 6, 100], Stakes(1, 2))
    hand.act(Action.raise_to(6))
    hand.act(Action.fold())
    hand.act(Action.all_in())  # the big blind: 2 in, 4 behind, 4 owed
    assert hand.history[-1] == (1, Action.call())
    assert len(hand.board) == 5  # all in: the board is run out to the showdown


# ------------------------------------------------------------------------------- positions


@pytest.mark.parametrize(
    ("players", "names"),
    [
        (2, "BB BTN"),
        (3, "SB BB BTN"),
        (4, "SB BB UTG BTN"),
        (5, "SB BB UTG CO BTN"),
        (6, "SB BB UTG HJ CO BTN"),
        (7, "SB BB UTG LJ HJ CO BTN"),
        (8, "SB BB UTG UTG+1 LJ HJ CO BTN"),
        (9, "SB BB UTG UTG+1 UTG+2 LJ HJ CO BTN"),
        (10, "SB BB UTG UTG+1 UTG+2 UTG+3 LJ HJ CO BTN"),
    ],
)
def test_position_names_as_players_use_them(players: int, names: str) -> None:
    """Counted back from the button: cutoff, hijack, lojack; the rest under the gun on from the big
    blind (heads-up the button posts the small blind and is named the button)."""
    assert " ".join(position_names(players)) == names


def test_straddles_need_players_to_post_them() -> None:
    with pytest.raises(InvalidConfigError, match=r"^straddles need at least three players$"):
        default_blinds(2, Stakes(1, 2, straddles=(4,)))
    with pytest.raises(InvalidConfigError, match=r"^2 straddles need more than 3 players$"):
        default_blinds(3, Stakes(1, 2, straddles=(4, 8)))
    assert default_blinds(4, Stakes(1, 2, straddles=(4, 8))) == [1, 2, 4, 8]  # every player posts
    assert default_blinds(5, Stakes(1, 2, straddles=(4,))) == [1, 2, 4, 0, 0]


def test_the_big_blind_player_for_blinds_given() -> None:
    """Rule 5's big-blind ante is posted by the big blind's position: the player after the small blind
    (heads-up player 0) when it posts the big blind; else the first player who does; else the
    largest blind."""
    stakes = Stakes(1, 2)
    assert big_blind_player([2, 1], stakes) == 0  # heads-up: player 0 (the button is player 1)
    assert big_blind_player([2, 2], stakes) == 0  # heads-up, both posting it: still player 0
    assert big_blind_player([1, 2, 0], stakes) == 1
    assert big_blind_player([0, 2, 0], stakes) == 1  # a dead small blind: still the second position
    assert big_blind_player([2, 0, 0], stakes) == 0  # the big blind first: found where it is posted
    assert big_blind_player([0, 1, 2, 4], stakes) == 2  # a straddle after it: the big blind, not the largest
    assert big_blind_player([0, 3, 1, 0], stakes) == 1  # no big blind at all: the largest blind


def test_dealing_order_starts_left_of_the_button() -> None:
    assert dealing_order([0, 2, 5, 7], button=5, size=9) == [7, 0, 2, 5]
    assert dealing_order([1, 3, 4], button=3, size=6) == [4, 1, 3]


def test_the_first_hand_puts_the_button_where_asked_if_someone_sits_there() -> None:
    assert place_blinds([1, 3, 5], 6, rule="dead", last_button=3, last_small=None, last_big=None) == (3, 5, 1)
    assert place_blinds([1, 3, 5], 6, rule="dead", last_button=2, last_small=None, last_big=None) == (1, 3, 5)
    assert place_blinds([1, 3, 5], 6, rule="dead", last_button=None, last_small=None, last_big=None) == (
        1,
        3,
        5,
    )
    assert place_blinds([2, 4], 6, rule="dead", last_button=4, last_small=None, last_big=None) == (4, 4, 2)


def test_the_dead_button_follows_the_blinds_even_to_empty_seats() -> None:
    """Rule 2: the small blind goes to the last big blind's seat and the button to the last small
    blind's, even when those seats are empty; when that would put the button on the big blind, it
    is dead right behind the small blind."""
    # Seats 0-5; last hand button 0, small 1, big 2; seat 1 has left: the button is dead at 1.
    assert place_blinds([0, 2, 3, 4], 6, rule="dead", last_button=0, last_small=1, last_big=2) == (1, 2, 3)
    # Nine seats; last hand button 0, small 1, big 3; the big blind moves on to seat 5.
    assert place_blinds([0, 1, 3, 5], 9, rule="dead", last_button=0, last_small=1, last_big=3) == (1, 3, 5)
    # Heads-up last hand (seat 0 the button and small blind, 3 the big); a player sits at 5.
    assert place_blinds([0, 3, 5], 6, rule="dead", last_button=0, last_small=0, last_big=3) == (0, 3, 5)
    # Heads-up last hand again, a player sits at 1: the big blind comes round to seat 0, the old
    # button, so the button is dead behind the small blind, at seat 2.
    assert place_blinds([0, 1, 3], 6, rule="dead", last_button=0, last_small=0, last_big=3) == (2, 3, 0)
    # Ten seats; last hand small 6 (gone) and big 8: the button is dead at 6, the small blind at 8.
    assert place_blinds([0, 8, 9], 10, rule="dead", last_button=5, last_small=6, last_big=8) == (6, 8, 9)
