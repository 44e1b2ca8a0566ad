"""One named test per rule of RULES.md, each from a concrete hand.

Players are in dealing order: player 0 is left of the button, the last player is the button.
"""

from collections.abc import Sequence

import pytest

from holdem.cards.card import CARDS, parse_cards
from holdem.cards.deck import Deck
from holdem.errors import IllegalActionError, InvalidAmountError
from holdem.hand.actions import Action
from holdem.hand.events import Phase
from holdem.hand.invariants import check_hand
from holdem.hand.pots import Pot
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand
from holdem.table.snapshot import from_json, to_json

fold, check, call = Action.fold(), Action.check(), Action.call()


def raise_to(amount: int) -> Action:
    return Action.raise_to(amount)


def deck(holes: Sequence[str], board: str = "") -> Deck:
    """A stacked deck dealing `holes` (one string per player) and then `board`, with burns."""
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = list(parse_cards(board))
    used = {c for h in hole_cards for c in h} | set(board_cards)
    spare = iter(c for c in CARDS if c not in used)
    order = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    for start, count in ((0, 3), (3, 1), (4, 1)):
        order.append(next(spare))
        order += board_cards[start : start + count] or [next(spare) for _ in range(count)]
    return Deck([*order, *spare])


def play(hand: Hand, *actions: Action) -> Hand:
    for action in actions:
        hand.act(action)
        check_hand(hand)
    return hand


def test_rule_01_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    """Heads-up, the button (player 1) posts the small blind, acts first preflop and last on the flop."""
    hand = Hand.start([100, 100], Stakes(1, 2))
    assert ([2, 1], 1) == (hand.bets, hand.actor)
    play(hand, call, check)
    assert (Phase.FLOP, 0) == (hand.phase, hand.actor)


def test_rule_02_a_hand_may_have_no_small_blind() -> None:
    """With a dead small blind only the big blind posts; the player after it acts first."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), blinds=[0, 2, 0])
    assert ([0, 2, 0], 2) == (hand.bets, hand.actor)
    play(hand, call, call, check)
    assert Phase.FLOP == hand.phase


def test_rule_04_short_blind_is_all_in_and_wins_only_what_it_matched() -> None:
    """A small blind with 3 chips is all-in for 3 and, winning, takes 3 from each player."""
    hand = Hand.start([3, 100, 100], Stakes(5, 10), deck=deck(["AsAh", "KsKh", "QsQh"], "2c7d9h3s4d"))
    assert [3, 10, 0] == hand.bets
    play(hand, call, check)
    play(hand, check, check, check, check, check, check)
    assert hand.result is not None
    assert (9, 14) == (hand.result.payouts[0], hand.result.payouts[1])


def test_rule_04_short_ante_is_all_in() -> None:
    """A player who cannot cover the ante posts what they have and is all-in."""
    hand = Hand.start([3, 100, 100], Stakes(1, 2, ante=5))
    assert (0, 3) == (hand.stacks[0], hand.contributions[0])


def test_rule_05_big_blind_ante_is_dead_money() -> None:
    """The big blind posts the table's ante: dead money in the pot, not part of the bet."""
    hand = Hand.start([100, 100, 100], Stakes(5, 10, big_blind_ante=10))
    assert (10, [5, 10, 0], 10) == (hand.dead_money, hand.bets, hand.round.level)
    play(hand, fold, fold)
    assert hand.result is not None
    assert [95, 105, 100] == list(hand.result.final_stacks)  # the ante is won back, never "returned"


@pytest.mark.parametrize(("order", "bet", "dead"), [("blind_first", 10, 5), ("ante_first", 5, 10)])
def test_rule_05_short_big_blind_covers_blind_or_ante_first(order: str, bet: int, dead: int) -> None:
    """A big blind with 15 chips covers the blind first (WSOP) or the ante first (TDA)."""
    rules = Rules(big_blind_ante_order=order)  # type: ignore[arg-type]
    hand = Hand.start([100, 15, 100], Stakes(5, 10, big_blind_ante=10), rules=rules)
    assert (bet, dead) == (hand.bets[1], hand.dead_money)


def ante_posters(hand: Hand) -> list[tuple[int | None, int | None]]:
    return [(e[1], e[3]) for e in hand.log if e[0] == "ante"]


def test_rule_05_the_big_blind_position_posts_the_ante_when_the_blinds_are_equal() -> None:
    """Blinds 100/100: the big blind is player 1 by position, so player 1 posts the table's ante."""
    hand = Hand.start([1000, 1000, 1000], Stakes(100, 100, big_blind_ante=100))
    assert [(1, 100)] == ante_posters(hand)


def test_rule_05_a_short_small_blind_does_not_take_the_big_blind_ante() -> None:
    """A small blind all-in for 50 of 100 (blinds 100/100): the big blind still posts the ante."""
    hand = Hand.start([50, 1000, 1000], Stakes(100, 100, big_blind_ante=100))
    assert ([(1, 100)], 250) == (ante_posters(hand), hand.pot)


def test_rule_05_a_straddle_equal_to_the_big_blind_does_not_post_the_ante() -> None:
    """Blinds 100/100 and a straddle of 100: the big blind (player 1), not the first player whose
    blind equals the big blind (the small blind) nor the straddle, posts it."""
    hand = Hand.start([1000] * 4, Stakes(100, 100, straddles=(100,), big_blind_ante=100))
    assert [(1, 100)] == ante_posters(hand)


def test_rule_05_a_table_names_its_big_blind_for_the_ante() -> None:
    """At a table with a dead small blind, the player in the big blind's seat posts the ante and
    the snapshot keeps who that is."""
    hand = Hand.start([1000, 1000, 1000], Stakes(100, 100, big_blind_ante=100), blinds=[100, 100, 0],
                      big_blind_player=0)  # fmt: skip
    assert [(0, 100)] == ante_posters(hand)
    assert 0 == from_json(to_json(hand)).big_blind_player


def test_rule_06_minimum_bet_and_raise() -> None:
    """The opening bet is at least the big blind; a raise at least the largest increment so far."""
    hand = play(Hand.start([500] * 3, Stakes(5, 10)), call, call, check)
    legal = hand.legal_actions()
    assert legal is not None and 10 == legal.min_raise_to
    play(hand, raise_to(10), raise_to(40))  # increment 30
    legal = hand.legal_actions()
    assert legal is not None and 70 == legal.min_raise_to
    with pytest.raises(InvalidAmountError, match="raise to 60 is below the minimum 70"):
        hand.act(raise_to(60))


def test_rule_06_all_in_for_less_is_allowed_and_is_not_a_raise() -> None:
    """With 15 chips facing 10, a player may go all-in to 15; the minimum raise stays 10 more."""
    hand = Hand.start([500, 500, 15], Stakes(5, 10))
    legal = hand.legal_actions()
    assert legal is not None and (15, 15) == (legal.min_raise_to, legal.max_raise_to)
    play(hand, raise_to(15))
    legal = hand.legal_actions()
    assert legal is not None and 25 == legal.min_raise_to


def test_rule_07_short_all_in_big_blind_must_be_called_in_full() -> None:
    """Against a big blind all-in for 6 of 10, the next player calls 10 or raises to at least 20."""
    hand = Hand.start([100, 6, 100], Stakes(5, 10))
    legal = hand.legal_actions()
    assert legal is not None
    assert (10, False, 20) == (legal.to_call, legal.can_check, legal.min_raise_to)


def test_rule_08_incomplete_all_in_raise_does_not_reopen() -> None:
    """A bets 100, B goes all-in for 150 (short of a full raise): A may only call or fold."""
    hand = play(Hand.start([1000, 160, 1000], Stakes(5, 10)), call, call, check)
    play(hand, raise_to(100), raise_to(150), call)
    legal = hand.legal_actions()
    assert legal is not None and (0, None) == (legal.player, legal.min_raise_to)
    with pytest.raises(IllegalActionError, match="not allowed"):
        hand.act(raise_to(400))


def test_rule_09_several_short_all_ins_reopen_with_the_last_full_raise() -> None:
    """TR 96a: A bets 500, B to 1,000, C all-in 1,300, D all-in 1,700: A may raise, to at least 2,200."""
    hand = play(Hand.start([5100, 5100, 1400, 1800], Stakes(50, 100)), call, call, call, check)
    play(hand, raise_to(500), raise_to(1000), raise_to(1300), raise_to(1700))
    legal = hand.legal_actions()
    assert legal is not None and (0, 2200) == (legal.player, legal.min_raise_to)


def test_rule_10_big_blind_option() -> None:
    """When everyone just calls, the big blind may still check or raise."""
    hand = play(Hand.start([100, 100, 100], Stakes(1, 2)), call, call)
    legal = hand.legal_actions()
    assert legal is not None
    assert (1, True, 4) == (legal.player, legal.can_check, legal.min_raise_to)


def test_rule_11_no_raise_when_everyone_else_is_all_in() -> None:
    """Facing an all-in with nobody else left to bet against, a player may only call or fold."""
    hand = play(Hand.start([100, 40], Stakes(1, 2)), raise_to(10), raise_to(40))
    legal = hand.legal_actions()
    assert legal is not None and (30, None) == (legal.to_call, legal.min_raise_to)


def test_rule_11_no_raise_when_no_other_player_could_call_more() -> None:
    """An all-in of 7,105 is faced by a player with chips, but the only other player left with chips
    has 1,125: nobody could put in more than 7,105, so the player may only call or fold."""
    hand = play(Hand.start([17865, 1125, 55040, 7105], Stakes(25, 50)), fold, raise_to(7105))
    legal = hand.legal_actions()
    assert legal is not None and (0, 7080, None) == (legal.player, legal.to_call, legal.min_raise_to)
    with pytest.raises(IllegalActionError, match="raise not allowed; call or fold"):
        hand.act(raise_to(14160))


def test_rule_11_a_covered_player_is_not_asked_to_act() -> None:
    """The small blind's 10 covers the big blind, all-in for 5: once the button folds the round is
    over, and the 5 the big blind could not match goes back to the small blind (rule 16)."""
    hand = play(Hand.start([100, 5, 100], Stakes(10, 20)), fold)
    assert hand.is_complete and hand.result is not None
    assert 100 + 5 + 100 == sum(hand.result.final_stacks)
    assert ("uncalled", 0, 5) == next((e[0], e[1], e[3]) for e in hand.log if e[0] == "uncalled")


def test_rule_11_acpc_raises_while_anyone_else_has_chips() -> None:
    """`Rules.acpc()` follows the reference dealer: a raise while another player is not all-in."""
    hand = Hand.start([17865, 1125, 55040, 7105], Stakes(25, 50), rules=Rules.acpc())
    play(hand, fold, raise_to(7105))
    legal = hand.legal_actions()
    assert legal is not None and 14160 == legal.min_raise_to


def test_rule_11_pokerstars_raises_when_nobody_could_call_the_raise() -> None:
    """`Rules.pokerstars()` follows the site: facing an all-in with everyone else all-in too, a player
    with chips may still raise, and what nobody called goes back (rule 16)."""
    hand = play(Hand.start([40, 100], Stakes(1, 2), rules=Rules.pokerstars()), raise_to(10), raise_to(40))
    legal = hand.legal_actions()
    assert legal is not None and (1, 30, 70, 100) == (
        legal.player,
        legal.to_call,
        legal.min_raise_to,
        legal.max_raise_to,
    )
    play(hand, raise_to(100))
    assert hand.is_complete
    assert ("uncalled", 1, 60) == next((e[0], e[1], e[3]) for e in hand.log if e[0] == "uncalled")


def test_rule_11_pokerstars_asks_a_covering_player_to_act() -> None:
    """The small blind's 10 covers the big blind, all-in for 5; under the site's rules the small
    blind is still asked, and may fold: 5 goes back to them, the big blind wins 10."""
    hand = play(Hand.start([100, 5, 100], Stakes(10, 20), rules=Rules.pokerstars()), fold)
    legal = hand.legal_actions()
    assert legal is not None and (0, 10) == (legal.player, legal.to_call)
    play(hand, fold)
    assert hand.result is not None and (95, 10, 100) == hand.result.final_stacks


def test_rule_12_pot_limit_maximum() -> None:
    """Pot limit, blinds 1/2: the first player may raise to 2 + (3 + 2) = 7."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.POT_LIMIT))
    legal = hand.legal_actions()
    assert legal is not None and (4, 7) == (legal.min_raise_to, legal.max_raise_to)


def test_rule_12_pot_limit_before_the_flop_alone_in_pot_limit_preflop() -> None:
    """PokerStars' "Pot Limit Pre-Flop, No Limit Post-Flop", blinds 1/2: before the flop the first
    player may raise to 7 at most (rule 12); after it any bet up to all-in."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.POT_LIMIT_PREFLOP))
    legal = hand.legal_actions()
    assert legal is not None and (4, 7) == (legal.min_raise_to, legal.max_raise_to)
    play(hand, raise_to(7), call, call)
    legal = hand.legal_actions()
    assert legal is not None and (2, 93) == (
        legal.min_raise_to,
        legal.max_raise_to,
    )  # all in, not the pot (21)


def test_rule_13_fixed_limit_sizes_and_cap() -> None:
    """Fixed limit 2/4: raises are exactly one small bet; the fifth bet caps the round."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    legal = hand.legal_actions()
    assert legal is not None and (4, 4) == (legal.min_raise_to, legal.max_raise_to)
    play(hand, raise_to(4), raise_to(6), raise_to(8), raise_to(10))
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to is None


def test_rule_13_fixed_limit_heads_up_is_uncapped() -> None:
    """A round that begins heads-up has no raise cap."""
    hand = Hand.start([100, 100], Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    play(hand, raise_to(4), raise_to(6), raise_to(8), raise_to(10), raise_to(12))
    legal = hand.legal_actions()
    assert legal is not None and 14 == legal.min_raise_to


@pytest.mark.parametrize(("all_in", "reopens"), [(6, True), (5, False)])
def test_rule_13_fixed_limit_half_bet_all_in_reopens(all_in: int, reopens: bool) -> None:
    """Limit 4/8: an all-in raise of 2 more (half a bet) reopens the betting; 1 more does not."""
    stakes = Stakes(2, 4, structure=Structure.FIXED_LIMIT)
    hand = play(Hand.start([100, 100, 100, all_in], stakes), call, raise_to(all_in), call, call)
    legal = hand.legal_actions()
    assert legal is not None and 2 == legal.player
    assert reopens == legal.can_raise


def test_rule_14_amounts_are_raise_to_totals() -> None:
    """raise_to(20) by the small blind who posted 1 puts in 19 more."""
    hand = play(Hand.start([100, 100, 100], Stakes(1, 2)), call)
    play(hand, raise_to(20))
    assert (20, 80) == (hand.bets[0], hand.stacks[0])


def test_rule_15_free_fold_allowed_unless_forbidden() -> None:
    """Folding when checking is free is binding by default and rejected with forbid_free_fold."""
    hand = play(Hand.start([100, 100], Stakes(1, 2)), call)
    assert hand.is_legal(fold)
    strict = play(Hand.start([100, 100], Stakes(1, 2), rules=Rules(forbid_free_fold=True)), call)
    with pytest.raises(IllegalActionError, match="checking is free"):
        strict.act(fold)


def test_rule_15_a_call_with_nothing_to_call_is_a_check() -> None:
    """The big blind's option preflop, after the small blind completed: a call is taken as a check
    and recorded as one, and the flop comes; the same for a call on an unbet flop."""
    hand = play(Hand.start([100, 100], Stakes(1, 2)), call)
    hand.act(Action.call())
    assert [check] == [action for _, action in hand.history[1:]]
    assert Phase.FLOP == hand.phase
    hand.act(Action.call())
    assert check == hand.history[-1][1]
    assert 4 == hand.pot


def test_rule_16_uncalled_bet_returns_to_the_bettor() -> None:
    """The part of a bet nobody called goes back before the pot is formed."""
    hand = play(Hand.start([100, 100], Stakes(1, 2)), raise_to(50), fold)
    assert hand.result is not None
    assert ((Pot(4, (1,)),), (98, 102)) == (hand.result.pots, hand.result.final_stacks)


def test_rule_17_side_pots_from_contributions() -> None:
    """Three all-ins of 20, 50 and 100: main pot 60, side pot 60, and the rest back uncalled."""
    hand = Hand.start([20, 50, 100], Stakes(1, 2), deck=deck(["2c3d", "AsAh", "KsKh"], "2h7d9c4s5h"))
    play(hand, raise_to(100), call, call)
    assert hand.result is not None
    assert (Pot(60, (0, 1, 2)), Pot(60, (1, 2))) == hand.result.pots
    assert (0, 120, 50) == hand.result.final_stacks


def test_rule_17_folded_chips_stay_in_the_pot() -> None:
    """A player who folds leaves their chips in the pots they fed and cannot win them."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), deck=deck(["2c3d", "AsAh", "KsKh"], "2h7d9c4s5h"))
    play(hand, raise_to(10), call, call, fold, check, check, check, check, check, check)
    assert hand.result is not None
    assert (Pot(30, (1, 2)),) == hand.result.pots


def test_rule_18_odd_chip_goes_left_of_the_button() -> None:
    """A pot of 5 tied between players 1 and 2: player 1, first left of the button, gets 3."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), deck=deck(["2c3d", "4s4h", "5s5h"], "AcKcQcJcTc"))
    play(hand, call, fold, check, check, check, check, check, check, check)
    assert hand.result is not None
    assert (0, 3, 2) == hand.result.payouts


def test_rule_19_showdown_order_and_mucking() -> None:
    """The river bettor shows first; a beaten caller may muck."""
    hand = Hand.start([100, 100], Stakes(1, 2), deck=deck(["AsAh", "KsKh"], "2c7d9h3s4d"))
    play(hand, call, check, check, check, check, check, raise_to(10), call)
    shows = [(e.kind, e.player) for e in hand.events() if e.kind in ("show", "muck")]
    assert [("show", 0), ("muck", 1)] == shows


def test_rule_19_all_in_hands_are_all_shown() -> None:
    """When players are all-in, every hand is turned face up."""
    hand = Hand.start([100, 100], Stakes(1, 2), deck=deck(["AsAh", "KsKh"], "2c7d9h3s4d"))
    play(hand, raise_to(100), call)
    assert hand.result is not None and all(s is not None for s in hand.result.shown)


def test_rule_20_rake_with_cap_and_no_flop_no_drop() -> None:
    """5% rake capped at 3 is taken from a flop pot; none when the hand ends preflop."""
    rules = Rules(rake_percent=5, rake_cap=3)
    flop = Hand.start([100, 100], Stakes(1, 2), rules=rules, deck=deck(["AsAh", "KsKh"], "2c7d9h3s4d"))
    play(flop, raise_to(40), call, raise_to(60), fold)
    assert flop.result is not None and 3 == flop.result.rake
    preflop = play(Hand.start([100, 100], Stakes(1, 2), rules=rules), raise_to(40), fold)
    assert preflop.result is not None and 0 == preflop.result.rake


def test_rule_19_the_river_aggressor_shows_first_though_seat_order_would_not() -> None:
    """Three-handed, the button (player 2) bets the river and is called twice: it shows first, then
    the others in turn from it (player 0, then 1). Player 0's aces beat its kings and are shown;
    player 1's nine-high cannot beat them and is mucked (TR 72)."""
    hand = Hand.start([100] * 3, Stakes(1, 2), deck=deck(["AsAh", "2c3d", "KsKh"], "9c8d4h5s7c"))
    play(hand, call, call, check, check, check, check, check, check, check)  # to the river
    play(hand, check, check, raise_to(10), call, call)
    shows = [(e.kind, e.player) for e in hand.events() if e.kind in ("show", "muck")]
    assert [("show", 2), ("show", 0), ("muck", 1)] == shows


def test_rule_20_rake_comes_from_the_main_pot_first_rounded_down() -> None:
    """All-ins of 20, 50 and 100 called: a main pot of 60 and a side pot of 60 (50 back uncalled).
    3% of the 120 called chips is 3.6: 3 chips (rounded down), taken from the main pot, so its
    winner (player 0) gets 57 and the side pot's (player 1, aces over kings) all of its 60."""
    rules = Rules(rake_percent=3)
    hand = Hand.start(
        [20, 50, 100], Stakes(1, 2), rules=rules, deck=deck(["2c2d", "AsAh", "KsKh"], "2h2s9c4s5h")
    )
    play(hand, raise_to(100), call, call)
    assert hand.result is not None
    assert 3 == hand.result.rake
    assert (57, 60, 50) == hand.result.final_stacks


def test_rule_20_rake_from_a_single_pot_is_rounded_down() -> None:
    """Heads-up, raised to 20 and called, checked down: one pot of 40; 7% of it is 2.8, so 2 chips."""
    rules = Rules(rake_percent=7)
    hand = Hand.start([100, 100], Stakes(1, 2), rules=rules, deck=deck(["AsAh", "KsKh"], "2c7d9h3s4d"))
    play(hand, raise_to(20), call, check, check, check, check, check, check)
    assert hand.result is not None
    assert (2, (118, 80)) == (hand.result.rake, hand.result.final_stacks)


def test_rule_20_rake_over_several_pots_stops_at_the_cap() -> None:
    """The same pots, 10% with a cap of 7: 12 is capped to 7, all from the main pot (60 -> 53)."""
    rules = Rules(rake_percent=10, rake_cap=7)
    hand = Hand.start(
        [20, 50, 100], Stakes(1, 2), rules=rules, deck=deck(["2c2d", "AsAh", "KsKh"], "2h2s9c4s5h")
    )
    play(hand, raise_to(100), call, call)
    assert hand.result is not None
    assert (7, (53, 60, 50)) == (hand.result.rake, hand.result.final_stacks)


def test_rule_16_an_uncalled_bet_of_one_chip_goes_back() -> None:
    """Heads-up, the button (player 1, 9 chips) calls; the big blind raises to 10; the button calls
    all-in for 9: the one chip nobody could call goes back to player 0, and the pot is 18, not 19."""
    hand = Hand.start([100, 9], Stakes(1, 2), deck=deck(["AsAh", "KsKh"], "2c7d9h3s4d"))
    play(hand, call, raise_to(10), call)
    assert hand.result is not None
    assert (Pot(18, (0, 1)),) == hand.result.pots
    assert [("uncalled", 0, 1)] == [
        (e.kind, e.player, e.amount) for e in hand.events() if e.kind == "uncalled"
    ]
    assert (109, 0) == hand.result.final_stacks


def test_rule_18_odd_chips_in_a_side_pot_go_from_the_first_seat_left_of_the_button() -> None:
    """Four players, stacks 10, 31, 31, 100, all in preflop: a main pot of 40 (10 from each) and a
    side pot of 63 (21 from players 1, 2 and 3); 69 stays with player 3. Players 1 and 2 hold the
    same ace-high straight and beat the others: the main pot splits 20/20, the side pot 32/31, the
    odd chip to player 1, the first of the two left of the button (TR 73)."""
    hand = Hand.start([10, 31, 31, 100], Stakes(1, 2),
                      deck=deck(["4c4d", "AcTd", "AdTc", "5h5s"], "KsQdJh2c3s"))  # fmt: skip
    play(hand, Action.all_in(), call, call, call)  # player 2 all-in for 31; 3, 0 and 1 call
    assert hand.result is not None
    assert (Pot(40, (0, 1, 2, 3)), Pot(63, (1, 2, 3))) == hand.result.pots
    assert (0, 20 + 32, 20 + 31, 69) == hand.result.final_stacks


def test_rule_19_a_hand_that_ties_for_a_side_pot_is_shown_and_shares_it() -> None:
    """Player 0 is all-in for 10 preflop; players 1 and 2 check to the river, where player 1 bets 20
    and player 2 calls: a main pot of 30 and a side pot of 40. Player 1 shows first (the river
    bettor); player 2's straight ties it for the side pot, which player 0 cannot win, so it is shown,
    not mucked, and the side pot splits 20/20; player 0's aces full take the main pot."""
    hand = Hand.start([10, 50, 50], Stakes(1, 2), deck=deck(["AsAh", "9c8c", "9d8d"], "AcAdTs7h6c"))
    play(hand, raise_to(10), call, call)  # the button raises to 10; player 0 calls all-in; player 1 calls
    play(hand, check, check, check, check, raise_to(20), call)
    assert hand.result is not None
    shows = [(e.kind, e.player) for e in hand.events() if e.kind in ("show", "muck")]
    assert [("show", 1), ("show", 2), ("show", 0)] == shows
    assert (Pot(30, (0, 1, 2)), Pot(40, (1, 2))) == hand.result.pots
    assert (30, 40, 40) == hand.result.final_stacks


def test_rule_05_the_big_blind_ante_goes_to_the_main_pot() -> None:
    """Ante 2 from the big blind (player 1) as dead money; all-ins of 20 (player 0), 50 (player 2),
    player 1 covering: the main pot is 20 x 3 + 2 = 62 (everyone), the side pot 30 x 2 = 60; player
    0 wins the main pot with the ante in it."""
    hand = Hand.start([20, 100, 50], Stakes(1, 2, big_blind_ante=2),
                      deck=deck(["AsAh", "2c3d", "KsKh"], "9c8d4h5s7c"))  # fmt: skip
    play(hand, raise_to(50), call, call)
    assert hand.result is not None
    assert (Pot(62, (0, 1, 2)), Pot(60, (1, 2))) == hand.result.pots
    assert (62, 48, 60) == hand.result.final_stacks


def test_rule_21_acpc_incomplete_raise_reopens() -> None:
    """Under ACPC rules the short all-in of rule 8 does reopen the betting."""
    hand = play(Hand.start([1000, 160, 1000], Stakes(5, 10), rules=Rules.acpc()), call, call, check)
    play(hand, raise_to(100), raise_to(150), call)
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to is not None


def test_all_in_is_a_raise_or_a_call_for_every_chip() -> None:
    """Action.all_in() is recorded as the raise (or call) that puts the whole stack in."""
    hand = Hand.start([100, 100, 30], Stakes(1, 2))
    play(hand, Action.all_in())
    assert (hand.history[-1][1], 0) == (raise_to(30), hand.stacks[2])
    play(hand, raise_to(60), Action.all_in())  # the big blind: 100 is at least the minimum 90
    assert raise_to(100) == hand.history[-1][1]
    short = Hand.start([100, 100, 30], Stakes(1, 2))
    play(short, call, raise_to(50), fold, Action.all_in())  # 30 cannot cover 50: an all-in call
    assert (call, 30) == (short.history[-1][1], short.contributions[2])


def test_all_in_beyond_the_pot_limit_is_refused() -> None:
    """In pot limit an all-in larger than the pot allows is an InvalidAmountError that changes nothing."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.POT_LIMIT))
    with pytest.raises(InvalidAmountError, match="all-in to 100 is not allowed: the maximum raise-to is 7"):
        hand.act(Action.all_in())
    assert ([1, 2, 0], 2) == (hand.bets, hand.actor)


def test_rule_19_without_a_river_bet_the_first_player_left_of_the_button_shows_first() -> None:
    """Checked down: player 0 shows first even though player 1 made the last bet on the turn."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), deck=deck(["2c3d", "AsAh", "KsKh"], "9c8d4h5s7c"))
    play(hand, call, call, check)  # preflop
    play(hand, check, check, check)  # flop
    play(hand, check, raise_to(4), call, call)  # turn: player 1 bets
    play(hand, check, check, check)  # river: checked down
    shows = [(e.kind, e.player) for e in hand.events() if e.kind in ("show", "muck")]
    assert ("show", 0) == shows[0]


def test_rule_13_fixed_limit_big_bet_on_turn_and_river() -> None:
    """Limit 2/4: the turn and river bet is the big bet, 4."""
    hand = Hand.start([100, 100], Stakes(1, 2, structure=Structure.FIXED_LIMIT))
    play(hand, call, check, check, check)  # preflop, flop
    legal = hand.legal_actions()
    assert legal is not None and (Phase.TURN, 4, 4) == (hand.phase, legal.min_raise_to, legal.max_raise_to)


def test_rule_12_pot_limit_after_a_raise() -> None:
    """Blinds 1/2, raise to 7: the small blind calls 6 into 16 and may raise to 7 + 16 = 23."""
    hand = Hand.start([100] * 3, Stakes(1, 2, structure=Structure.POT_LIMIT))
    play(hand, raise_to(7))
    legal = hand.legal_actions()
    assert legal is not None and (0, 6, 23) == (legal.player, legal.to_call, legal.max_raise_to)


def test_straddle_acts_last_preflop_and_has_the_option() -> None:
    """With a straddle of 4, the player after it acts first; the straddler may check or raise at the end."""
    hand = Hand.start([100] * 4, Stakes(1, 2, straddles=(4,)))
    assert (3, 4) == (hand.actor, hand.round.level)
    play(hand, call, call, call)
    legal = hand.legal_actions()
    assert legal is not None and (2, True, 8) == (legal.player, legal.can_check, legal.min_raise_to)


def test_rule_17_four_way_side_pots() -> None:
    """All-ins of 10, 20 and 30 called by a stack of 40: pots of 40, 30 and 20; 10 stays behind."""
    hand = Hand.start(
        [10, 20, 30, 40], Stakes(1, 2), deck=deck(["AsAh", "KsKh", "QsQh", "JsJh"], "2c7d9h3s4d")
    )
    play(hand, raise_to(30), call, call, call)  # player 2 all-in, player 3 calls, the blinds call all-in
    assert hand.result is not None
    assert (Pot(40, (0, 1, 2, 3)), Pot(30, (1, 2, 3)), Pot(20, (2, 3))) == hand.result.pots
    assert (40, 30, 20, 10) == hand.result.final_stacks


def test_rule_08_reopening_is_judged_per_player() -> None:
    """p0 bets 100, p1 all-in 150, p2 calls, p3 all-in 210, p0 calls: p2 faces only 60 more (a full
    raise is 100), so p2 may only call or fold; p0, who faced 100 and now 210, could have raised."""
    hand = play(Hand.start([10000, 250, 10000, 310], Stakes(50, 100)), call, call, call, check)
    play(hand, raise_to(100), raise_to(150), call, raise_to(210))
    legal = hand.legal_actions()
    assert legal is not None and (0, 310) == (legal.player, legal.min_raise_to)  # rule 9 for p0
    play(hand, call)
    legal = hand.legal_actions()
    assert legal is not None and (2, 60, None) == (legal.player, legal.to_call, legal.min_raise_to)
    with pytest.raises(IllegalActionError, match="not allowed"):
        hand.act(raise_to(310))
