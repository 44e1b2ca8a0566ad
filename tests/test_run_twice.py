"""Rule 32, running it twice: with `Rules(run_twice=True)`, a hand whose betting ends before the river
with everyone in it but one at most all-in has the rest of its board dealt twice, and each pot is
split between the two boards; the hand keeps it in its PHH and its snapshot.

Decks are stacked card by card: the hole cards one at a time round the table, then for each street
a burn and its cards, the first run-out and then the second.
"""

import random

import pytest

from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.errors import InvalidHistoryError
from holdem.formats.phh import dumps, export, loads, replay
from holdem.formats.pokerstars import read_hands, write_hand
from holdem.hand.actions import Action
from holdem.hand.events import Phase
from holdem.hand.invariants import check_hand
from holdem.hand.pots import Pot
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.state import Hand
from holdem.table.snapshot import from_json, to_json

TWICE = Rules(run_twice=True)
call, check = Action.call(), Action.check()


def cards(text: str) -> list[str]:
    return [str(card) for card in parse_cards(text.replace(" ", ""))]


def boards(hand: Hand) -> tuple[list[str], list[str]]:
    return [str(c) for c in hand.board], [str(c) for c in hand.second_board]


# Heads-up, player 0 (the big blind) holds aces and player 1 (the button) kings. The first run-out
# gives the aces the pot; on the second the kings make a full house.
HEADS_UP = "As Kd Ah Kc" + " 2c 7h8h9c 3d Ts 4d 2s" + " 5c QdQh6d Jh Kh 7d 3c"


def test_rule_32_run_twice_splits_the_pot_between_the_two_boards() -> None:
    hand = Hand.start([100, 101], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    assert (cards("7h8h9cTs2s"), cards("QdQh6dKh3c")) == boards(hand)
    assert hand.result is not None
    assert (100, 100) == hand.result.payouts  # half of 200 on each board
    assert (Pot(200, (0, 1)),) == hand.result.pots
    assert ((0, 1),) == hand.result.winners  # a winner on each board
    streets = [(e.phase, len(e.cards)) for e in hand.events() if e.kind == "board"]
    assert [
        (Phase.FLOP, 3),
        (Phase.TURN, 1),
        (Phase.RIVER, 1),
    ] * 2 == streets  # the first run, then the second
    assert [("show", 0), ("show", 1)] == [
        (e.kind, e.player) for e in hand.events() if e.kind in ("show", "muck")
    ]
    check_hand(hand)


def test_rule_32_the_odd_chip_of_a_pot_goes_to_the_first_board() -> None:
    """Three players with an ante of 1; the button folds, so the pot is 201: 101 on the first board
    (the small blind's aces), 100 on the second (the big blind's kings make a set)."""
    deck = "AsKdQcAhKc2d" + "3c 7h8h9c 3d Ts 4d 2s" + "5c JdJh6d 5d Kh 7d 3h"
    hand = Hand.start(
        [100, 100, 100], Stakes(1, 2, ante=1), rules=TWICE, deck=Deck.stacked(deck.replace(" ", ""))
    )
    hand.act(Action.fold())
    hand.act(Action.raise_to(99))
    hand.act(call)
    assert hand.result is not None
    assert (101, 100, 0) == hand.result.payouts


def test_rule_32_each_side_pot_is_split_between_the_boards_on_its_own() -> None:
    """All-in for 30, 60 and 100: the main pot (90) and the side pot (60) are halved. On the first
    board the aces win the main pot's half and the kings the side pot's; on the second the queens
    make a set and win both halves. The 40 nobody called goes back."""
    deck = "AsKsQsAhKhQh" + "6s 2c7d9c 6h Jd 6d 3s" + "6c Qd5c8d 5s 4c 5h Tc"
    hand = Hand.start([30, 60, 100], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(deck.replace(" ", "")))
    hand.act(Action.raise_to(100))  # the button
    hand.act(call)  # the small blind, all-in for 30
    hand.act(call)  # the big blind, all-in for 60
    assert hand.result is not None
    assert (Pot(90, (0, 1, 2)), Pot(60, (1, 2))) == hand.result.pots
    assert (45, 30, 75) == hand.result.payouts
    assert (45, 30, 115) == hand.result.final_stacks
    assert ((0, 2), (1, 2)) == hand.result.winners


def test_rule_32_an_all_in_on_the_flop_runs_the_turn_and_river_twice() -> None:
    deck = "As Kd Ah Kc" + " 2c 7h8h9c 3d Ts 4d 2s" + " 5c Kh 7d 3c"
    hand = Hand.start([100, 100], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(deck.replace(" ", "")))
    for action in (call, check, Action.raise_to(98), call):  # limp, check; the flop: all-in, call
        hand.act(action)
    assert (cards("7h8h9cTs2s"), cards("7h8h9cKh3c")) == boards(hand)
    assert hand.result is not None and (100, 100) == hand.result.payouts
    assert 5 == sum(1 for e in hand.events() if e.kind == "board")  # flop, turn, river, turn, river


def test_rule_32_a_hand_is_run_once_when_the_betting_reaches_the_river_or_the_rule_is_off() -> None:
    river = Hand.start([100, 100], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    for action in (call, check, check, check, check, check, Action.raise_to(98), call):
        river.act(action)
    assert [] == river.second_board
    assert river.result is not None and (200, 0) == river.result.final_stacks  # aces, on the one board
    off = Hand.start([100, 101], Stakes(1, 2), deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    off.act(Action.raise_to(101))
    off.act(call)
    assert [] == off.second_board
    assert off.result is not None and (200, 1) == off.result.final_stacks


def test_rule_32_the_first_run_out_is_the_one_dealt_without_the_rule() -> None:
    """From the same seed, a hand run twice deals the hole cards and the first board it would have
    dealt without the rule; the second board shares the cards out before the all-in."""
    for seed in range(30):
        hands = [
            Hand.start([50, 80, 200], Stakes(1, 2), rules=rules, rng=random.Random(seed))
            for rules in (Rules(), TWICE)
        ]
        for hand in hands:
            for action in (Action.raise_to(200), call, call):
                hand.act(action)
        once, twice = hands
        assert (once.holes, once.board) == (twice.holes, twice.board)
        assert 5 == len(twice.second_board)  # all-in before the flop: a board of its own
        assert not set(twice.second_board) & {*twice.board, *(c for hole in twice.holes for c in hole)}
        check_hand(twice)


def test_rule_32_a_hand_run_twice_is_kept_in_its_phh_and_replays_exactly() -> None:
    hand = Hand.start([100, 101], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    (document,) = loads(dumps(export(hand)))
    assert document["_run_twice"] is True
    deals = [line for line in document["actions"] if line.startswith("d db")]
    assert ["d db 7h8h9c", "d db Ts", "d db 2s", "d db QdQh6d", "d db Kh", "d db 3c"] == deals
    replayed = replay(document)
    assert replayed.settled and replayed.hand is not None
    assert boards(hand) == boards(replayed.hand)
    assert hand.result == replayed.hand.result


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d | {"_run_twice": "yes"}, "field '_run_twice' must be true or false, got 'yes'"),
        (
            lambda d: d | {"actions": [a for a in d["actions"] if a != "d db Kh"]},
            "a second run-out deals each street",
        ),
        (
            lambda d: d | {"actions": [a.replace("d db QdQh6d", "d db QdQh") for a in d["actions"]]},
            "a second run-out is dealt street by street",
        ),
        (
            lambda d: {k: v for k, v in d.items() if k != "_run_twice"},
            "the board is dealt as 3, then 1, then 1 cards",
        ),
    ],
)
def test_rule_32_a_broken_second_run_out_is_refused_by_name(change: object, message: str) -> None:
    hand = Hand.start([100, 101], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    document = export(hand)
    with pytest.raises(InvalidHistoryError, match=message):
        replay(change(document))  # type: ignore[operator]


def test_rule_32_a_second_run_out_after_betting_on_the_river_is_refused() -> None:
    hand = Hand.start([100, 100], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    for action in (call, check, check, check, check, check, check, check):
        hand.act(action)
    document = export(hand)
    document["actions"] = [
        *document["actions"][:-2],
        "d db QdQh6d",
        "d db Kh",
        "d db 3c",
        *document["actions"][-2:],
    ]
    with pytest.raises(InvalidHistoryError, match="the betting did not end all-in"):
        replay(document)


def test_rule_32_a_snapshot_keeps_the_rule_and_both_boards() -> None:
    hand = Hand.start([100, 101], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    waiting = from_json(to_json(hand))  # before the call: restored, then played on
    waiting.act(call)
    hand.act(call)
    restored = from_json(to_json(hand))
    for other in (waiting, restored):
        assert other.rules.run_twice
        assert boards(hand) == boards(other)
        assert hand.result == other.result


def test_rule_32_pokerstars_text_of_a_hand_run_twice_reads_back_to_the_same_stacks() -> None:
    """Refused until round 6 ("not written in PokerStars' form yet"): both run-outs are written, as
    FIRST and SECOND streets and showdowns, and read back."""
    hand = Hand.start([100, 101], Stakes(1, 2), rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    (back,) = read_hands(write_hand(export(hand)))
    assert back.doc is not None and back.doc["_run_twice"], back.reason
    assert hand.result is not None and replay(back.doc).finishing_stacks == hand.result.final_stacks


def test_rule_32_the_rake_is_taken_once_before_the_pot_is_halved() -> None:
    """5% of 200 capped at 3: 197 is split, 99 on the first board (the aces), 98 on the second."""
    rules = Rules(run_twice=True, rake_percent=5, rake_cap=3)
    hand = Hand.start([100, 101], Stakes(1, 2), rules=rules, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    assert hand.result is not None
    assert ((99, 98), 3) == (hand.result.payouts, hand.result.rake)


def test_rule_32_dead_money_is_split_with_the_pot() -> None:
    """A big-blind ante of 2 is dead money (rule 5): the pot of 202 is 101 on each board."""
    stakes = Stakes(1, 2, big_blind_ante=2)
    hand = Hand.start([102, 101], stakes, rules=TWICE, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    hand.act(Action.raise_to(101))
    hand.act(call)
    assert hand.result is not None
    assert ((101, 101), (Pot(202, (0, 1)),)) == (hand.result.payouts, hand.result.pots)


def test_rule_32_players_all_in_from_the_blinds_see_two_boards_of_their_own() -> None:
    """Nobody acts: both are all-in posting the blinds. The whole board is dealt twice, no card shared."""
    for seed in range(20):
        hand = Hand.start([2, 1], Stakes(1, 2), rules=TWICE, rng=random.Random(seed))
        assert hand.is_complete and [] == hand.history
        assert 5 == len(hand.board) == len(hand.second_board)
        assert not set(hand.board) & set(hand.second_board)


def test_rule_32_a_hand_won_when_the_others_fold_is_not_run_twice() -> None:
    """Folded to one player on the flop, with a rake (the only fold that reaches the showdown's
    settlement): one board, the flop."""
    rules = Rules(run_twice=True, rake_percent=5)
    hand = Hand.start([100, 100], Stakes(1, 2), rules=rules, deck=Deck.stacked(HEADS_UP.replace(" ", "")))
    for action in (call, check, Action.raise_to(10), Action.fold()):
        hand.act(action)
    assert hand.is_complete and [] == hand.second_board
    assert [3] == [len(e.cards) for e in hand.events() if e.kind == "board"]
