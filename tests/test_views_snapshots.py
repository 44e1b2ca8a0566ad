"""Per-seat views never leak hidden cards; snapshots round-trip and continue exactly; undo."""

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Hand, Stakes
from holdem.errors import SnapshotError
from holdem.hand.views import SeatView, views
from holdem.table.snapshot import from_json, to_json, undo
from tests.strategies import cards_in, examples, random_action
from tests.test_hand_properties import state

tables = st.tuples(
    st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=10), st.integers(0, 2**32)
)


@given(table=tables)
@settings(max_examples=examples(200), deadline=None)
def test_views_never_show_other_players_hidden_cards(table: tuple[list[int], int]) -> None:
    """At every step, a player's view holds only their own cards, the board and cards shown down."""
    stacks, seed = table
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    while True:
        shown = hand.result.shown if hand.result else ()
        public = set(hand.board) | {c for cards in shown if cards for c in cards}
        for player in range(len(stacks)):
            seen = cards_in(hand.view(player))
            assert seen <= public | set(hand.holes[player])
        assert [hand.view(player) for player in range(len(stacks))] == views(hand)  # all at once, the same
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))


@given(table=tables, reads=st.lists(st.booleans(), min_size=40, max_size=40))
@settings(max_examples=examples(100), deadline=None)
def test_a_view_shows_the_hand_as_it_was_when_made(table: tuple[list[int], int], reads: list[bool]) -> None:
    """A view copies the public state on first read, yet it is a snapshot: whether it is read at
    once or only after the hand has moved on (or pickled then), it holds the state of its moment."""
    stacks, seed = table
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    kept = []
    for read_now in reads:
        player = hand.actor if hand.actor is not None else 0
        seen = hand.view(player)
        kept.append((seen, views(hand)[player]))  # `views` copies everything at once
        if read_now:
            assert seen.stacks == tuple(hand.stacks)
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))
    for seen, copied in kept:
        assert tuple(copied) == tuple(seen) == tuple(pickle.loads(pickle.dumps(seen)))


@given(table=tables, ante=st.sampled_from([0, 1]))
@settings(max_examples=examples(100), deadline=None)
def test_a_view_round_trips_through_json(table: tuple[list[int], int], ante: int) -> None:
    """`SeatView.from_dict(to_dict())`, through JSON text, is the same view, field for field, for
    every player at every step (what a server sends a bot over the network)."""
    stacks, seed = table
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2, ante=ante), rng=rng)
    while True:
        for seen in views(hand):
            back = SeatView.from_dict(json.loads(json.dumps(seen.to_dict())))
            assert tuple(seen) == tuple(back) and seen.legal == back.legal
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))


@pytest.mark.parametrize(
    "damage",
    [lambda d: [], lambda d: {"player": 0}, lambda d: d | {"player": "x"}, lambda d: d | {"position": "BTN"},
     lambda d: d | {"phase": "dusk"}, lambda d: d | {"hole": ["Xx", "As"]}],
)  # fmt: skip
def test_a_damaged_view_is_a_snapshot_error(damage: Any) -> None:
    """Not an object, fields missing, a player or position that does not fit, a bad phase or card."""
    data = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1)).view(0).to_dict()
    with pytest.raises(SnapshotError, match="view"):
        SeatView.from_dict(damage(data))


def test_a_view_is_read_only() -> None:
    """A view's fields cannot be changed."""
    seen = Hand.start([100, 100], Stakes(1, 2), rng=random.Random(1)).view(0)
    for field in SeatView.FIELDS:
        with pytest.raises(AttributeError):
            setattr(seen, field, None)


def test_spectator_events_hide_every_hole_card() -> None:
    """events(None) shows no hole cards at all; events(p) shows only p's."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(5))
    holes = [e for e in hand.events(None) if e.kind == "hole"]
    assert 3 == len(holes) and all(e.cards == () for e in holes)
    mine = [e.cards for e in hand.events(1) if e.kind == "hole" and e.cards]
    assert [hand.holes[1]] == mine


@given(table=tables, cut=st.integers(0, 40))
@settings(max_examples=examples(200), deadline=None)
def test_snapshot_round_trips_and_continues_exactly(table: tuple[list[int], int], cut: int) -> None:
    """A hand restored from JSON at any point has the same state and the same future."""
    stacks, seed = table
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    for _ in range(cut):
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))
    restored = from_json(to_json(hand))
    assert state(hand) == state(restored)
    assert (hand.holes, hand.deck.order) == (restored.holes, restored.deck.order)
    while not hand.is_complete:
        action = random_action(hand, rng)
        hand.act(action)
        restored.act(action)
        assert state(hand) == state(restored)
    assert hand.result == restored.result


@given(table=tables, cut=st.integers(1, 30))
@settings(max_examples=examples(40), deadline=None)
def test_undo_restores_the_state_before_the_last_action(table: tuple[list[int], int], cut: int) -> None:
    """undo gives back exactly the hand as it was before the last action."""
    stacks, seed = table
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    before = state(hand)
    for _ in range(cut):
        if hand.is_complete:
            break
        before = state(hand)
        hand.act(random_action(hand, rng))
    if hand.history:
        assert before == state(undo(hand))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=99), "unsupported snapshot version 99"),
        (lambda d: d.update(format="x"), "not a holdem/hand snapshot"),
        (lambda d: d["actions"].append([2, "raise", 10**9]), "above the maximum"),
        (lambda d: d.update(deck=[5, 5]), "appears twice"),
        (lambda d: d.update(deck=[52]), "card indices 0..51"),
        (lambda d: d["actions"].append([2, "fold", 3]), "bad action"),
        (lambda d: d["starting_stacks"].__setitem__(0, -5), "positive whole number"),
        (lambda d: d.pop("rules"), "KeyError"),
    ],
)
def test_damaged_snapshots_are_clear_errors(change: Any, message: str) -> None:
    """A damaged snapshot raises SnapshotError naming the problem."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    data = json.loads(to_json(hand))
    change(data)
    with pytest.raises(SnapshotError, match=message):
        from_json(json.dumps(data))
    with pytest.raises(SnapshotError, match="not JSON"):
        from_json("{")
