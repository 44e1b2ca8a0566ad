"""Fuzzing what comes from outside: hand histories and snapshots, mutated in structure and in text.

Whatever the damage (truncation, a value of another type, huge numbers, deep nesting, a missing
field), reading either succeeds or raises a typed `HoldemError`: never another exception.
"""

import contextlib
import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.errors import HoldemError, SnapshotError
from holdem.formats import phh
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.table.snapshot import from_json, table_from_json, table_to_json, to_json
from holdem.table.table import Table
from tests.strategies import examples, random_action

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1.5, float("inf"), 10**400, "", "x", "NT", "As", "p1 f", "d dh p1 AsKs",
    [], [None], [1, "a"], {}, {"a": 1}, [[[[[[[[[[1]]]]]]]]]],
]  # fmt: skip


def played_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand.start([rng.randint(20, 400) for _ in range(rng.randint(2, 6))], Stakes(1, 2), rng=rng)
    for _ in range(rng.randint(0, 12)):
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))
    return hand


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON-like tree, as a path of keys and indices."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found += paths(item, (*prefix, k))
    return found


def mutate(tree: Any, data: st.DataObject) -> Any:
    """The tree with one place replaced by an odd value, deleted, or nested deeply."""
    tree = copy.deepcopy(tree)
    places = [p for p in paths(tree) if p]
    if not places:
        return data.draw(st.sampled_from(ODD_VALUES))
    path = data.draw(st.sampled_from(places))
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    kind = data.draw(st.sampled_from(["replace", "delete", "nest"]))
    if kind == "delete":
        del parent[path[-1]]
    elif kind == "nest":
        deep: Any = parent[path[-1]]
        for _ in range(data.draw(st.sampled_from([5, 50, 500]))):
            deep = [deep]
        parent[path[-1]] = deep
    else:
        parent[path[-1]] = data.draw(st.sampled_from(ODD_VALUES))
    return tree


def damage_text(text: str, data: st.DataObject) -> str:
    """Text truncated, or with a run of brackets, a huge number or stray characters spliced in."""
    at = data.draw(st.integers(0, len(text)))
    piece = data.draw(st.sampled_from(["", "[" * 3000, "9" * 5000, "\x00", "²", "{", '"', "'", "\n[1]\n"]))
    return text[:at] + piece + (text[at:] if data.draw(st.booleans()) else "")


def to_toml(value: dict[str, Any]) -> str | None:
    """PHH text for a mutated hand, or None where TOML cannot hold the mutation (null, tables)."""
    try:
        return phh.dumps(value)
    except HoldemError:
        return None


def read_phh(text: str) -> None:
    with contextlib.suppress(HoldemError):
        for hand in phh.loads(text, many=text.startswith("[")):
            phh.replay(hand)


def read_snapshot(text: str, table: bool) -> None:
    with contextlib.suppress(HoldemError):
        (table_from_json if table else from_json)(text)


@given(seed=st.integers(0, 2**32), data=st.data())
@settings(max_examples=examples(300), deadline=None)
def test_mutated_histories_replay_or_raise_a_holdem_error(seed: int, data: st.DataObject) -> None:
    """A played hand's PHH, damaged in structure or in text, never escapes as another exception."""
    document = phh.export(played_hand(seed))
    text = to_toml(mutate(document, data)) if data.draw(st.booleans()) else None
    read_phh(text if text is not None else damage_text(phh.dumps(document), data))


@given(seed=st.integers(0, 2**32), table=st.booleans(), data=st.data())
@settings(max_examples=examples(300), deadline=None)
def test_mutated_snapshots_restore_or_raise_a_snapshot_error(
    seed: int, table: bool, data: st.DataObject
) -> None:
    """A hand or table snapshot, damaged in structure or in text, never escapes as another exception."""
    if table:
        room = Table(6, Stakes(1, 2), rng=random.Random(seed))
        for seat in range(0, 6, 2):
            room.sit(seat, f"p{seat}", 100)
        hand = room.start_hand()
        rng = random.Random(seed)
        for _ in range(rng.randint(0, 6)):
            if not hand.is_complete:
                hand.act(random_action(hand, rng))
        text = table_to_json(room)
    else:
        text = to_json(played_hand(seed))
    structural = data.draw(st.booleans())
    text = json.dumps(mutate(json.loads(text), data)) if structural else damage_text(text, data)
    read_snapshot(text, table)


def chips_at(table: Table) -> int:
    """The chips the seats hold (during a hand, a dealt seat holds what it started the hand with)."""
    return sum(seat.stack for seat in table.seats if seat is not None)


def play_out(table: Table, rng: random.Random) -> int:
    """Finish the hand in progress and end it; returns the rake it took."""
    hand = table.hand
    if hand is None:
        return 0
    while not hand.is_complete:
        hand.act(random_action(hand, rng))
    assert hand.result is not None
    table.end_hand()
    return hand.result.rake


@given(seed=st.integers(0, 2**32), data=st.data())
@settings(max_examples=examples(300), deadline=None)
def test_a_mutated_table_snapshot_conserves_chips_or_is_refused(seed: int, data: st.DataObject) -> None:
    """Any field of a table snapshot taken mid-hand, changed to another value: the snapshot loads to
    a table whose hands conserve chips (this one and the next), or it is a `SnapshotError`."""
    rng = random.Random(seed)
    room = Table(6, Stakes(5, 10), button=rng.choice(["dead", "moving"]), rng=rng)  # type: ignore[arg-type]
    for seat in rng.sample(range(6), rng.randint(2, 6)):
        room.sit(seat, f"p{seat}", rng.randint(5, 600))
    hand = room.start_hand()
    for _ in range(rng.randint(0, 8)):
        if not hand.is_complete:
            hand.act(random_action(hand, rng))
    document = json.loads(table_to_json(room))
    places = [p for p in paths(document) if p]
    path = data.draw(st.sampled_from(places))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(
        st.one_of(
            st.sampled_from(ODD_VALUES), st.integers(-5, 20_000), st.lists(st.integers(0, 9), max_size=6)
        )
    )
    try:
        table = table_from_json(json.dumps(document), rng=random.Random(seed))
    except SnapshotError:
        return
    before = chips_at(table)
    rake = play_out(table, rng)
    assert before == chips_at(table) + rake
    with contextlib.suppress(HoldemError):  # too few players left to deal, say
        table.start_hand()
        rake += play_out(table, rng)
    assert before == chips_at(table) + rake
