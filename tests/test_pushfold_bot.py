"""The `pushfold` bot: which hands are push/fold spots, what it plays in them, and a tournament."""

from __future__ import annotations

import random

import numpy as np
import pytest

from holdem.bots import load_bot
from holdem.bots.equity import EquityBot
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.errors import BotLoadError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.hand.views import view
from holdem.pushfold import solve_headsup
from holdem.pushfold.bot import PushFoldBot, read_spot
from holdem.pushfold.classes import NAMES
from holdem.pushfold.endgame import EndGame, _final_stacks, _payoffs
from holdem.tournament.run import TournamentConfig, play_tournament
from holdem.tournament.structure import load_structure


def hand(stacks: list[int], stakes: Stakes, holes: str, actions: list[Action]) -> Hand:
    """A hand whose players (in dealing order: from the small blind, but heads-up the big blind
    first) hold `holes` in turn, after `actions`."""
    cards = parse_cards(holes)
    deck = Deck.for_hand([cards[i : i + 2] for i in range(0, len(cards), 2)])
    played = Hand.start(stacks, stakes, deck=deck)
    for action in actions:
        played.act(action)
    return played


def test_first_in_after_a_fold_is_a_spot_with_the_folded_stack_counted_for_icm() -> None:
    """UTG folds; the button is first in among the button and the blinds, UTG's stack (after the
    ante) stays in ICM, and every ante is dead money in the pot."""
    played = hand([2000, 1500, 1200, 900], Stakes(50, 100, ante=10), "AhKh 7c2d QsQd 9h8h", [Action.fold()])
    spot = read_spot(view(played, 3))
    assert spot is not None
    assert (spot.active, spot.stacks, spot.others) == ((0, 1, 3), (1990, 1490, 890), (1190,))
    assert (spot.small_blind, spot.big_blind, spot.dead, spot.key) == (50, 100, 40, (2,))
    assert spot.effective == pytest.approx(8.9)  # the button's 890 is the shorter of it and the deepest


def test_facing_a_push_and_a_call_names_the_pusher_and_the_caller() -> None:
    """The button moves all-in, the small blind calls: the big blind decides facing both."""
    actions = [Action.fold(), Action.raise_to(890), Action.call()]
    played = hand([2000, 1500, 1200, 900], Stakes(50, 100, ante=10), "AhKh 7c2d QsQd 9h8h", actions)
    spot = read_spot(view(played, 1))
    assert spot is not None and spot.active == (0, 1, 3)
    assert spot.key == (1, 2, 0)  # the big blind, facing the button's push, the small blind called
    assert spot.stacks == (1990, 1490, 890)
    assert spot.effective == pytest.approx(8.9)


@pytest.mark.parametrize(
    "actions",
    [
        [Action.call()],  # a limp
        [Action.raise_to(300)],  # a raise short of all-in
        [Action.raise_to(1190), Action.fold(), Action.raise_to(1990)],  # an all-in re-raise of a push
    ],
    ids=["limp", "raise", "re-raise"],
)
def test_anything_but_push_or_fold_is_not_a_spot(actions: list[Action]) -> None:
    played = hand([2000, 1500, 1200, 900], Stakes(50, 100, ante=10), "AhKh 7c2d QsQd 9h8h", actions)
    assert played.actor is not None
    assert read_spot(view(played, played.actor)) is None


def test_after_the_flop_it_is_not_a_spot() -> None:
    played = hand([2000, 2000], Stakes(50, 100), "AhKh 7c2d", [Action.call(), Action.check()])
    assert played.actor is not None and read_spot(view(played, played.actor)) is None


@pytest.mark.parametrize("stack", [400, 730, 950])
def test_heads_up_it_plays_the_chart(stack: int) -> None:
    """Heads-up within the threshold the bot pushes (small blind) or calls (big blind) with its
    class's probability in the heads-up equilibrium at that effective stack (4, 7.3 and 9.5 big
    blinds), the chart `holdem pushfold --stack` prints (at 7.3 it played the 7.5 chart, solved
    more loosely)."""
    chart = solve_headsup(stack / 100)
    for mine, theirs, name in (("9h8h", "7c2d", "98s"), ("Kd5c", "AhAd", "K5o"), ("Jc4c", "2s2h", "J4s")):
        pushing = hand([stack, stack], Stakes(50, 100), f"{theirs} {mine}", [])  # the button: player 1
        assert PushFoldBot().push_probability(view(pushing, 1)) == pytest.approx(
            chart.push[NAMES.index(name)]
        )
        calling = hand([stack, stack], Stakes(50, 100), f"{mine} {theirs}", [Action.raise_to(stack)])
        assert PushFoldBot().push_probability(view(calling, 0)) == pytest.approx(
            chart.call[NAMES.index(name)]
        )


def test_deeper_than_the_threshold_it_plays_as_the_equity_bot() -> None:
    played = hand([3000, 3000], Stakes(50, 100), "7c2d AhKh", [])
    bot = PushFoldBot(threshold=10)
    assert bot.push_probability(view(played, 1)) is None
    bot.set_random(random.Random(7))
    twin = EquityBot()
    twin.set_random(random.Random(random.Random(7).getrandbits(64)))
    assert bot.act(view(played, 1)) == twin.act(view(played, 1))


def test_with_three_players_it_solves_the_end_game_with_icm() -> None:
    """Three players at eight big blinds or less: aces always move in first; seven-deuce offsuit
    from the button, with 50/30/20 paid, never does."""
    for holes, pushes in (("7c2d QsQd AhAd", 1.0), ("QsQd AhAd 7c2d", 0.0)):
        played = hand([800, 800, 800], Stakes(50, 100), holes, [])
        bot = PushFoldBot(prizes="50/30/20", deals=2000)
        assert bot.push_probability(view(played, 2)) == pytest.approx(pushes, abs=0.02)


def test_an_all_in_pushes_and_a_fold_folds() -> None:
    played = hand([1000, 1000], Stakes(50, 100), "7c2d AhAd", [])
    action = PushFoldBot().act(view(played, 1))
    assert action == Action.raise_to(1000)
    played.act(action)
    assert PushFoldBot().act(view(played, 0)).kind is ActionKind.FOLD  # 72o does not call 10 big blinds


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(BotLoadError, match="prizes must be 'auto', 'chips' or shares"):
        load_bot("pushfold[prizes=lots]")
    with pytest.raises(BotLoadError, match="threshold must be 1 to 25 big blinds"):
        load_bot("pushfold[threshold=40]")
    with pytest.raises(BotLoadError, match="players must be a whole number from 2 to 9, got 12"):
        load_bot("pushfold[players=12]")


def test_dead_money_goes_to_the_main_pot_and_folded_stacks_count_in_icm() -> None:
    """A walk gives the big blind the blinds and the dead antes; in a showdown the winner of the
    main pot takes them; a player busted with another player out of the hand finishes third."""
    game = EndGame((1000, 1000), 50, 100, (50.0, 30.0, 20.0), dead=30, others=(2000,))
    assert _final_stacks(game, -1, (), np.array([[0, 0]])).tolist() == [[950, 1080]]
    assert _final_stacks(game, 0, (1,), np.array([[2, 1]])).tolist() == [[2030, 0]]
    assert _payoffs(game, np.array([[2030, 0]]))[0][1] == pytest.approx(0.2)
    chips = EndGame((1000, 1000), 50, 100, (), dead=30, others=(2000,))
    assert _payoffs(chips, np.array([[2030, 0]]))[0].tolist() == pytest.approx([2030 / 4030, 0.0])


def test_a_sit_and_go_of_pushfold_bots_runs_without_a_fault() -> None:
    config = TournamentConfig(
        ("pushfold[deals=500]", "equity", "calling-station", "random"),
        4,
        load_structure("hyper"),
        table_size=4,
    )
    result = play_tournament(config, 0)
    assert sorted(f.place for f in result.finishes) == [1, 2, 3, 4]
    assert all(f.faults == 0 for f in result.finishes)
