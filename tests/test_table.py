"""The table: button placement, blinds and seats across hands (rules 1-3)."""

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from holdem import Action, Deck, Stakes
from holdem.errors import SnapshotError
from holdem.table.table import Table, TableError


def finish(table: Table) -> None:
    """Fold every hand to the big blind and end it."""
    hand = table.hand
    assert hand is not None
    while not hand.is_complete:
        hand.act(Action.fold())
    table.end_hand()


def table_of(names: str, *, button: str = "dead", stacks: int = 100) -> Table:
    table = Table(len(names), Stakes(1, 2), button=button, rng=random.Random(1))  # type: ignore[arg-type]
    for seat, name in enumerate(names):
        table.sit(seat, name, stacks)
    return table


def blinds_by_name(table: Table) -> dict[str, int]:
    hand = table.hand
    assert hand is not None
    names = {s: table.seats[s].name for s in table.hand_seats}  # type: ignore[union-attr]
    return {names[s]: b for s, b in zip(table.hand_seats, hand.declared_blinds, strict=True) if b}


def test_rule_01_three_to_two_nobody_posts_the_big_blind_twice() -> None:
    """When a table goes heads-up, the last big blind gets the button and the small blind."""
    table = table_of("ABC")
    table.start_hand()
    assert {"B": 1, "C": 2} == blinds_by_name(table)
    finish(table)
    table.leave(0)  # A leaves: heads-up between B and C; C posted the big blind last
    hand = table.start_hand()
    assert {"C": 1, "B": 2} == blinds_by_name(table)
    assert "C" == table.seats[table.button].name  # type: ignore[index,union-attr]
    assert table.hand_seats[hand.actor] == table.button  # type: ignore[index]


def test_rule_02_dead_button_keeps_the_big_blind_moving() -> None:
    """TR 85: when the big blind busts, the next player still posts the big blind; no small blind."""
    table = table_of("ABCD")
    table.start_hand()  # button A, small B, big C
    assert {"B": 1, "C": 2} == blinds_by_name(table)
    finish(table)
    table.leave(2)  # C, the last big blind, is gone
    table.start_hand()
    assert {"D": 2} == blinds_by_name(table)  # D is due the big blind; the small blind is dead
    assert 1 == table.button  # the button moves to B's seat (last small blind)
    finish(table)
    table.start_hand()
    assert {"D": 1, "A": 2} == blinds_by_name(table)
    assert 2 == table.button  # a dead button, in front of C's empty seat


def test_rule_02_dead_button_when_the_small_blind_leaves() -> None:
    """When last hand's small blind is gone, the button stays in front of their empty seat."""
    table = table_of("ABCD")
    table.start_hand()
    finish(table)
    table.leave(1)  # B, the last small blind
    table.start_hand()
    assert (1, {"C": 1, "D": 2}) == (table.button, blinds_by_name(table))


def test_rule_02_moving_button_in_cash_games() -> None:
    """With a moving button the button moves one player each hand."""
    table = table_of("ABCD", button="moving")
    buttons = []
    for _ in range(4):
        table.start_hand()
        buttons.append(table.button)
        finish(table)
    assert [0, 1, 2, 3] == buttons


def test_rule_03_missed_blinds_are_posted_live_and_dead() -> None:
    """A player who sat out through the blinds posts a live big blind and a dead small blind."""
    table = table_of("ABCDE", button="moving")
    table.start_hand()  # button A, small B, big C
    finish(table)
    table.sit_out(3)  # D sits out while the blinds pass
    for _ in range(2):
        table.start_hand()
        finish(table)
    assert table.seats[3].owes_big and table.seats[3].owes_small  # type: ignore[union-attr]
    table.sit_in(3, post_missed=True)
    hand = table.start_hand()
    k = table.hand_seats.index(3)
    assert (2, 1) == (hand.declared_blinds[k], hand.declared_dead[k])
    assert not table.seats[3].owes_big  # type: ignore[union-attr]


def test_rule_03_wait_for_the_big_blind() -> None:
    """A new player who waits is dealt in when the big blind reaches their seat."""
    table = table_of("ABCD", button="moving")
    table.start_hand()  # button A, small B, big C
    finish(table)
    table.leave(0)
    table.sit(0, "N", 100)  # waits for the big blind by default
    dealt = []
    for _ in range(4):
        table.start_hand()
        dealt.append((0 in table.hand_seats, table.big_blind_seat == 0))
        finish(table)
    first = next(k for k, (playing, _) in enumerate(dealt) if playing)
    assert first > 0  # not dealt in at once …
    assert (True, True) == dealt[first]  # … but as the big blind, when it reaches the seat


def test_rule_03_new_player_may_post_to_play_at_once() -> None:
    """A new player who posts a big blind is dealt in at once; action still starts left of the big blind."""
    table = table_of("ABCD", button="moving")
    table.start_hand()
    finish(table)
    table.leave(0)
    table.sit(0, "N", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    assert 0 in table.hand_seats
    assert table.hand_seats[hand.actor] != 0 or table.big_blind_seat == 3  # type: ignore[index]


def test_short_stacks_post_what_they_have_at_a_table() -> None:
    """Rule 4 through the table: a 1-chip big blind is all-in."""
    table = table_of("ABC", stacks=1)
    hand = table.start_hand()
    assert 0 == hand.stacks[table.hand_seats.index(table.big_blind_seat)]  # type: ignore[arg-type]


def test_tournament_eliminations_and_top_ups() -> None:
    """Busted tournament players leave their seat; add_chips tops a stack up between hands."""
    table = table_of("ABC", stacks=10)
    # Hand order B (small blind), C (big blind), A (button): B gets aces, A kings.
    hand = table.start_hand(deck=Deck.stacked("As 2c Ks Ah 3d Kh"))
    hand.act(Action.raise_to(10))  # A all-in
    hand.act(Action.call())  # B calls all-in
    hand.act(Action.fold())
    table.end_hand()
    assert (["A"], None) == (table.eliminated, table.seats[0])
    assert (22, 8) == (table.seats[1].stack, table.seats[2].stack)  # type: ignore[union-attr]
    table.add_chips(2, 12)
    assert 20 == table.seats[2].stack  # type: ignore[union-attr]
    with pytest.raises(TableError, match="positive whole number"):
        table.add_chips(1, -5)


def test_table_errors_change_nothing() -> None:
    """Seat taken, bad seat, changes during a hand: clear errors."""
    table = table_of("AB")
    with pytest.raises(TableError, match="seat 0 is taken"):
        table.sit(0, "X", 100)
    with pytest.raises(TableError, match="no seat 7"):
        table.sit(7, "X", 100)
    table.start_hand()
    with pytest.raises(TableError, match="while a hand is in progress"):
        table.leave(0)
    with pytest.raises(TableError, match="no finished hand"):
        table.end_hand()


def test_table_snapshot_round_trips_mid_hand() -> None:
    """A table with a hand in progress restores to the same seats, button and hand."""
    from holdem.table.snapshot import table_from_json, table_to_json

    table = table_of("ABCD", button="moving")
    table.start_hand()
    finish(table)
    table.sit_out(2)
    hand = table.start_hand()
    hand.act(Action.call())
    restored = table_from_json(table_to_json(table))
    assert table_to_json(table) == table_to_json(restored)
    assert restored.hand is not None and hand.legal_actions() == restored.hand.legal_actions()
    finish(restored)
    finish(table)
    assert [s.stack for s in table.seats if s] == [s.stack for s in restored.seats if s]


def saved_mid_hand() -> dict[str, Any]:
    """A four-player table's snapshot with a hand in progress, as data."""
    from holdem.table.snapshot import table_to_json

    table = table_of("ABCD", button="dead")
    table.start_hand().act(Action.call())
    return dict(json.loads(table_to_json(table)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["hand"].update(starting_stacks=[15000] * 4),
            "starting stacks .* are not the seats' stacks",
        ),
        (lambda d: d.update(hand_seats=d["hand_seats"][:3] + d["hand_seats"][:1]), "names a seat twice"),
        (lambda d: d.update(hand_seats=d["hand_seats"][::-1]), "not in dealing order"),
        (lambda d: d["seats"].__setitem__(d["hand_seats"][0], None), "names empty seats"),
    ],
    ids=["starting-stacks", "duplicate-seat", "order", "empty-seat"],
)
def test_a_table_snapshot_must_agree_with_itself(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    """A hand whose players are not the seats in dealing order with the seats' chips would create or
    destroy chips when it ends: the snapshot is refused, naming the disagreement."""
    from holdem.table.snapshot import table_from_json

    data = saved_mid_hand()
    change(data)
    with pytest.raises(SnapshotError, match=message):
        table_from_json(json.dumps(data))


def test_table_hands_with_missed_blinds_export_and_replay() -> None:
    """Dead money and the first actor survive a PHH round trip (as _dead and _first_to_act)."""
    from holdem.formats import phh

    table = table_of("ABCDE", button="moving")
    table.start_hand()
    finish(table)
    table.sit_out(3)
    for _ in range(2):
        table.start_hand()
        finish(table)
    table.sit_in(3, post_missed=True)
    hand = table.start_hand()
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(Action.check() if legal.can_check else Action.call())
    data = phh.loads(phh.dumps(phh.export(hand)))[0]
    assert any(data["_dead"])
    assert hand.result is not None and hand.result.final_stacks == phh.replay(data).finishing_stacks


def test_rule_02_dead_button_never_lands_on_the_big_blind_after_heads_up() -> None:
    """A (seat 0) and B (seat 4) play heads-up, then C sits in seat 2: A is due the big blind, B posts
    the small blind, and the button sits behind B, so the small blind acts first on the flop."""
    table = Table(6, Stakes(5, 10))
    table.sit(0, "A", 1000)
    table.sit(4, "B", 1000)
    table.start_hand()
    assert {"A": 5, "B": 10} == blinds_by_name(table)
    finish(table)
    table.sit(2, "C", 1000)
    hand = table.start_hand()
    assert {"B": 5, "A": 10} == blinds_by_name(table)
    assert table.button not in (table.big_blind_seat, table.small_blind_seat)
    for action in (Action.call(), Action.call(), Action.check()):  # C, B, A preflop
        hand.act(action)
    assert "B" == table.seats[table.hand_seats[hand.actor]].name  # type: ignore[index,union-attr]


def test_rule_02_a_newcomer_taking_the_big_blind_makes_three_handed_blinds() -> None:
    """Heads-up ann and bob; cy sits down and waits for the big blind. When it reaches cy, the hand
    has three players: cy the big blind, bob (before cy) the small blind, ann (before bob) the
    button: the button never posts the small blind with three dealt in (it did: bob was both)."""
    table = Table(6, Stakes(1, 2), button="moving", rng=random.Random(1))
    table.sit(0, "A", 100)
    table.sit(1, "B", 100)
    table.start_hand()
    finish(table)
    table.sit(2, "C", 100)
    for _ in range(4):
        hand = table.start_hand()
        if 2 in table.hand_seats:
            break
        finish(table)
    assert (0, 1, 2) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert ((1, 2, 0), (1, 2, 0)) == (table.hand_seats, hand.declared_blinds)  # dealt from bob; ann last


def test_rule_03_a_new_player_who_posts_posts_a_big_blind() -> None:
    """Seats 0, 2, 4 play (button 0, blinds 2 and 4); D sits in seat 3 and posts: D posts a big blind,
    and seat 4 does not post the big blind twice in a row."""
    table = Table(6, Stakes(5, 10), button="moving")
    for seat, name in ((0, "A"), (2, "B"), (4, "C")):
        table.sit(seat, name, 1000)
    table.start_hand()
    assert (0, {"B": 5, "C": 10}) == (table.button, blinds_by_name(table))
    finish(table)
    table.sit(3, "D", 1000, wait_for_big_blind=False)
    table.start_hand()
    posts = blinds_by_name(table)
    assert 10 == posts["D"]
    assert 10 != posts.get("C") and 4 != table.big_blind_seat


def test_a_waiting_player_cannot_stall_the_table() -> None:
    """A and B play, C waits for the big blind, A leaves: B and C can play, so a hand starts."""
    table = Table(6, Stakes(5, 10), button="moving")
    table.sit(0, "A", 1000)
    table.sit(1, "B", 1000)
    table.start_hand()
    finish(table)
    table.sit(2, "C", 1000)  # waits for the big blind
    table.leave(0)
    table.start_hand()
    assert {1, 2} == set(table.hand_seats)
