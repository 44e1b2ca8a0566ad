"""The hand object itself: how it is made, how it shows itself, and rewinding with every set-up option."""

from __future__ import annotations

import pytest

from holdem import Action, Hand, Stakes
from holdem.cards import parse_cards
from holdem.deck import Deck
from holdem.snapshot import to_dict
from holdem.stakes import Rules


def test_a_hand_is_made_by_start() -> None:
    with pytest.raises(TypeError) as raised:
        Hand()
    assert str(raised.value) == "use Hand.start(...) to begin a hand"


def test_a_hands_repr_gives_street_board_pot_and_actor() -> None:
    cards = parse_cards("AhAd 7c2d Kh9s")
    deck = Deck.for_hand([cards[0:2], cards[2:4], cards[4:6]], parse_cards("Ac8s4d"))
    hand = Hand.start([100] * 3, Stakes(1, 2), deck=deck)
    for action in (Action.call(), Action.call(), Action.check()):
        hand.act(action)
    assert repr(hand) == "<Hand flop board=Ac8s4d pot=6 actor=0>"


def test_rewinding_keeps_every_set_up_option() -> None:
    """Declared blinds (a dead small blind, a returning player posting a big blind), dead money, the
    first to act, the big blind's position, a dead button and the rules all survive `rewound`: it
    equals the hand replayed to that point."""

    def start() -> Hand:
        return Hand.start(
            [100, 100, 100, 100], Stakes(1, 2), rules=Rules(rake_percent=5), deck=Deck.standard(),
            blinds=[0, 2, 0, 2], dead=[0, 0, 1, 0], first_to_act=2, dead_button=True, big_blind_player=3,
        )  # fmt: skip

    hand = start()
    actions = [Action.raise_to(6), Action.call(), Action.fold(), Action.call()]
    for action in actions:
        hand.act(action)
    again = start()
    for action in actions[:2]:
        again.act(action)
    assert to_dict(hand.rewound(2)) == to_dict(again)
