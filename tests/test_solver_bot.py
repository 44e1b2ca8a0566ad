"""The `solver` bot: it solves the turn and river it faces, plays the nuts for value, and plays a
match under a time limit without a fault."""

import random

from holdem import Hand, Stakes
from holdem.bots.match import MatchConfig, play_match
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.hand.actions import Action, ActionKind
from holdem.solver.bot import SolverBot


def _river_all_in_against(hole: str) -> tuple[Hand, SolverBot]:
    """A hand checked to the river, where the player out of position moves all-in into the bot."""
    bot = SolverBot(turn_seconds=0.5, river_seconds=0.5)
    bot.set_random(random.Random(1))
    deck = Deck.for_hand([parse_cards("AsAd"), parse_cards(hole)], parse_cards("2h7d9cJdQs"))
    hand = Hand.start([200, 200], Stakes(1, 2), deck=deck)
    bot.start_hand(hand.view(1))
    for action in (Action.call(), Action.check(), *[Action.check()] * 4):
        hand.act(action)
    hand.act(Action.raise_to(198))
    return hand, bot


def test_the_solver_bot_calls_an_all_in_with_the_nuts_on_the_river() -> None:
    """King-ten makes the king-high straight, the best hand this board allows: it calls, and it
    got there by solving the river."""
    hand, bot = _river_all_in_against("KhTc")
    assert ActionKind.CALL == bot.act(hand.view(1)).kind
    assert 1 == bot.solves


def test_the_solver_bot_folds_nothing_to_an_all_in_on_the_river() -> None:
    """Three-four, nothing on this board, folds to the all-in (it beats no value hand)."""
    hand, bot = _river_all_in_against("4c3c")
    assert ActionKind.FOLD == bot.act(hand.view(1)).kind


def test_the_solver_bot_plays_a_match_under_a_time_limit_without_a_fault() -> None:
    """Twelve hands against the calling station with budgets under a second and a three-second
    limit: no fault."""
    config = MatchConfig(
        ("solver[turn_seconds=0.8,river_seconds=0.4]", "calling-station"), seed=5, time_limit=3.0
    )
    result = play_match(config, 12)
    assert [0, 0] == [b.faults for b in result.bots]
