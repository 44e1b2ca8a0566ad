"""The server's table state machine, without the network: seats, tokens, the clock, chips."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.errors import RefusedError, RequestError, SnapshotError
from holdem.formats import phh
from holdem.hand.actions import Action
from holdem.server.change import Change
from holdem.server.config import status_of, table_config
from holdem.server.messages import state_message
from holdem.server.room import Room, token_digest

REFUSED = (RequestError, RefusedError, SnapshotError)  # of the request, by the state (409), a bad store (500)


def room(**settings: object) -> Room:
    return Room("t1", table_config({"seats": 6, "action_seconds": 10, "time_bank_seconds": 30} | settings))


def test_a_token_is_random_256_bits_and_only_its_digest_is_kept() -> None:
    r = room()
    seat, token, _ = r.join("ann", 100, None, 0.0)
    assert len(token) >= 43  # 32 random bytes, URL-safe base64
    assert token_digest(token) == r.members[seat].digest
    assert token not in str(r.to_dict())
    assert seat == r.seat_of_token(token_digest(token))
    assert r.seat_of_token(token_digest(token + "x")) is None


def test_buy_ins_outside_the_limits_are_refused_and_change_nothing() -> None:
    r = room(min_buy_in=40, max_buy_in=200)
    before = r.to_dict()
    for name, chips, seat in [("ann", 39, None), ("ann", 201, None), ("ann", 50.5, None), ("", 100, None),
                              ("ann", 100, 6), ("ann", 100, -1), ("a" * 33, 100, None)]:  # fmt: skip
        with pytest.raises(REFUSED):
            r.join(name, chips, seat, 0.0)
    assert before == r.to_dict()
    r.join("ann", 100, 2, 0.0)
    with pytest.raises(RefusedError, match="taken"):
        r.join("bob", 100, 2, 0.0)
    with pytest.raises(RefusedError, match="already at this table"):
        r.join("ann", 100, 3, 0.0)


def test_a_refused_buy_in_names_the_field_and_the_range() -> None:
    """{"name": "dan", "buy_in": 5} and a missing buy-in name the field and what this table allows."""
    r = room(min_buy_in=40, max_buy_in=200)
    for chips in (5, None, 250):
        with pytest.raises(
            RequestError, match=f"buy_in must be a whole number of chips from 40 to 200, got {chips}"
        ):
            r.join("dan", chips, None, 0.0)
    seat = r.join("dan", 150, None, 0.0)[0]
    with pytest.raises(
        RequestError, match=r"amount must be a whole number of chips from 1 to 50 \(you have 150\), got 80"
    ):
        r.rebuy(seat, 80, 0.0)


def test_a_hand_starts_when_two_players_are_in() -> None:
    r = room()
    r.join("ann", 100, None, 0.0)
    assert r.table.hand is None and r.number == 0
    r.join("bob", 100, None, 0.0)
    assert r.table.hand is not None and r.number == 1


def play_out(r: Room, rng: random.Random, now: float = 0.0) -> list[Change]:
    """Random legal actions until the hand in progress ends."""
    changes = []
    number = r.number
    while r.table.hand is not None and r.number == number:
        legal = r.table.hand.legal_actions()
        assert legal is not None
        action = Action.check() if legal.can_check else rng.choice([Action.call(), Action.fold()])
        changes.append(r.act(r.table.seat_of(legal.player), number, action, now))
    return changes


def test_joining_leaving_and_rebuying_during_a_hand_take_effect_when_it_ends() -> None:
    r, rng = room(), random.Random(1)
    ann, _, _ = r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    cid, _, _ = r.join("cid", 80, None, 0.0)
    assert cid not in r.table.hand_seats and r.members[cid].joining == 80
    r.leave(ann, 0.0)
    assert r.members[ann].leaving and ann in r.members
    with pytest.raises(RequestError, match=r"from 1 to 120 \(you have 80\), got 121"):
        r.rebuy(cid, 121, 0.0)
    r.rebuy(cid, 20, 0.0)
    changes = play_out(r, rng)
    ledger = [row for change in changes for row in change.ledger]
    assert ann not in r.members and [row[4] for row in ledger] == ["cash_out"]
    assert r.table.seats[cid] is not None and r.table.seats[cid].stack == 100
    assert 1 == sum(len(change.hands) for change in changes)


def test_stale_and_out_of_turn_actions_are_refused_and_change_nothing() -> None:
    r = room()
    a, _, _ = r.join("ann", 100, None, 0.0)
    b, _, _ = r.join("bob", 100, None, 0.0)
    actor = r.actor_seat()
    other = b if actor == a else a
    before = r.to_dict()
    refused = [(other, 1, Action.call()), (actor, 0, Action.call()), (actor, "1", Action.call()),
               (actor, 1, Action.raise_to(10_000)), (actor, 1, Action.check())]  # fmt: skip
    for seat, number, action in refused:
        with pytest.raises(REFUSED):
            r.act(seat, number, action, 0.0)
    assert before == r.to_dict()


def test_the_clock_spends_the_decision_time_then_the_time_bank() -> None:
    r = room(action_seconds=10, time_bank_seconds=30)
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    seat = r.actor_seat()
    assert (seat, 10.0, 30.0) == r.clock(0.0)
    assert (seat, 0.0, 25.0) == r.clock(15.0)
    assert r.expire(39.9) is None
    r.act(seat, 1, Action.call(), 15.0)
    assert 25.0 == r.members[seat].bank


def test_when_time_runs_out_the_server_checks_if_free_else_folds_and_sits_the_player_out() -> None:
    r = room(action_seconds=1, time_bank_seconds=1)
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    seat = r.actor_seat()
    assert seat is not None
    change = r.expire(2.5)  # the small blind owes a call: folded
    assert change is not None and 1 == len(change.hands)
    assert "f" in phh.loads(change.hands[0][1])[0]["actions"][-1].split()
    assert r.table.seats[seat].sitting_out and r.members[seat].bank == 0
    assert r.table.hand is None  # one player left in: no hand until the other sits in
    r.sit_in(seat, False, 3.0)
    assert r.table.hand is not None and r.number == 2


def test_a_player_who_sits_out_is_dealt_no_hands() -> None:
    r, rng = room(), random.Random(2)
    seats = [r.join(name, 100, None, 0.0)[0] for name in ("ann", "bob", "cid")]
    r.sit_out(seats[2])
    play_out(r, rng)
    assert seats[2] not in r.table.hand_seats


def test_a_request_that_changes_nothing_is_refused_so_nothing_is_stored_or_sent() -> None:
    """`sit_in` while in, or `sit_out` while out, is refused (the app stores and broadcasts only
    what a request changed)."""
    r = room()
    seat = r.join("ann", 100, None, 0.0)[0]
    before = r.to_dict()
    with pytest.raises(RequestError, match="already sitting in"):
        r.sit_in(seat, False, 1.0)
    r.sit_out(seat)
    out = r.to_dict()
    with pytest.raises(RequestError, match="already sitting out"):
        r.sit_out(seat)
    assert (out, True) == (r.to_dict(), before != out)


def test_table_settings_beyond_what_joins_could_meet_are_refused() -> None:
    with pytest.raises(RequestError, match="big_blind must be a whole number from 0 to 1,000,000,000,000"):
        table_config({"big_blind": 10**30, "min_buy_in": 10**30, "max_buy_in": 10**30})


def test_a_stored_room_restores_to_the_same_hand() -> None:
    r, rng = room(), random.Random(3)
    for name in ("ann", "bob", "cid"):
        r.join(name, 100, None, 0.0)
    legal = r.table.hand.legal_actions()
    r.act(r.table.seat_of(legal.player), 1, Action.call(), 0.0)
    copy_ = Room.from_dict(copy.deepcopy(r.to_dict()), 5.0)
    assert r.to_dict() == copy_.to_dict()
    assert r.table.hand.holes == copy_.table.hand.holes and r.actor_seat() == copy_.actor_seat()
    play_out(r, rng)
    play_out(copy_, random.Random(3))
    assert r.to_dict()["table"]["seats"] == copy_.to_dict()["table"]["seats"]


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 6))
def test_chips_are_conserved_and_refusals_change_nothing_over_random_requests(
    rng: random.Random, seats: int
) -> None:
    r = Room("t", table_config({"seats": seats, "action_seconds": 1, "time_bank_seconds": 1}))
    bought, cashed, now = 0, 0, 0.0
    for step in range(120):
        now += rng.random()
        before = r.to_dict()
        what = rng.random()
        seat = rng.randrange(seats)
        try:
            if what < 0.15:
                chips = rng.choice([20, 40, 100, 200, 250])
                change = r.join(f"p{step}", chips, rng.choice([None, seat]), now)[2]
            elif what < 0.22:
                change = r.leave(seat, now)
            elif what < 0.30:
                change = r.rebuy(seat, rng.choice([1, 50, 200]), now)
            elif what < 0.34:
                change = r.sit_out(seat) if seat in r.members else r.leave(seat, now)
            elif what < 0.40:
                change = r.sit_in(seat, rng.random() < 0.5, now)
            elif what < 0.45:
                change = r.expire(now + 3) or Change()
            else:
                hand = r.table.hand
                legal = hand.legal_actions() if hand is not None else None
                actor = r.table.seat_of(legal.player) if legal is not None else seat
                action = rng.choice(
                    [Action.fold(), Action.check(), Action.call(), Action.raise_to(rng.randrange(1, 300))]
                )
                change = r.act(actor if rng.random() < 0.9 else seat, r.number, action, now)
        except REFUSED:
            assert before == r.to_dict()
            continue
        for row in change.ledger:
            if row[4] == "cash_out":
                cashed += row[5]
            else:
                bought += row[5]
        for number, text, _ in change.hands:
            replay = phh.replay(phh.loads(text)[0])
            assert list(replay.finishing_stacks or ()) == phh.loads(text)[0]["finishing_stacks"], number
        assert bought - cashed == r.chips()


def test_dealing_uses_the_systems_cryptographically_secure_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """A room's table has no random source of its own: each deck is read from the system's CSPRNG
    (`os.urandom`, 64 bits a card dealt)."""
    import os

    import holdem.cards.deck

    read: list[int] = []
    real = os.urandom

    def watched(size: int) -> bytes:
        read.append(size)
        return real(size)

    monkeypatch.setattr(holdem.cards.deck.os, "urandom", watched)
    r = room()
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    assert r.table.hand is not None and r.table.rng is None
    assert [8 * (2 * 2 + 8)] == read  # one read for the heads-up hand's 12 cards


def test_a_hand_the_blinds_alone_decide_is_recorded_and_the_next_one_dealt() -> None:
    for _ in range(20):  # the cards decide whether bob busts or doubles up
        r = room(seats=2, small_blind=2, big_blind=2, min_buy_in=2)
        r.join("ann", 200, None, 0.0)
        _, _, change = r.join("bob", 2, None, 0.0)  # all-in from the blind, and matched: over at once
        assert 1 <= len(change.hands) and 1 == phh.loads(change.hands[0][1])[0]["hand"]
        assert r.table.hand is None or not r.table.hand.is_complete
        assert 202 == r.chips()
        assert (r.table.hand is None) == any(p is not None and p.stack == 0 for p in r.table.seats)


def test_rule_32_a_table_set_to_run_it_twice_deals_and_records_the_second_board() -> None:
    """`run_twice`: an all-in before the flop and a call; the last hand has two boards of five, no
    card shared, each shown hand named on both; the stored PHH replays to the same boards; the
    setting survives a restart. Anything but true or false is refused."""
    r = room(run_twice=True)
    for name in ("ann", "bob"):
        r.join(name, 100, None, 0.0)
    assert r.table.rules.run_twice
    restored = Room.from_dict(copy.deepcopy(r.to_dict()), 0.0)
    assert restored.config.run_twice and restored.table.rules.run_twice
    legal = r.table.hand.legal_actions()
    r.act(r.table.seat_of(legal.player), 1, Action.raise_to(legal.max_raise_to), 0.0)
    legal = r.table.hand.legal_actions()
    change = r.act(r.table.seat_of(legal.player), 1, Action.call(), 0.0)
    last = r.last_hand
    assert last is not None and 5 == len(last.board) == len(last.second_board)
    assert not set(last.board) & set(last.second_board)
    assert set(last.shown) == set(last.names) == set(last.second_names)
    ((_, text, _),) = change.hands
    replayed = phh.replay(phh.loads(text)[0]).hand
    assert replayed is not None and last.second_board == tuple(str(c) for c in replayed.second_board)
    with pytest.raises(RequestError, match="run_twice must be true or false, got 'yes'"):
        table_config({"run_twice": "yes"})


def test_the_log_sent_to_a_seat_gives_each_call_its_chips_and_says_all_in() -> None:
    """Heads-up, 200 each: the small blind completes (1 chip), the big blind checks; on the flop the
    big blind bets 10 and is called for 10; on the turn the big blind bets its last 188, all-in."""
    r = room()
    for name in ("ann", "bob"):
        r.join(name, 200, None, 0.0)
    hand = r.table.hand
    for action in (Action.call(), Action.check(), Action.raise_to(10), Action.call(), Action.raise_to(188)):
        legal = hand.legal_actions()
        r.act(r.table.seat_of(legal.player), 1, action, 0.0)
    assert hand is r.table.hand and hand.actor is not None  # the small blind still to answer
    message = state_message(r, r.table.seat_of(0), 0.0)
    actions = [
        (e["action"], e.get("chips"), e.get("all_in")) for e in message["log"] if e["kind"] == "action"
    ]
    expected = [
        ("call", 1, False),
        ("check", None, None),
        ("raise", 10, False),
        ("call", 10, False),
        ("raise", 188, True),
    ]
    assert expected == actions


def test_the_state_offers_the_rebuy_range_the_room_accepts_counting_the_stack_as_the_hand_began() -> None:
    """A player in the blind has fewer chips in front of them than the rebuy counts: the state offers
    what the room will take, not the table's maximum."""
    r = room(min_buy_in=40, max_buy_in=200)
    seat = r.join("ann", 150, None, 0.0)[0]
    r.join("bob", 150, None, 0.0)
    offered = state_message(r, seat, 0.0)["rebuy"]
    assert {"least": 1, "most": 50, "have": 150} == offered  # 150 when the hand began, blind posted
    with pytest.raises(RequestError, match="from 1 to 50"):
        r.rebuy(seat, 51, 0.0)
    r.rebuy(seat, 50, 0.0)
    assert state_message(r, seat, 0.0)["rebuy"] is None  # at the table's most: no rebuy offered


def test_a_stack_above_the_maximum_buy_in_is_offered_no_rebuy() -> None:
    """Issue 63, item 5: a stack won above the maximum was offered a rebuy with `most: -145`."""
    r = room(min_buy_in=40, max_buy_in=200)
    seat = r.join("ann", 200, None, 0.0)[0]
    r.join("bob", 200, None, 0.0)
    while r.held(seat) <= 200:  # bob folds to ann until her stack is above the table's most
        hand = r.table.hand
        assert hand is not None
        actor = r.actor_seat()
        assert actor is not None
        r.act(actor, r.number, Action.fold() if actor != seat else Action.call(), 0.0)
    assert state_message(r, seat, 0.0)["rebuy"] is None
    with pytest.raises(RequestError, match="the most this table allows"):
        r.rebuy(seat, 1, 0.0)


def test_every_refusal_of_the_room_is_worded_with_its_status_and_changes_nothing() -> None:
    """The words a player's client shows, and the HTTP status each refusal is sent with."""
    r = room(min_buy_in=40, max_buy_in=200)
    a, _, _ = r.join("ann", 100, None, 0.0)
    b, _, _ = r.join("bob", 200, None, 0.0)
    actor = r.actor_seat()
    other = b if actor == a else a
    hand = r.table.hand
    assert hand is not None
    refusals = [
        (lambda: r.join("Ann", 100, None, 0.0), "'ann' is already at this table", 409),
        (lambda: r.join("cid", 100, a, 0.0), f"seat {a} is taken", 409),
        (lambda: r.join("cid", 100, 6, 0.0), "seat must be 0..5, got 6", 400),
        (lambda: r.join("cid", 100, "2", 0.0), "seat must be 0..5, got '2'", 400),
        (lambda: r.rebuy(b, 1, 0.0), "amount: you have 200 chips, the most this table allows (200)", 400),
        (lambda: r.rebuy(4, 10, 0.0), "seat 4 is empty", 404),
        (lambda: r.sit_in(a, "yes", 0.0), "post must be true or false, got 'yes'", 400),
        (lambda: r.act(actor, 2, Action.call(), 0.0), "stale action: hand 2 is over, this is hand 1", 400),
        (lambda: r.act(actor, 1, Action.call(), 0.0, 5), "stale action: step 5 is over, this is step 0", 400),
        (lambda: r.act(other, 1, Action.call(), 0.0), f"not your turn: seat {actor} is to act", 400),
        (lambda: r.act(3, 1, Action.call(), 0.0), "seat 3 is not in hand 1", 400),
        (lambda: r.command({"command": "pause"}, 0.0), "this table has no host", 409),
        (lambda: r.say(3, "hi", 0.0), "only a seated player can chat", 400),
        (lambda: r.show(a, 1), "only the last hand's cards can be shown, hand None", 400),
        (
            lambda: Room.from_dict({"format": "other"}, 0.0),
            "not a stored room: format 'other', expected 'holdem/room'",
            500,
        ),
    ]
    before = r.to_dict()
    for refused, words, status in refusals:
        with pytest.raises(REFUSED) as error:
            refused()
        assert (words, status) == (str(error.value), status_of(error.value))
    assert before == r.to_dict()
    r.sit_out(a)
    with pytest.raises(REFUSED) as error:
        r.sit_out(a)
    assert "you are already sitting out" == str(error.value)


def test_a_full_table_a_tournaments_table_and_a_table_with_no_hand_refuse_in_words() -> None:
    lone = room(seats=2)
    seat, _, _ = lone.join("ann", 100, None, 0.0)
    with pytest.raises(REFUSED) as error:
        lone.act(seat, 0, Action.call(), 0.0)
    assert "no hand is in progress" == str(error.value)
    lone.join("bob", 100, None, 0.0)
    with pytest.raises(REFUSED) as error:
        lone.join("cid", 100, None, 0.0)
    assert ("table t1 is full", 409) == (str(error.value), status_of(error.value))
    tables = Room("t2", table_config({}), tournament="tx")
    with pytest.raises(REFUSED) as error:
        tables.join("ann", 100, None, 0.0)
    assert ("a table of tournament tx: enter the tournament instead", 409) == (
        str(error.value),
        status_of(error.value),
    )


def tournament_room(stacks: tuple[int, ...]) -> Room:
    """A tournament's table (dead button) with players t0, t1, … holding `stacks`, seated as its
    director seats them."""
    from holdem.server.room import Member

    r = Room(
        "tx-1", table_config({"seats": 6, "action_seconds": 10, "time_bank_seconds": 30}), tournament="tx"
    )
    for seat, stack in enumerate(stacks):
        r.table.sit(seat, f"t{seat}", stack)
        r.members[seat] = Member(f"t{seat}", token_digest(f"tx-1.t{seat}"), 30.0)
    return r


def test_a_tournaments_table_is_dealt_by_its_director_and_keeps_a_player_out_of_time_dealt_in() -> None:
    from holdem import Stakes

    r = tournament_room((100, 100, 100))
    assert "dead" == r.table.button_rule and r.table.hand is None and 0 == r.steps()
    assert r.resume(0.0) is None and r.table.hand is None  # the director deals, not the room
    change = Change()
    assert (
        r.deal(0.0, Stakes(5, 10), change)
        and 1 == r.number
        and (5, 10)
        == (
            r.table.stakes.small_blind,
            r.table.stakes.big_blind,
        )
    )
    seat = r.actor_seat()
    assert seat is not None and (seat, 10.0, 30.0) == r.clock(
        0.0, away={seat}
    )  # the whole clock, away or not
    assert r.expire(39.0) is None
    change = r.expire(40.0)
    assert change is not None and 1 == r.steps()
    assert not r.table.seats[seat].sitting_out and 0.0 == r.members[seat].bank  # type: ignore[union-attr]
    with pytest.raises(REFUSED) as error:
        r.leave(seat, 41.0)
    assert ("a tournament's player cannot leave the table", 409) == (str(error.value), status_of(error.value))
    stored = Room.from_dict(copy.deepcopy(r.to_dict()), 50.0)
    assert (
        "tx" == stored.tournament and "dead" == stored.table.button_rule and r.to_dict() == stored.to_dict()
    )


def test_a_tournament_hand_decided_by_the_blinds_is_recorded_and_its_busted_players_named() -> None:
    from holdem import Stakes

    r = tournament_room((5, 10, 100))  # both blinds all-in as they post
    r.table.rng = random.Random(2)  # a deal in which the big stack wins: both blinds are out
    change = Change()
    assert r.deal(0.0, Stakes(5, 10), change)
    while r.table.hand is not None and not r.table.hand.is_complete:
        r.act(r.actor_seat(), r.number, Action.call(), 0.0)  # type: ignore[arg-type]
    assert r.last_hand is not None and 1 == r.last_hand.number
    gone = {f"t{seat}" for seat in range(3) if r.table.seats[seat] is None}
    assert gone == {name for name, _ in r.busted} and gone
    assert all(stack == {"t0": 5, "t1": 10}[name] for name, stack in r.busted)  # as the hand began
    assert not any(member.name in gone for member in r.members.values())
    lone = tournament_room((100,))
    assert not lone.deal(0.0, Stakes(5, 10), Change()) and 0 == lone.number


def test_a_player_with_no_connection_open_has_ten_seconds_at_a_cash_table_and_no_time_bank() -> None:
    r = room(action_seconds=20, time_bank_seconds=60)
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    seat = r.actor_seat()
    assert (seat, 10.0, 0.0) == r.clock(0.0, away={seat})
    assert (seat, 6.0, 0.0) == r.clock(4.0, away={seat})
    assert (seat, 0.0, 0.0) == r.clock(12.0, away={seat})
    assert (seat, 8.0, 60.0) == r.clock(12.0)  # connected: the whole clock, then the bank
    assert r.expire(9.0, away={seat}) is None
    assert r.expire(10.0, away={seat}) is not None
    assert 60.0 == r.members[seat].bank  # not spent: the player was away
    assert r.table.seats[seat].sitting_out  # type: ignore[union-attr]


def test_a_finished_hand_is_stored_with_its_number_its_players_tokens_and_where_they_sat() -> None:
    r = room()
    tokens = {}
    for name in ("ann", "bob"):
        seat, token, _ = r.join(name, 100, None, 0.0)
        tokens[seat] = token_digest(token)
    assert 0 == r.steps()
    r.act(r.actor_seat(), 1, Action.raise_to(6), 1.0)  # type: ignore[arg-type]
    assert 1 == r.steps()
    (stored,) = r.act(r.actor_seat(), 1, Action.fold(), 2.0).hands  # type: ignore[arg-type]
    (document,) = phh.loads(stored.phh)
    seats = [s - 1 for s in document["seats"]]
    assert 1 == stored.number and tuple(tokens[s] for s in seats) == stored.digests
    assert document["players"] == [r.members[s].name for s in seats] and 6 == document["seat_count"]
    assert ("t1", 1, "UTC") == (document["table"], document["hand"], document["time_zone"])
    assert 2 == r.number and 0 == r.steps() and r.resume(3.0) is None  # hand 2 is under way


def test_every_chip_movement_is_a_numbered_ledger_row_with_its_hand_seat_name_and_kind() -> None:
    from holdem.server.change import LedgerRow

    r = room()
    rows = []
    ann, ann_token, change = r.join("ann", 100, None, 0.0)
    rows += change.ledger
    bob, bob_token, change = r.join("bob", 150, None, 0.0)
    rows += change.ledger
    a, b = token_digest(ann_token), token_digest(bob_token)  # each row names its person
    rows += r.rebuy(ann, 20, 0.0).ledger  # during hand 1: arrives when it ends
    rows += r.leave(bob, 0.0).ledger  # the same
    while r.table.hand is not None and r.number == 1:
        rows += r.act(r.actor_seat(), 1, Action.fold(), 0.0).ledger  # type: ignore[arg-type]
    bob_left = r.table.seats[bob] is None and bob not in r.members
    assert (
        bob_left
        and [
            LedgerRow(1, 0, ann, "ann", "buy_in", 100, a),
            LedgerRow(2, 0, bob, "bob", "buy_in", 150, b),
            LedgerRow(3, 1, ann, "ann", "rebuy", 20, a),
        ]
        == rows[:3]
    )
    (cash_out,) = rows[3:]
    assert (4, 1, bob, "bob", "cash_out") == cash_out[:5] and cash_out.chips in (148, 149, 151, 152)
    assert b == cash_out.person


def test_a_rooms_stakes_follow_its_settings_and_its_tokens_carry_256_bits() -> None:
    plain = room(ante=1)
    assert (1, 2, 1, ()) == (plain.table.stakes.small_blind, plain.table.stakes.big_blind,
                             plain.table.stakes.ante, plain.table.stakes.straddles)  # fmt: skip
    assert (4,) == room(straddle=True).table.stakes.straddles
    token = plain.new_token()
    table, secret = token.split(".")
    assert "t1" == table and 43 == len(secret)  # 32 random bytes, URL-safe base64
    assert 64 == len(token_digest("t1.\udcff"))  # a lone surrogate from a bad client is still a token


def test_sitting_out_and_in_twice_is_refused_in_words() -> None:
    r = room()
    ann, _, _ = r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    with pytest.raises(REFUSED) as error:
        r.sit_in(ann, False, 0.0)
    assert "you are already sitting in" == str(error.value)
    r.sit_out(ann)
    assert r.table.seats[ann].sitting_out  # type: ignore[union-attr]
    with pytest.raises(REFUSED) as error:
        r.sit_out(ann)
    assert "you are already sitting out" == str(error.value)
    r.sit_in(ann, True, 0.0)
    assert not r.table.seats[ann].sitting_out  # type: ignore[union-attr]


def test_a_settle_up_adds_each_players_buy_ins_and_lists_the_biggest_winner_first() -> None:
    """Ann bought 100 and 50 and has 100 on the table (-50); Bob bought 100 and has it (0); Cid, gone,
    bought 80 and 20 and cashed out 30 and 120 (+50): Ann pays Cid 50."""
    from holdem.server.change import LedgerRow

    r = room()
    ann, _, _ = r.join("ann", 100, None, 0.0)
    bob, _, _ = r.join("bob", 100, None, 0.0)
    rows = [
        LedgerRow(1, 0, ann, "ann", "buy_in", 100),
        LedgerRow(2, 0, bob, "bob", "buy_in", 100),
        LedgerRow(3, 1, ann, "ann", "rebuy", 50),
        LedgerRow(4, 2, 5, "cid", "buy_in", 80),
        LedgerRow(5, 3, 5, "cid", "cash_out", 30),
        LedgerRow(6, 4, 5, "cid", "buy_in", 20),
        LedgerRow(7, 5, 5, "cid", "cash_out", 120),
    ]
    settled = r.settle_up(rows)
    assert ("t1", False, False) == (settled["table"], settled["ended"], settled["final"])
    assert [("cid", 100, 150, 0, 50), ("bob", 100, 0, 100, 0), ("ann", 150, 0, 100, -50)] == [
        (p["name"], p["bought"], p["cashed"], p["on_table"], p["net"]) for p in settled["players"]
    ]
    assert [{"from": "ann", "to": "cid", "chips": 50}] == settled["payments"]


def test_the_time_bank_pays_only_for_time_over_the_decision_clock_and_never_goes_below_zero() -> None:
    r = room(action_seconds=10, time_bank_seconds=30)
    r.join("ann", 100, None, 100.0)
    r.join("bob", 100, None, 100.0)
    first = r.actor_seat()
    r.act(first, 1, Action.call(), 105.0)  # type: ignore[arg-type]  # in time: the bank is kept
    second = r.actor_seat()
    assert 30.0 == r.members[first].bank and (second, 10.0, 30.0) == r.clock(105.0)  # type: ignore[index]
    r.act(second, 1, Action.check(), 130.0)  # type: ignore[arg-type]  # 15 s over: 15 from the bank
    assert 15.0 == r.members[second].bank  # type: ignore[index]
    actor = r.actor_seat()
    r.act(actor, 1, Action.check(), 200.0)  # type: ignore[arg-type]  # 60 s over a bank of 30 or 15
    assert 0.0 == r.members[actor].bank  # type: ignore[index]
    with pytest.raises(REFUSED) as error:
        r.act(r.actor_seat(), 1, Action.raise_to(10_000), 200.0)  # type: ignore[arg-type]
    assert "bet to 10000 is above the maximum 98 (player 1, flop)" == str(error.value)  # the engine's words


def test_a_player_may_ask_for_the_first_and_the_last_seat_by_number() -> None:
    r = room()
    assert 0 == r.join("ann", 100, 0, 0.0)[0] and 5 == r.join("bob", 100, 5, 0.0)[0]
    with pytest.raises(REFUSED) as error:
        r.join("cid", 100, -1, 0.0)
    assert "seat must be 0..5, got -1" == str(error.value)
    with pytest.raises(REFUSED) as error:
        r.join("cid", 100, 2.0, 0.0)
    assert "seat must be 0..5, got 2.0" == str(error.value)


def test_the_decision_clock_starts_again_for_each_decision_and_only_then() -> None:
    r = room(action_seconds=10, time_bank_seconds=30)
    r.join("ann", 100, None, 100.0)
    r.join("bob", 100, None, 100.0)
    first = r.actor_seat()
    assert (first, 4.0, 30.0) == r.clock(106.0)
    with pytest.raises(REFUSED):
        r.act(first, 1, Action.raise_to(10_000), 106.0)  # type: ignore[arg-type]  # refused: the clock runs on
    assert (first, 3.0, 30.0) == r.clock(107.0)
    r.act(first, 1, Action.call(), 107.0, 0)  # type: ignore[arg-type]  # with the step it was sent at
    second = r.actor_seat()
    assert second != first and (second, 7.0, 30.0) == r.clock(110.0)


def test_a_room_left_between_hands_deals_when_resumed_and_says_what_it_dealt() -> None:
    r = room(action_seconds=10)
    ann, _, _ = r.join("ann", 100, None, 0.0)
    r.sit_out(ann)
    r.join("bob", 100, None, 0.0)
    assert r.table.hand is None  # bob alone is in
    r.table.sit_in(ann)  # as a room stored between hands, with two players in, comes back
    change = r.resume(50.0)
    assert change is not None and r.table.hand is not None and 1 <= r.number
    assert (r.actor_seat(), 7.0) == r.clock(53.0)[:2]  # type: ignore[index]
    assert r.resume(60.0) is None  # a hand is in progress: nothing more to deal


def test_a_player_who_may_add_one_chip_may_rebuy_one() -> None:
    r = room(min_buy_in=40, max_buy_in=200)
    ann, _, _ = r.join("ann", 199, None, 0.0)
    assert (1, 1) == r.buy_in_range(199)
    assert [("rebuy", 1)] == [(row.kind, row.chips) for row in r.rebuy(ann, 1, 0.0).ledger]


def test_a_player_seated_during_a_hand_who_sat_out_first_is_seated_sitting_out_when_it_ends() -> None:
    r = room()
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    cid, _, _ = r.join("cid", 100, None, 0.0)
    r.sit_out(cid)
    assert r.members[cid].away and r.table.seats[cid] is None
    while r.number == 1:
        r.act(r.actor_seat(), 1, Action.fold(), 0.0)  # type: ignore[arg-type]
    assert not r.members[cid].away and r.table.seats[cid].sitting_out  # type: ignore[union-attr]


def test_a_hand_is_stored_with_the_time_it_ended_in_utc_whatever_the_machines_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import datetime
    import time

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        r = room()
        r.join("ann", 100, None, 0.0)
        r.join("bob", 100, None, 0.0)
        (stored,) = r.act(r.actor_seat(), 1, Action.fold(), 0.0).hands  # type: ignore[arg-type]
        (document,) = phh.loads(stored.phh)
        now = datetime.datetime.now(datetime.UTC)
        written = datetime.datetime.strptime(document["time"], "%H:%M:%S").replace(
            year=document["year"], month=document["month"], day=document["day"], tzinfo=datetime.UTC
        )
        assert abs((now - written).total_seconds()) < 60
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_player_out_of_time_who_may_check_is_checked_for_not_folded() -> None:
    r = room(action_seconds=1, time_bank_seconds=1)
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    r.act(r.actor_seat(), 1, Action.call(), 0.0)  # type: ignore[arg-type]  # the button limps
    big = r.actor_seat()
    assert big is not None and r.expire(5.0) is not None
    hand = r.table.hand
    assert hand is not None and 1 == r.number and 3 == len(hand.board)  # checked: the flop is dealt
    assert big in r.table.hand_seats and r.table.seats[big].sitting_out  # type: ignore[union-attr]


def test_a_tournament_table_deals_hand_after_hand_and_records_one_the_blinds_decide() -> None:
    from holdem import Stakes

    r = tournament_room((100, 100))
    assert r.deal(0.0, Stakes(5, 10), Change())
    while r.table.hand is not None and not r.table.hand.is_complete:
        r.act(r.actor_seat(), r.number, Action.fold(), 0.0)  # type: ignore[arg-type]
    assert r.deal(1.0, Stakes(5, 10), Change()) and 2 == r.number
    short = tournament_room((5, 10))  # both blinds all-in as they post: nobody acts
    change = Change()
    assert short.deal(0.0, Stakes(5, 10), change) and 1 == short.number
    assert [1] == [stored.number for stored in change.hands] and short.last_hand is not None


def test_showing_from_a_seat_nobody_holds_is_refused() -> None:
    r = room()
    r.join("ann", 100, None, 0.0)
    r.join("bob", 100, None, 0.0)
    r.act(r.actor_seat(), 1, Action.fold(), 0.0)  # type: ignore[arg-type]
    with pytest.raises(REFUSED) as error:
        r.show(4, 1)
    assert "you were not dealt into hand 1" == str(error.value)


def test_a_player_back_from_sitting_out_may_post_the_blinds_missed_at_once() -> None:
    r = room()
    seats = [r.join(name, 100, None, 0.0)[0] for name in ("ann", "bob", "cid")]
    r.sit_out(seats[0])
    for _ in range(4):  # the blinds pass the empty seat
        number = r.number
        while r.table.hand is not None and r.number == number:
            r.act(r.actor_seat(), number, Action.fold(), 0.0)  # type: ignore[arg-type]
    place = r.table.seats[seats[0]]
    assert place is not None and (place.owes_big or place.owes_small)
    r.sit_in(seats[0], True, 0.0)
    assert place.posting and not place.waiting


@pytest.mark.parametrize("name", ["action_seconds", "time_bank_seconds"])
@pytest.mark.parametrize("value", [1e-300, 0.5, 0, -1])
def test_a_clock_shorter_than_a_second_is_refused_in_one_line(name: str, value: float) -> None:
    """A decision clock of 1e-300 s timed every decision out at once: tables and tournaments refuse
    a clock or time bank under a second, naming it."""
    from holdem.server.tourney import tourney_config

    words = f"{name} must be a number of seconds from 1 to a day (86,400), got {value!r}"
    with pytest.raises(REFUSED) as refused:
        table_config({name: value})
    assert words == str(refused.value)
    with pytest.raises(REFUSED) as refused:
        tourney_config({"structure": "turbo", name: value})
    assert words in str(refused.value)
    assert 1 == table_config({name: 1}).to_dict()[name]


# ------------------------------------------------------------ names that look like someone else's
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("\u3164", "invisible"),  # a Hangul filler alone
        ("\u2800", "invisible"),  # blank Braille
        ("alice\u3164", "invisible"),
        ("al\u200bice", "printable"),  # a zero-width space: not printable, as before
        ("e" + "\u0301" * 31, "combining marks"),
        ("\u0301abc", "combining mark"),
    ],
)
def test_a_name_that_hides_characters_or_piles_up_marks_is_refused_in_one_line(
    name: str, problem: str
) -> None:
    """Issue 59, item 5: each of these was accepted as a name."""
    r = room()
    with pytest.raises(REFUSED) as error:
        r.join(name, 100, None, 0.0)
    assert problem in str(error.value) and "\n" not in str(error.value)
    assert r.members == {}


def test_a_name_is_kept_in_nfkc_and_scripts_that_write_vowels_as_marks_are_welcome() -> None:
    r = room(seats=6)
    seat, _, _ = r.join("\u212aelvin", 100, None, 0.0)  # the Kelvin sign: K
    assert "Kelvin" == r.members[seat].name
    for name in ("हिन्दी", "Zoë", "José Luis", "ไทย"):
        r.join(name, 100, None, 0.0)


@pytest.mark.parametrize("lookalike", ["\u0430lice", "AL\u0406CE", "a1ice", "aIice", "\u0251lice"])
def test_a_name_confusable_with_a_seated_players_is_refused(lookalike: str) -> None:
    """A Cyrillic а or І, a digit one or a capital I for an l, a Latin alpha: "alice" is seated."""
    r = room()
    r.join("alice", 100, None, 0.0)
    with pytest.raises(REFUSED) as error:
        r.join(lookalike, 100, None, 0.0)
    assert "alice" in str(error.value) and 409 == status_of(error.value) and len(r.members) == 1


def test_a_name_confusable_with_a_recent_players_is_refused_and_the_same_name_is_not() -> None:
    """Ann said something in the chat and left; "Аnn" (Cyrillic А) is refused, "ann" is somebody else
    who may take the name (the settle-up tells them apart)."""
    r = room()
    ann, _, _ = r.join("Ann", 100, None, 0.0)
    r.say(ann, "gl", 0.0)
    r.leave(ann, 0.0)
    with pytest.raises(REFUSED):
        r.join("\u0410nn", 100, None, 0.0)
    seat, _, _ = r.join("ann", 100, None, 0.0)
    assert "ann" == r.members[seat].name


def test_the_rooms_old_name_for_its_settle_up_still_works_and_warns() -> None:
    r = room(seats=2)
    with pytest.warns(DeprecationWarning, match="settle_up"):
        assert r.settle_up([]) == r.settlement([])
