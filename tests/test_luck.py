"""All-in adjusted results: exact equity for hands whose betting ended before the river."""

import pytest

from holdem import Action, Deck, Hand, Rules, Stakes, parse_cards
from holdem.bots.confidence import mean_ci
from holdem.bots.luck import all_in_adjusted
from holdem.bots.match import MatchConfig, play_match
from holdem.cards.odds import all_in_values, equity
from holdem.hand.views import SeatView


def dealt(holes: list[str], board: str, stacks: list[int], rules: Rules | None = None) -> Hand:
    deck = Deck.for_hand([parse_cards(h) for h in holes], parse_cards(board))
    return Hand.start(stacks, Stakes(1, 2), deck=deck, rules=rules)


def test_a_preflop_all_in_is_credited_at_exact_equity() -> None:
    hand = dealt(["KsKh", "AsAh"], "2c 3d 4h Kd 9c", [200, 200])  # the kings make a set
    hand.act(Action.raise_to(200))
    hand.act(Action.call())
    assert (200, -200) == hand.result.payoffs
    aces = equity(["AsAh", "KsKh"]).players[0].equity
    kings, adjusted_aces = all_in_adjusted(hand)
    assert pytest.approx(400 * aces - 200) == adjusted_aces
    assert pytest.approx(0) == kings + adjusted_aces


def test_a_flop_all_in_counts_only_the_turn_and_river_still_to_come() -> None:
    hand = dealt(["KsKh", "AsAh"], "Ac 7d 2h Kd Kc", [200, 200])
    hand.act(Action.call())
    hand.act(Action.check())
    hand.act(Action.raise_to(198))  # the big blind (player 0) bets it all on the flop
    hand.act(Action.call())
    # Against the aces' set, the kings win only with quads: both other kings, 1 turn and river of 990.
    assert pytest.approx(400 / 990 - 200) == all_in_adjusted(hand)[0]


def test_side_pots_are_shared_among_the_players_eligible_for_each() -> None:
    hand = dealt(["AsAh", "KsKh", "7c8c"], "2d 3d 4s 9h Jc", [100, 300, 300])
    hand.act(Action.raise_to(300))  # the button shoves; the blinds call, one for less
    hand.act(Action.call())
    hand.act(Action.call())
    holes = [tuple(parse_cards(h)) for h in ("AsAh", "KsKh", "7c8c")]
    won = all_in_values(holes, (), [(300, [0, 1, 2]), (400, [1, 2])])  # main pot, side pot
    assert pytest.approx([won[0] - 100, won[1] - 300, won[2] - 300]) == all_in_adjusted(hand)
    three_way = [p.equity for p in equity(["AsAh", "KsKh", "7c8c"]).players]
    two_way = [p.equity for p in equity(["KsKh", "7c8c"], dead="AsAh").players]
    assert pytest.approx([300 * three_way[0], 300 * three_way[1] + 400 * two_way[0]]) == won[:2]
    assert pytest.approx(700) == sum(won)


def test_hands_settled_on_the_river_or_by_folding_are_not_adjusted() -> None:
    folded = dealt(["KsKh", "AsAh"], "", [200, 200])
    folded.act(Action.fold())
    assert None is all_in_adjusted(folded)
    river = dealt(["KsKh", "AsAh"], "2c 3d 4h Kd 9c", [200, 200])
    while river.actor is not None:
        river.act(Action.check() if river.legal_actions().can_check else Action.call())
    assert None is all_in_adjusted(river)


def test_rake_is_taken_from_the_adjusted_winnings_in_proportion() -> None:
    hand = dealt(["KsKh", "AsAh"], "2c 3d 4h Kd 9c", [200, 200], Rules(rake_percent=5, rake_cap=10))
    hand.act(Action.call())
    hand.act(Action.check())
    hand.act(Action.raise_to(198))
    hand.act(Action.call())
    kings, aces = all_in_adjusted(hand)
    assert pytest.approx(-10) == kings + aces  # the rake leaves the table either way


class Shover:
    """All-in at every decision."""

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        return Action.raise_to(legal.max_raise_to) if legal.can_raise else Action.call()


class FlopShover:
    """Checks or calls preflop, then goes all-in on the flop."""

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        if view.board and legal.can_raise:
            return Action.raise_to(legal.max_raise_to)
        return Action.check() if legal.can_check else Action.call()


def test_the_adjusted_interval_is_narrower_than_the_raw_one_on_the_same_match() -> None:
    result = play_match(MatchConfig((Shover, "calling-station"), seed=3, all_in_adjusted=True), 60)
    shover = result.bots[0]
    assert 60 == result.all_in_hands
    raw_width = shover.ci95[1] - shover.ci95[0]
    low, high = shover.adjusted_ci95
    assert high - low < raw_width / 3  # only the cards' luck is gone, and it was most of the spread


def test_adjusted_and_raw_results_agree_in_expectation_over_many_seeds() -> None:
    """Raw minus adjusted has expectation 0: over 40 matches its mean is well within its interval."""
    differences, narrower = [], 0
    for seed in range(40):
        result = play_match(
            MatchConfig((FlopShover, "calling-station"), seed=seed, all_in_adjusted=True), 100
        )
        bot = result.bots[0]
        differences.append(bot.bb_per_100 - bot.adjusted_bb_per_100)
        narrower += bot.adjusted_ci95[1] - bot.adjusted_ci95[0] < bot.ci95[1] - bot.ci95[0]
    _, low, high = mean_ci(differences, 0.999)
    assert low < 0 < high
    assert 40 == narrower


def test_without_the_option_no_adjusted_figures_are_made() -> None:
    result = play_match(MatchConfig((Shover, "calling-station"), seed=3), 10)
    assert None is result.all_in_hands is result.bots[0].adjusted_bb_per_100 is result.bots[0].adjusted_ci95
