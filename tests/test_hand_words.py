"""The hand object itself: how it is made, how it shows itself, and rewinding with every set-up option."""

from __future__ import annotations

import random

import pytest

from holdem import Action, Hand, Stakes
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.errors import IllegalActionError
from holdem.hand.stakes import Rules
from holdem.table.snapshot import to_dict


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


def test_the_last_player_holds_the_button_unless_it_is_dead() -> None:
    assert 2 == Hand.start([100] * 3, Stakes(1, 2)).button
    assert 1 == Hand.start([100] * 2, Stakes(1, 2), deck=Deck.standard()).button
    assert Hand.start([100] * 3, Stakes(1, 2), dead_button=True).button is None


def test_a_seeded_hand_deals_from_its_source_only_the_cards_it_can_use() -> None:
    """The same seed deals the same cards; the deck drawn holds two cards a player and eight for the
    board and its burns (sixteen when the board may be run twice, rule 32)."""
    first, again = (Hand.start([100] * 4, Stakes(1, 2), rng=random.Random(7)) for _ in range(2))
    assert first.deck.order == again.deck.order
    assert 2 * 4 + 8 == len(first.deck.order)
    twice = Hand.start([100] * 4, Stakes(1, 2), rules=Rules(run_twice=True), rng=random.Random(7))
    assert 2 * 4 + 16 == len(twice.deck.order)
    assert first.deck.order == twice.deck.order[: 2 * 4 + 8]


def test_a_player_named_by_a_number_that_is_not_an_int_is_refused_even_on_their_turn() -> None:
    hand = Hand.start([100] * 3, Stakes(1, 2))
    assert 2 == hand.actor
    with pytest.raises(IllegalActionError, match=r"player must be a player number, got 2\.0"):
        hand.act(Action.call(), 2.0)  # type: ignore[arg-type]
    assert [] == hand.history


def test_under_acpc_rules_a_player_facing_an_all_in_with_nobody_else_holding_chips_cannot_raise() -> None:
    """The ACPC dealer offers a raise while another player is neither folded nor all-in (rule 21);
    here the only other player is all-in."""
    hand = Hand.start([200, 100], Stakes(1, 2), rules=Rules.acpc())
    hand.act(Action.raise_to(100))  # the button, all-in
    legal = hand.legal_actions()
    assert legal is not None and (legal.player, legal.to_call) == (0, 98)
    assert (legal.min_raise_to, legal.max_raise_to) == (None, None)


def test_the_log_ends_with_who_won_what() -> None:
    """A hand folded to one player logs that player's win (4: the blinds, the raise above them
    returned); a showdown logs each payout."""
    folded = Hand.start([100, 100], Stakes(1, 2))
    folded.act(Action.raise_to(6))
    folded.act(Action.fold())
    assert [("win", 1, 4)] == [(e.kind, e.player, e.amount) for e in folded.events() if e.kind == "win"]
    cards = parse_cards("AsAh KsKh")
    shown = Hand.start(
        [100, 100], Stakes(1, 2), deck=Deck.for_hand([cards[:2], cards[2:]], parse_cards("2c7d9h3s4d"))
    )
    for action in (Action.raise_to(100), Action.call()):
        shown.act(action)
    assert [("win", 0, 200)] == [(e.kind, e.player, e.amount) for e in shown.events() if e.kind == "win"]
