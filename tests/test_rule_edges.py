"""Rules at their edges, each worked out by hand from the rule: raise caps and reopening in fixed-limit
(rules 8, 9, 13) and under a game's own cap, the set-up's refusals word for word, forced bets in
the log and the pot, who shows and who mucks (rule 19), and the rake of a single pot (rule 20)."""

from __future__ import annotations

from typing import Any

import pytest

from holdem import Action, Hand, Stakes
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.errors import HoldemError, InvalidConfigError
from holdem.hand.pots import Pot
from holdem.hand.showdown import reveal, showdown_order
from holdem.hand.stakes import Rules, Structure
from holdem.table.table import Table
from holdem.tournament.structure import structure


def dealt(holes: str, board: str = "") -> Deck:
    """A deck dealing these hole cards (two per player, in dealing order) and this board."""
    cards = parse_cards(holes)
    return Deck.for_hand([cards[i : i + 2] for i in range(0, len(cards), 2)], parse_cards(board))


def play(hand: Hand, *actions: Action) -> Hand:
    for action in actions:
        hand.act(action)
    return hand


# ----------------------------------------------------------------------------------- betting


def test_a_games_own_cap_on_raise_actions_per_round() -> None:
    """`max_raises` (ACPC's maxRaises): with two per round, the third player may only call."""
    hand = Hand.start([100] * 4, Stakes(1, 2), rules=Rules(max_raises=(2, 2, 2, 2)))
    play(hand, Action.raise_to(4))
    assert hand.legal_actions().min_raise_to == 6  # type: ignore[union-attr]
    play(hand, Action.raise_to(6))
    assert hand.legal_actions().min_raise_to is None  # type: ignore[union-attr]


def test_a_games_own_cap_replaces_fixed_limits_bet_and_four_raises() -> None:
    """Fixed-limit with its own cap of ten raise actions: a fifth raise is still allowed (rule 13's
    bet and four raises is the default cap, not the game's)."""
    hand = Hand.start(
        [100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT), rules=Rules(max_raises=(10,) * 4)
    )
    play(hand, *(Action.raise_to(to) for to in (4, 6, 8, 10)))
    assert hand.legal_actions().min_raise_to == 12  # type: ignore[union-attr]


def test_fixed_limit_bet_and_four_raises_preflop() -> None:
    """Rule 13: the big blind is the bet, so four raises preflop (to 4, 6, 8, 10) close the raising."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    play(hand, Action.raise_to(4), Action.raise_to(6), Action.raise_to(8))
    assert hand.legal_actions().min_raise_to == 10  # type: ignore[union-attr]
    play(hand, Action.raise_to(10))
    assert hand.legal_actions().min_raise_to is None  # type: ignore[union-attr]


def test_fixed_limit_small_bet_on_the_flop_big_bet_on_the_turn() -> None:
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    play(hand, Action.call(), Action.call(), Action.check())
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (2, 2)
    play(hand, Action.check(), Action.check(), Action.check())
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (4, 4)


def test_fixed_limit_an_all_in_under_half_a_bet_is_not_a_raise_for_the_cap() -> None:
    """Small bet 10: UTG raises to 20, the button moves in for 24 (4 more, under half a bet: not a
    raise, rule 13), then the blinds raise to 34 and 44: UTG may still raise, to 54, as the fourth
    raise; after it, nobody may."""
    stakes = Stakes(5, 10, structure=Structure.FIXED_LIMIT)
    hand = Hand.start([200, 200, 200, 24], stakes)
    play(hand, Action.raise_to(20), Action.raise_to(24), Action.raise_to(34), Action.raise_to(44))
    assert hand.legal_actions().min_raise_to == 54  # type: ignore[union-attr]
    play(hand, Action.raise_to(54))
    assert hand.legal_actions().min_raise_to is None  # type: ignore[union-attr]


def test_fixed_limit_a_short_all_in_reopens_only_at_half_a_bet() -> None:
    """Big bet 6 on the turn: a bets 6, b moves in for 8 (2 more: a third of a bet), c calls; a, who
    bet, may not raise again: less than half a bet was added (rule 13)."""
    stakes = Stakes(1, 2, structure=Structure.FIXED_LIMIT, small_bet=3, big_bet=6)
    hand = Hand.start([100, 10, 100], stakes)
    play(hand, Action.call(), Action.call(), Action.check())  # preflop: 2 each
    play(hand, Action.check(), Action.check(), Action.check())  # flop
    play(hand, Action.raise_to(6), Action.raise_to(8), Action.call())  # turn: a, b all-in, c
    legal = hand.legal_actions()
    assert legal is not None and legal.player == 0 and legal.min_raise_to is None


# ----------------------------------------------------------------------------------- set-up


THIRTEEN = Deck(parse_cards("AsKsQsJsTs9s8s7s6s5s4s3s2s"))
TWO, THREE = [100, 100], [100, 100, 100]


@pytest.mark.parametrize(
    ("stacks", "options", "message"),
    [
        ([100] * 11, {}, "a hand needs 2 to 10 players, got 11"),
        ([100, 0], {}, "stack of player 1 must be a positive whole number of chips, at most"),
        (TWO, {"blinds": [1, -2]}, "blinds must be 2 non-negative whole numbers, got [1, -2]"),
        (TWO, {"blinds": [1, 2.0]}, "blinds must be 2 non-negative whole numbers, got [1, 2.0]"),
        (TWO, {"dead": [0, -1]}, "dead money must be 2 non-negative whole numbers, got [0, -1]"),
        (TWO, {"dead": [0, 1.5]}, "dead money must be 2 non-negative whole numbers, got [0, 1.5]"),
        (TWO, {"dead": [0]}, "dead money must be 2 non-negative whole numbers, got [0]"),
        (TWO, {"first_to_act": 2}, "first_to_act must be a player 0..1, got 2"),
        (TWO, {"first_to_act": 1.0}, "first_to_act must be a player 0..1, got 1.0"),
        (THREE, {"big_blind_player": 3}, "big_blind_player must be a player 0..2, got 3"),
        (THREE, {"big_blind_player": 1.0}, "big_blind_player must be a player 0..2, got 1.0"),
        (TWO, {"rules": "strict"}, "rules must be a Rules, got 'strict'"),
        (THREE, {"deck": THIRTEEN}, "the deck has 13 cards; 3 players need 14"),
        (THREE, {"deck": "AsKs"}, "the deck is 'AsKs'; 3 players need 14"),
    ],
)
def test_a_hand_that_cannot_start_says_why(
    stacks: list[int], options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidConfigError) as raised:
        Hand.start(stacks, Stakes(1, 2), **options)  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


def test_a_deck_with_just_enough_cards_starts_a_hand() -> None:
    cards = parse_cards("AsKsQsJsTs9s8s7s6s5s4s3s2sAh")
    assert Hand.start([100] * 3, Stakes(1, 2), deck=Deck(cards)).actor == 2


def test_forced_bets_in_the_log_and_the_pot() -> None:
    """Blinds are logged as blinds; without a big-blind ante nobody posts one; declared dead money
    and a big-blind ante both go to the pot as dead money, not as bets (rules 4, 5)."""
    plain = Hand.start([100] * 3, Stakes(1, 2))
    assert [(kind, player, amount) for kind, player, _, amount, *_ in plain.log[:2]] == [
        ("blind", 0, 1),
        ("blind", 1, 2),
    ]
    assert not [entry for entry in plain.log if entry[0] == "ante"]
    hand = Hand.start([100] * 3, Stakes(1, 2, big_blind_ante=3), dead=[0, 0, 1])
    assert hand.pot == 1 + 2 + 3 + 1  # the blinds, the big blind's ante for the table, the dead chip
    assert hand.bets == [1, 2, 0]


# ---------------------------------------------------------------------------------- showdown


def test_showdown_order_from_the_last_aggressor_or_left_of_the_button() -> None:
    """Rule 19: the last aggressor on the river shows first, then round the table; with none (or
    one no longer in the hand), the first player in left of the button."""
    assert showdown_order([0, 2, 3], 2) == [2, 3, 0]
    assert showdown_order([3, 0, 2], None) == [0, 2, 3]
    assert showdown_order([0, 2, 3], 1) == [0, 2, 3]


def test_a_hand_that_cannot_win_a_pot_it_is_in_is_mucked() -> None:
    """Rule 19 with mucking: each player shows only a hand at least as good as the best shown among
    the players of some pot they are in; a side pot is judged on its own."""
    main, side = Pot(30, (0, 1, 2)), Pot(20, (1, 2))
    assert reveal([0, 1, 2], {0: 90, 1: 50, 2: 60}, [main, side], show_all=False) == [0, 1, 2]
    assert reveal([0, 1, 2], {0: 90, 1: 50, 2: 40}, [main, side], show_all=False) == [0, 1]
    assert reveal([0, 1, 2], {0: 90, 1: 90, 2: 40}, [main], show_all=False) == [0, 1]  # a tie shows
    assert reveal([0, 1, 2], {0: 90, 1: 50, 2: 40}, [main], show_all=True) == [0, 1, 2]
    # The second shows for a pot of its own; the main pot's best is still the first's 90.
    assert reveal([0, 1, 2], {0: 90, 1: 50, 2: 60}, [main, Pot(20, (1,))], show_all=False) == [0, 1]


def test_with_side_pots_and_no_all_in_at_the_end_losers_muck() -> None:
    """The button is all-in preflop for 10; the blinds bet 10 more on the flop and check the turn and
    the river. The small blind (first left of the button) shows the best hand; the big blind, beaten
    in both pots, mucks, and so does the button, beaten in the main pot."""
    deck = dealt("AhAd 7c2d Kh9s", "Ac8s4d3c2h")
    hand = Hand.start([100, 100, 10], Stakes(1, 2), deck=deck)
    play(hand, Action.raise_to(10), Action.call(), Action.call())
    play(hand, Action.raise_to(10), Action.call())
    for _ in range(2):
        play(hand, Action.check(), Action.check())
    result = hand.result
    assert result is not None
    assert result.shown[0] is not None and result.shown[1] is None and result.shown[2] is None
    assert result.payouts == (50, 0, 0) and result.winners == ((0,), (0,))


def test_the_rake_of_a_single_pot_is_its_percentage_rounded_down_and_capped() -> None:
    """Rule 20: 5% of a 200 pot is 10; of 190, 9 (9.5 rounded down); a cap of 4 holds it to 4."""
    for stacks, rules, rake in (
        ([100, 100], Rules(rake_percent=5), 10),
        ([95, 95], Rules(rake_percent=5), 9),
        ([100, 100], Rules(rake_percent=5, rake_cap=4), 4),
    ):
        hand = Hand.start(stacks, Stakes(1, 2), rules=rules, deck=dealt("AhAd 7c2d", "Ac8s4d3c2h"))
        play(hand, Action.all_in(), Action.call())
        assert hand.result is not None and hand.result.rake == rake
        assert hand.result.payouts == (2 * stacks[0] - rake, 0)


def test_fixed_limit_preflop_raises_by_the_small_bet() -> None:
    """Rule 13: preflop and on the flop the raise is the small bet, here 3 over a big blind of 2."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT, small_bet=3, big_bet=6))
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (5, 5)


def test_fixed_limit_bet_and_four_raises_after_the_flop() -> None:
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    play(hand, Action.call(), Action.call(), Action.check())
    play(hand, Action.raise_to(2), Action.raise_to(4), Action.raise_to(6), Action.raise_to(8))
    assert hand.legal_actions().min_raise_to == 10  # type: ignore[union-attr]
    play(hand, Action.raise_to(10))
    assert hand.legal_actions().min_raise_to is None  # type: ignore[union-attr]


def test_fixed_limit_an_all_in_of_exactly_half_a_bet_is_a_raise() -> None:
    """Rule 13: small bet 10; UTG raises to 20, the button moves in for 25 (exactly half a bet: a
    raise), the blinds raise to 35 and 45: that is the bet and four raises, so UTG may only call."""
    hand = Hand.start([200, 200, 200, 25], Stakes(5, 10, structure=Structure.FIXED_LIMIT))
    play(hand, Action.raise_to(20), Action.raise_to(25), Action.raise_to(35), Action.raise_to(45))
    assert hand.legal_actions().min_raise_to is None  # type: ignore[union-attr]


def test_acpc_rules_reopen_on_any_raise_and_set_the_next_minimum() -> None:
    """ACPC: a short all-in reopens the betting for everyone, and the next raise must go at least as
    far above it as the previous minimum or as the short raise went (here to 10: 7 + 3)."""
    hand = Hand.start([7, 100, 100], Stakes(1, 2), rules=Rules.acpc())
    play(hand, Action.raise_to(6), Action.raise_to(7), Action.call())  # the small blind 1 more, all-in
    legal = hand.legal_actions()
    assert legal is not None and legal.player == 2 and legal.min_raise_to == 10


def test_the_first_player_to_act_may_be_player_0_and_bad_types_are_named() -> None:
    assert Hand.start([100] * 3, Stakes(1, 2), first_to_act=0).actor == 0
    with pytest.raises(InvalidConfigError) as raised:
        Hand.start([100, 100], "1/2")  # type: ignore[arg-type]
    assert str(raised.value) == "stakes must be a Stakes, got '1/2'"
    with pytest.raises(InvalidConfigError) as raised:
        Hand.start([100, 100], Stakes(1, 2), dead_button="no")  # type: ignore[arg-type]
    assert str(raised.value) == "dead_button must be true or false, got 'no'"
    with pytest.raises(InvalidConfigError, match="stack of player 0 must be a positive whole number"):
        Hand.start([100.0, 100.0], Stakes(1, 2))  # type: ignore[list-item]


def test_antes_are_logged_and_every_dead_chip_goes_to_the_winner() -> None:
    """Each ante is an "ante" entry; with a big-blind ante and dead money declared for another
    player, the big blind's walk collects the small blind, the table's ante and the dead chip
    (and its own unmatched chip comes back)."""
    hand = Hand.start([100] * 3, Stakes(1, 2, ante=1))
    assert [entry[:4] for entry in hand.log[:3]] == [("ante", i, (), 1) for i in range(3)]
    walk = Hand.start([100] * 3, Stakes(1, 2, big_blind_ante=3), dead=[0, 0, 1])
    play(walk, Action.fold(), Action.fold())
    assert walk.result is not None and walk.result.payouts == (0, 1 + 1 + 3 + 1, 0)
    assert walk.result.final_stacks == (99, 102, 99)


def test_no_flop_no_drop() -> None:
    """Rule 20: a hand won before the flop pays no rake, however large the pot (here 201: the small
    blind, the raise to 100 and as much of the re-raise as it matched)."""
    hand = Hand.start([1000] * 3, Stakes(1, 2), rules=Rules(rake_percent=5))
    play(hand, Action.raise_to(100), Action.fold(), Action.raise_to(300), Action.fold())
    assert hand.result is not None and hand.result.rake == 0 and hand.result.payouts == (0, 201, 0)


def test_all_in_with_side_pots_every_hand_is_shown() -> None:
    """Rule 19: when betting ends with players all-in, every hand is shown, side pots or not."""
    deck = dealt("AhAd 7c2d Kh9s", "Ac8s4d3c2h")
    hand = Hand.start([100, 50, 10], Stakes(1, 2), deck=deck)
    play(hand, Action.all_in(), Action.all_in(), Action.call())
    assert hand.result is not None and all(cards is not None for cards in hand.result.shown)


def test_rule_11_a_covered_player_is_passed_over_and_the_players_after_them_are_still_asked() -> None:
    """The big blind's 2 covers both others (2 in all each). With the first to act named as the big
    blind (a table's set-up may name anyone), the big blind is passed over and the button is asked;
    then the small blind."""
    hand = Hand.start([2, 100, 2], Stakes(1, 2), first_to_act=1)
    assert 2 == hand.actor
    hand.act(Action.call())
    assert 0 == hand.actor


TOO_MANY = 10**12 + 1


@pytest.mark.parametrize(
    ("refused", "named"),
    [
        (lambda: Stakes(1, TOO_MANY), "big blind"),
        (lambda: Hand.start([100, TOO_MANY], Stakes(1, 2)), "stack of player 1"),
        (lambda: Table(2, Stakes(1, 2)).sit(0, "ann", TOO_MANY), "the stack of seat 0"),
        (
            lambda: structure("big", TOO_MANY, [{"small_blind": 1, "big_blind": 2, "minutes": 5}]),
            "starting_stack",
        ),
    ],
    ids=["stakes", "hand", "table", "tournament"],
)
def test_one_chip_check_with_one_limit_names_what_it_refuses(refused: Any, named: str) -> None:
    """Stakes, a hand's stacks, a table's seats and a tournament's starting stack are checked by one
    function (`holdem.hand.stakes.check_chips`), with the engine's limit, in the same words."""
    with pytest.raises(
        HoldemError, match=f"^{named} must be a positive whole number of chips, at most 1,000,000,000,000"
    ):
        refused()
