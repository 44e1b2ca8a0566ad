"""Input that once corrupted state or crashed with a traceback: each is now a clear, typed error."""

import json
import random
from typing import Any

import pytest

from holdem import Action, ActionKind, Deck, Hand, Rules, Stakes, Structure, Table
from holdem.cards.card import CARDS
from holdem.errors import (
    HoldemError,
    IllegalActionError,
    InvalidAmountError,
    InvalidConfigError,
    InvalidHistoryError,
    InvalidPlayerError,
    SnapshotError,
    TableError,
)
from holdem.formats.phh import loads, replay
from holdem.table.snapshot import from_json, table_from_json, table_to_json, to_json


def test_action_kinds_given_as_text_become_action_kinds() -> None:
    """Action("fold") is the fold, so the hand and its history agree (it was recorded but not applied)."""
    assert Action.fold() == Action("fold")  # type: ignore[arg-type]
    assert ActionKind.RAISE is Action("raise", 500).kind  # type: ignore[arg-type]
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    hand.act(Action("fold"))  # type: ignore[arg-type]
    assert hand.folded[2]
    assert to_json(hand) == to_json(from_json(to_json(hand)))


@pytest.mark.parametrize(
    ("kind", "amount", "message"),
    [
        ("shove", None, "unknown action kind 'shove'"),
        (ActionKind.ALL_IN, 5, "takes no amount"),
        (ActionKind.FOLD, 0, "takes no amount"),
        (ActionKind.RAISE, None, "whole number"),
        (ActionKind.RAISE, "100", "whole number"),
        (ActionKind.RAISE, 2.0, "whole number"),
        (ActionKind.RAISE, True, "whole number"),
        (ActionKind.RAISE, 0, "positive"),
    ],
)
def test_malformed_actions_are_refused_when_made(kind: object, amount: object, message: str) -> None:
    """An action that could not mean anything is refused at construction, with the reason."""
    with pytest.raises(IllegalActionError, match=message):
        Action(kind, amount)  # type: ignore[arg-type]


def test_a_short_deck_is_refused_before_the_hand_starts() -> None:
    """Four cards cannot deal a hand: refused up front, not half-way through an action."""
    with pytest.raises(InvalidConfigError, match="deck has 4 cards; 3 players need 14"):
        Hand.start([100, 100, 100], Stakes(1, 2), deck=Deck(CARDS[:4]))


def test_a_deck_with_a_repeated_card_is_refused() -> None:
    """The same card twice is a DuplicateCardError when the deck is made."""
    with pytest.raises(HoldemError, match="appears twice"):
        Deck([*CARDS[:20], CARDS[0]])


def test_stakes_structure_given_as_text_is_that_structure() -> None:
    """Stakes(structure="fixed-limit") plays fixed-limit; an unknown name is an error."""
    assert Structure.FIXED_LIMIT is Stakes(1, 2, structure="fixed-limit").structure  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="unknown structure 'spread-limit'"):
        Stakes(1, 2, structure="spread-limit")  # type: ignore[arg-type]


@pytest.mark.parametrize(("small", "big"), [(5, 2), (2, 1)])
def test_small_blind_above_the_big_blind_is_refused(small: int, big: int) -> None:
    with pytest.raises(InvalidConfigError, match=r"small blind \d+ is more than the big blind"):
        Stakes(small, big)


@pytest.mark.parametrize("field", ["short_all_in_reopens", "forbid_free_fold", "muck_losers"])
def test_rule_flags_must_be_booleans(field: str) -> None:
    """ "false" is not False: a rule flag of the wrong type is an error, not a silent truth."""
    with pytest.raises(InvalidConfigError, match=field):
        Rules(**{field: "false"})


def test_rule_flags_in_a_snapshot_are_type_checked() -> None:
    data = json.loads(to_json(Hand.start([100, 100], Stakes(1, 2), rng=random.Random(1))))
    data["rules"]["short_all_in_reopens"] = "false"
    with pytest.raises(SnapshotError, match="short_all_in_reopens"):
        from_json(json.dumps(data))


def _table_json() -> dict[str, object]:
    table = Table(6, Stakes(1, 2))
    table.sit(0, "ann", 100)
    table.sit(3, "bob", 100)
    result: dict[str, object] = json.loads(table_to_json(table))
    return result


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["seats"][0].update(stack=-50), "stack"),
        (lambda d: d["seats"][0].update(stack="100"), "stack"),
        (lambda d: d["seats"][0].update(sitting_out="no"), "sitting_out"),
        (lambda d: d["seats"][0].update(name=7), "name"),
        (lambda d: d.update(button=99), "button"),
        (lambda d: d.update(big_blind_seat=True), "big_blind_seat"),
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.update(hand_seats=[0, 9]), "hand_seats"),
    ],
)
def test_damaged_table_snapshots_are_refused(change: object, message: str) -> None:
    data = _table_json()
    change(data)  # type: ignore[operator]
    with pytest.raises(SnapshotError, match=message):
        table_from_json(json.dumps(data))


@pytest.mark.parametrize(
    "text", ["[" * 100_000, None, 5, "null", '{"format": "holdem/hand", "version": true}']
)
def test_snapshot_text_that_is_not_a_snapshot_is_a_snapshot_error(text: object) -> None:
    with pytest.raises(SnapshotError):
        from_json(text)  # type: ignore[arg-type]
    with pytest.raises(SnapshotError):
        table_from_json(text)  # type: ignore[arg-type]


PHH = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cbr 6', 'p1 f']
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("variant = 'NT'", "variant = ['NT']", "variant"),
        ("min_bet = 2", "min_bet = " + "9" * 5000, "min_bet|number"),
        ("min_bet = 2", "min_bet = true", "min_bet"),
        ("p2 cbr 6", "p2 cbr ²", "whole-number amount"),
        ("p2 cbr 6", "p٢ cbr 6", "not a hold'em action"),
    ],
)
def test_malformed_histories_are_invalid_history_errors(old: str, new: str, message: str) -> None:
    """Each of these once escaped as a TypeError or ValueError traceback."""
    assert old in PHH
    with pytest.raises(InvalidHistoryError, match=message):
        replay(loads(PHH.replace(old, new))[0])


@pytest.mark.parametrize("player", [-1, 5, True, 1.0, "0"])
def test_view_of_a_player_not_in_the_hand_is_a_typed_error(player: object) -> None:
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    with pytest.raises(InvalidPlayerError, match="no player"):
        hand.view(player)  # type: ignore[arg-type]


@pytest.mark.parametrize("player", [1.0, True, "2"])
def test_act_for_a_player_that_is_not_a_player_number_is_refused(player: object) -> None:
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    assert 2 == hand.actor
    with pytest.raises(IllegalActionError, match="player"):
        hand.act(Action.fold(), player)  # type: ignore[arg-type]
    assert not hand.folded[2]


def test_raise_amount_errors_still_name_the_player_and_street() -> None:
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    with pytest.raises(InvalidAmountError, match=r"below the minimum 4 \(player 2, preflop\)"):
        hand.act(Action.raise_to(3))


def test_straddles_given_as_a_list_are_a_tuple() -> None:
    """`straddles=[4]` is the straddle of 4 (stakes stay hashable and frozen); a non-list is refused."""
    assert (4,) == Stakes(1, 2, straddles=[4]).straddles  # type: ignore[arg-type]
    hand = Hand.start([100] * 4, Stakes(1, 2, straddles=[4]))  # type: ignore[arg-type]
    assert (1, 2, 4, 0) == hand.declared_blinds
    with pytest.raises(InvalidConfigError, match="straddles must be a list"):
        Stakes(1, 2, straddles=4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Table(6, (1, 2)), InvalidConfigError, r"stakes must be a Stakes, got \(1, 2\)"),
        (lambda: Table(6, Stakes(1, 2), rules="acpc"), InvalidConfigError, "rules must be a Rules"),
        (lambda: Table(True, Stakes(1, 2)), InvalidConfigError, "2 to 10 seats, got True"),
        (lambda: Stakes(1, 2, straddles=(1,)), InvalidConfigError, "straddle 1 is less than the blind"),
        (lambda: Stakes(1, 2, straddles=(4, 3)), InvalidConfigError, "straddle 3 is less than the blind"),
        (lambda: Stakes(1, 2, structure="fixed-limit", small_bet=4, big_bet=2), InvalidConfigError,
         "big bet 2 is less than the small bet 4"),
        (lambda: Table(6, Stakes(1, 2)).sit(True, "ann", 100), TableError, "no seat True"),
        (lambda: Table(6, Stakes(1, 2)).sit(0, 5, 100), TableError, "name must be non-empty text, got 5"),
        (lambda: Table(6, Stakes(1, 2)).sit(0, "ann", 100, wait_for_big_blind="no"), TableError,
         "wait_for_big_blind must be true or false"),
    ],
)  # fmt: skip
def test_values_that_failed_late_are_refused_when_made(
    make: Any, error: type[Exception], message: str
) -> None:
    """Stakes, tables and seats that used to fail later (TypeError, AttributeError) or were accepted
    although meaningless are a typed error naming the value when made."""
    with pytest.raises(error, match=message):
        make()
