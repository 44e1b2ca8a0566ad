"""A home game, without the network: the host's token, seats asked for and approved, pause, new
blinds, removing a player, the end and its settle-up, chat, showing a hand after it, a straddle, and
a stored hand as one of its players may download it."""

from __future__ import annotations

import copy
import datetime
import json
import re
from pathlib import Path

import pytest

from holdem.errors import RefusedError, RequestError
from holdem.formats import phh
from holdem.hand.actions import Action
from holdem.hand.state import Hand
from holdem.server.change import LedgerRow, StoredHand
from holdem.server.chat import CHAT_LIMIT, CHAT_RATE
from holdem.server.config import status_of, table_config
from holdem.server.messages import state_message
from holdem.server.replays import as_seen_by
from holdem.server.room import Room, person_id, token_digest

REFUSED = (RequestError, RefusedError)  # a refusal: of the request, or by the state (409)

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
DEALT = re.compile(r"(?:d dh p\d+|d db|p\d+ sm) ([2-9TJQKA?][cdhs?](?:[2-9TJQKA?][cdhs?])*)")


def phh_cards(text: str) -> set[str]:
    """The cards a PHH document's actions deal and show (not what its other fields happen to spell)."""
    return {found[i : i + 2] for found in DEALT.findall(text) for i in range(0, len(found), 2)}


def game(**settings: object) -> tuple[Room, str]:
    return Room.hosted(table_config({"seats": 6, "action_seconds": 10, "time_bank_seconds": 30} | settings))


def seated(
    names: tuple[str, ...] = ("ann", "bob"), **settings: object
) -> tuple[Room, str, dict[str, int], list[LedgerRow]]:
    """A game whose host approved each of `names` with 100 chips; the ledger so far."""
    room, host = game(**settings)
    seats, ledger = {}, []
    for name in names:
        seat, _, pending, _ = room.ask(name, 100, None, False, 0.0)
        assert pending
        ledger += room.command({"command": "approve", "seat": seat}, 0.0).ledger
        seats[name] = seat
    return room, host, seats, ledger


def play_out(room: Room, ledger: list[LedgerRow], hands: int = 1) -> None:
    """Play the hands in progress to their end, everyone calling or checking."""
    start = room.number
    while room.table.hand is not None and room.number < start + hands:
        hand = room.table.hand
        legal = hand.legal_actions()
        assert legal is not None
        action = Action.check() if legal.can_check else Action.call()
        ledger += room.act(room.actor_seat(), room.number, action, 1.0).ledger  # type: ignore[arg-type]


def full_hand(room: Room, players: int) -> Hand:
    """Play hands out until one deals every one of `players` in (a player who sat during a hand waits
    for the big blind), and return it."""
    for _ in range(8):
        hand = room.table.hand
        assert hand is not None
        if len(hand.bets) == players:
            return hand
        play_out(room, [])
    raise AssertionError(f"no hand dealt {players} players in")


def test_a_host_token_is_for_its_own_table_alone() -> None:
    first, host = game()
    second, other = game()
    assert first.is_host(token_digest(host)) and second.is_host(token_digest(other))
    assert not first.is_host(token_digest(other)) and not second.is_host(token_digest(host))
    assert host not in json.dumps(first.to_dict())  # only its digest is kept


def test_a_player_asking_for_a_seat_waits_for_the_host_and_sits_when_approved() -> None:
    room, _ = game()
    seat, token, pending, _ = room.ask("ann", 100, 3, False, 0.0)
    assert (3, True) == (seat, pending) and 3 not in room.members
    assert 3 not in room.free_seats()  # asked for: nobody else takes it meanwhile
    with pytest.raises(RefusedError, match="already at this table"):
        room.ask("ANN", 100, None, False, 0.0)
    with pytest.raises(RefusedError, match="seat 3 is taken"):
        room.ask("bob", 100, 3, False, 0.0)
    room.command({"command": "approve", "seat": 3}, 0.0)
    assert 3 == room.seat_of_token(token_digest(token))  # the token asked with now holds the seat
    assert state_message(room, None, 0.0)["home"]["pending"] == []


def test_a_declined_player_gets_no_seat_and_a_host_sits_without_asking() -> None:
    room, _ = game()
    seat, token, _, _ = room.ask("ann", 100, None, False, 0.0)
    room.command({"command": "decline", "seat": seat}, 0.0)
    assert room.seat_of_token(token_digest(token)) is None and seat in room.free_seats()
    seat, _, pending, change = room.ask("host", 100, None, True, 0.0)
    assert not pending and seat in room.members and change.ledger[0][4:6] == ("buy_in", 100)


def test_host_commands_refused_change_nothing() -> None:
    room, _, seats, _ = seated()
    before = copy.deepcopy(room.to_dict())
    for data, error in [
        ({"command": "shuffle"}, "unknown command"),
        ({"command": "approve", "seat": 5}, "asking for"),
        ({"command": "remove", "seat": 5}, "held by"),
        ({"command": "blinds", "small_blind": 5, "big_blind": 2}, "blinds must satisfy"),
        ({"command": "blinds", "small_blind": 1, "big_blind": 50}, "buy-ins must satisfy"),
        ({"command": "blinds", "small_blind": 1, "big_blind": 2, "straddle": 4}, "unknown fields"),
        ({"command": "resume"}, "already running"),
        ({"command": "bot", "bot": "holdem.bots.simple:RandomBot"}, "bot must be one of"),
        ({"command": "bot", "bot": "equity[seed=1]"}, "bot must be one of"),
    ]:
        with pytest.raises(RequestError, match=error):
            room.command(data, 0.0)
        assert before == room.to_dict(), data
    assert seats


def test_a_paused_game_takes_no_action_stops_the_clock_and_deals_no_hand() -> None:
    room, _, _, ledger = seated()
    actor = room.actor_seat()
    room.command({"command": "pause"}, 5.0)
    assert room.clock(100.0) is None and room.expire(100.0) is None  # nobody runs out of time
    with pytest.raises(RequestError, match="paused"):
        room.act(actor, room.number, Action.fold(), 6.0)  # type: ignore[arg-type]
    room.command({"command": "resume"}, 200.0)
    assert room.clock(201.0) == (actor, 9.0, 30.0)  # a fresh decision clock, the bank kept
    room.act(actor, room.number, Action.fold(), 202.0)  # type: ignore[arg-type]
    assert ledger is not None


def test_no_hand_is_dealt_while_the_game_is_paused() -> None:
    room, _, _, _ = seated(("ann",))
    room.command({"command": "pause"}, 0.0)
    seat, _, _, _ = room.ask("bob", 100, None, False, 1.0)
    room.command({"command": "approve", "seat": seat}, 1.0)
    assert room.table.hand is None and 0 == room.number  # two players in, and no hand
    room.command({"command": "resume"}, 2.0)
    assert room.table.hand is not None and 1 == room.number


def test_new_blinds_take_effect_from_the_next_hand() -> None:
    room, _, _, ledger = seated()
    room.command({"command": "blinds", "small_blind": 2, "big_blind": 4, "ante": 1}, 0.0)
    assert (1, 2) == (room.table.hand.stakes.small_blind, room.table.hand.stakes.big_blind)  # type: ignore[union-attr]
    assert [2, 4, 1] == state_message(room, None, 0.0)["home"]["next_blinds"]
    play_out(room, ledger)
    assert (2, 4, 1) == (room.config.small_blind, room.config.big_blind, room.config.ante)
    assert 4 == room.table.hand.stakes.big_blind  # type: ignore[union-attr]
    assert state_message(room, None, 0.0)["home"]["next_blinds"] is None


def test_a_removed_player_leaves_when_the_hand_ends_with_their_chips_in_the_ledger() -> None:
    room, _, seats, ledger = seated(("ann", "bob", "cat"))
    assert seats["cat"] not in room.table.hand_seats  # approved during hand 1: not dealt in
    ledger += room.command({"command": "remove", "seat": seats["cat"]}, 0.0).ledger
    assert seats["cat"] not in room.members  # so out at once, with the 100 chips bought
    ledger += room.command({"command": "remove", "seat": seats["ann"]}, 0.0).ledger
    assert seats["ann"] in room.members and room.members[seats["ann"]].leaving  # dealt in: out at the end
    play_out(room, ledger)
    assert seats["ann"] not in room.members
    cashed = {row[3]: row[5] for row in ledger if row[4] == "cash_out"}
    assert 100 == cashed["cat"] and cashed["ann"] > 0


def test_the_end_cashes_everyone_out_and_the_settle_up_equals_the_ledger() -> None:
    room, _, _, ledger = seated(("ann", "bob", "cat"))
    play_out(room, ledger, hands=3)
    ledger += room.command({"command": "end"}, 9.0).ledger
    play_out(room, ledger)
    assert room.members == {} and room.table.hand is None  # everyone out, no hand dealt again
    settled = room.settle_up(ledger)
    assert settled["ended"]
    for player in settled["players"]:
        rows = [row for row in ledger if row[3] == player["name"]]
        assert player["cashed"] - player["bought"] == sum(r[5] if r[4] == "cash_out" else -r[5] for r in rows)
        assert player["net"] == player["cashed"] - player["bought"] and player["on_table"] == 0
    assert 0 == sum(p["net"] for p in settled["players"])
    owed = {p["name"]: p["net"] for p in settled["players"]}
    for payment in settled["payments"]:
        owed[payment["from"]] += payment["chips"]
        owed[payment["to"]] -= payment["chips"]
    assert set(owed.values()) == {0}
    for refused in (
        lambda: room.ask("dan", 100, None, False, 10.0),
        lambda: room.command({"command": "pause"}, 10.0),
    ):
        with pytest.raises(REFUSED) as error:
            refused()
        assert ("this game has ended", 409) == (str(error.value), status_of(error.value))


def test_a_settle_up_mid_hand_counts_the_chips_each_player_had_when_it_began() -> None:
    room, _, _, ledger = seated()
    assert room.table.hand is not None and 3 == room.table.hand.pot  # the blinds are in: nobody's yet
    settled = room.settle_up(ledger)
    assert {p["name"]: p["net"] for p in settled["players"]} == {"ann": 0, "bob": 0}
    assert [] == settled["payments"]


def test_chat_is_limited_in_length_and_rate_kept_with_the_table_and_sent_as_text() -> None:
    room, _, seats, _ = seated()
    ann = seats["ann"]
    for bad, error in [("", "1 to"), ("x" * (CHAT_LIMIT + 1), "1 to"), (5, "1 to"), ("a\x00b", "printable")]:
        with pytest.raises(RequestError, match=error):
            room.say(ann, bad, 0.0)
    with pytest.raises(RequestError, match="seated"):
        room.say(5, "hi", 0.0)
    count, window = CHAT_RATE
    for k in range(count):
        room.say(ann, f"<b>{k}</b>", 1.0 + k / 10)
    with pytest.raises(RequestError, match="at most"):
        room.say(ann, "one more", 2.0)
    room.say(seats["bob"], "bob may", 2.0)  # the limit is each seat's own
    room.say(ann, "later", 1.0 + window + 1)
    stored = Room.from_dict(json.loads(json.dumps(room.to_dict())), 0.0)
    texts = [entry["text"] for entry in state_message(stored, None, 0.0)["chat"]]
    assert texts[0] == "<b>0</b>" and texts[-1] == "later"  # as typed: the page shows text, not markup


def test_a_winner_without_a_showdown_may_show_and_otherwise_mucks() -> None:
    room, _, seats, _ = seated()
    actor = room.actor_seat()
    assert actor is not None
    hole = [str(c) for c in room.table.hand.holes[room.table.hand_seats.index(actor)]]  # type: ignore[union-attr]
    room.act(actor, room.number, Action.fold(), 1.0)
    number = room.number - 1
    winner = next(s for s in seats.values() if s != actor)
    assert room.last_hand is not None and room.last_hand.shown == {}  # mucked unless shown
    spectator = json.dumps(state_message(room, None, 1.0))
    assert not any(f'"{card}"' in spectator for card in hole)  # as a card: an id may hold "8d"
    room.show(actor, number)  # the folder shows too
    assert room.last_hand.shown[actor] == tuple(hole)
    line = room.chat.lines[-1]
    name = room.members[actor].name
    assert (actor, name, f"shows {' '.join(hole)}", tuple(hole)) == (
        line.seat,
        line.name,
        line.text,
        line.cards,
    )
    for refused, words in [
        (lambda: room.show(actor, number), f"your cards of hand {number} are shown already"),
        (lambda: room.show(winner, number - 1), f"only the last hand's cards can be shown, hand {number}"),
        (lambda: room.show(winner, str(number)), f"only the last hand's cards can be shown, hand {number}"),
    ]:
        with pytest.raises(REFUSED) as error:
            refused()
        assert words == str(error.value)
    cat, _, _, _ = room.ask("cat", 100, None, False, 2.0)
    room.command({"command": "approve", "seat": cat}, 2.0)
    with pytest.raises(REFUSED) as error:
        room.show(cat, number)  # seated since: not dealt into that hand
    assert f"you were not dealt into hand {number}" == str(error.value)


def test_rule_33_a_straddle_table_posts_two_big_blinds_after_the_big_blind() -> None:
    room, _, _, _ = seated(("ann", "bob", "cat", "dan"), straddle=True)
    hand = full_hand(room, 4)
    assert [1, 2, 4] == sorted(hand.bets)[-3:] and 1 == hand.bets.count(0)


def test_a_stored_hand_shows_a_player_their_own_cards_and_those_shown_and_no_other() -> None:
    room, _, _, ledger = seated(("ann", "bob", "cat"))
    hand = full_hand(room, 3)
    number = room.number
    names = [room.members[s].name for s in room.table.hand_seats]
    holes = {name: [str(c) for c in hand.holes[k]] for k, name in enumerate(names)}
    folder = room.members[room.actor_seat()].name  # type: ignore[index]
    ledger += room.act(room.actor_seat(), number, Action.fold(), 1.0).ledger  # type: ignore[arg-type]
    stored = []
    while room.number == number:
        legal = hand.legal_actions()
        assert legal is not None
        action = Action.check() if legal.can_check else Action.call()
        stored += room.act(room.actor_seat(), number, action, 1.0).hands  # type: ignore[arg-type]
    last = room.last_hand
    assert last is not None
    shown = {name for k, name in enumerate(names) if last.seats[k] in last.shown}
    assert folder not in shown and len(shown) >= 1
    for name in names:
        seen = as_seen_by(stored[0][1], names.index(name))
        hidden = {card for other in set(names) - shown - {name} for card in holes[other]}
        assert not (phh_cards(seen["phh"]) | set(CARD.findall(json.dumps(seen["steps"])))) & hidden, name
        assert set(holes[name]) <= phh_cards(seen["phh"])
        dealt = [line for line in seen["pokerstars"].splitlines() if line.startswith("Dealt to")]
        assert [f"Dealt to {name} [{' '.join(holes[name])}]"] == dealt
        assert phh.loads(seen["phh"]) and "win" == seen["steps"][-1]["kind"]
    spectator = as_seen_by(stored[0][1], None)
    assert not any(line.startswith("Dealt to") for line in spectator["pokerstars"].splitlines())


def test_rule_33_a_straddler_acts_last_preflop_and_may_check_when_everyone_calls() -> None:
    """At four players or more, the player after the big blind posts two big blinds blind; the
    action starts after them and comes back to them with the option, as to a big blind."""
    room, _, _, _ = seated(("ann", "bob", "cat", "dan"), straddle=True)
    hand = full_hand(room, 4)
    straddler = hand.bets.index(4)
    assert hand.actor == (straddler + 1) % 4
    while hand.actor != straddler:
        room.act(room.actor_seat(), room.number, Action.call(), 1.0)  # type: ignore[arg-type]
    legal = hand.legal_actions()
    assert legal is not None and legal.can_check and legal.min_raise_to == 8
    room.act(room.actor_seat(), room.number, Action.check(), 1.0)  # type: ignore[arg-type]
    assert 16 == hand.pot and 3 == len(hand.board)  # the flop


def test_rule_33_no_straddle_is_posted_three_handed() -> None:
    room, _, _, _ = seated(("ann", "bob", "cat"), straddle=True)
    hand = full_hand(room, 3)
    assert [0, 1, 2] == sorted(hand.bets)


def test_rule_33_a_straddle_is_named_a_straddle_on_its_seat_not_a_blind() -> None:
    room, _, _, _ = seated(("ann", "bob", "cat", "dan"), straddle=True)
    hand = full_hand(room, 4)
    seats = state_message(room, None, 1.0)["seats"]
    roles = {room.table.hand_seats[k]: seats[room.table.hand_seats[k]]["blind"] for k in range(4)}
    straddler = room.table.hand_seats[hand.bets.index(4)]
    assert "straddle" == roles[straddler]
    assert ["big blind", "small blind", "straddle"] == sorted(r for r in roles.values() if r)


def test_nobody_is_asked_to_act_while_the_host_has_paused_the_game() -> None:
    room, _, _, _ = seated()
    actor = room.actor_seat()
    assert state_message(room, actor, 1.0)["legal"] is not None
    room.command({"command": "pause"}, 2.0)
    paused = state_message(room, actor, 3.0)
    assert paused["legal"] is None and paused["clock"] is None and paused["home"]["paused"]
    room.command({"command": "resume"}, 4.0)
    assert state_message(room, actor, 5.0)["legal"] is not None


def test_rule_3_a_player_seated_during_a_game_is_shown_waiting_for_the_big_blind() -> None:
    room, _, seats, _ = seated(("ann", "bob"))  # seats 0 and 1
    play_out(room, [])  # the big blind moves from bob to ann
    assert seats["ann"] == room.table.big_blind_seat
    seat, _, _, _ = room.ask("cat", 100, 4, False, 1.0)
    room.command({"command": "approve", "seat": seat}, 1.0)
    play_out(room, [])  # the big blind moves to bob without passing seat 4: cat waits for it
    assert seat not in room.table.hand_seats and room.table.hand is not None
    entries = state_message(room, None, 2.0)["seats"]
    assert entries[seat]["waiting"] and not any(entries[s]["waiting"] for s in seats.values())


def test_a_settle_up_is_provisional_while_the_hand_the_game_ended_in_is_played() -> None:
    room, _, _, ledger = seated()
    ledger += room.command({"command": "end"}, 1.0).ledger
    during = room.settle_up(ledger)
    assert during["ended"] and not during["final"]  # the hand goes on: its figures may change
    play_out(room, ledger)
    after = room.settle_up(ledger)
    assert after["ended"] and after["final"] and not room.members


def test_a_stored_hand_carries_its_date_time_and_table_for_trackers() -> None:
    room, _, _, _ = seated(("ann", "bob"))
    number, stored = room.number, []
    while room.number == number:
        legal = room.table.hand.legal_actions()  # type: ignore[union-attr]
        assert legal is not None
        action = Action.check() if legal.can_check else Action.call()
        stored += room.act(room.actor_seat(), number, action, 1.0).hands  # type: ignore[arg-type]
    today = datetime.datetime.now(datetime.UTC)
    doc = phh.loads(stored[0][1])[0]
    assert ("UTC", room.id) == (doc["time_zone"], doc["table"])
    day = datetime.datetime(doc["year"], doc["month"], doc["day"], tzinfo=datetime.UTC)
    assert abs(day - today).days <= 1
    head, table = as_seen_by(stored[0][1], 0)["pokerstars"].splitlines()[:2]
    assert f" - {doc['year']:04d}/{doc['month']:02d}/{doc['day']:02d} {doc['time']} UTC [" in head
    assert table.startswith(f"Table '{room.id}' 6-max Seat #")


def test_a_home_game_is_stored_whole_and_read_back_the_same() -> None:
    """Everything a home game holds survives a restart: the host, a seeker, the pause, the next
    blinds, a bot, past players, the game's name and listing, the statistics switch, the chat with a
    hand shown, and the last hand with each seat's view."""
    room, host = Room.hosted(table_config({"seats": 6}), "Friday", True)
    for name in ("ann", "bob"):
        seat, _, _, _ = room.ask(name, 100, None, False, 0.0)
        room.command({"command": "approve", "seat": seat}, 0.0)
    hand = room.table.hand
    assert hand is not None
    while room.table.hand is hand:
        room.act(room.actor_seat(), room.number, Action.fold(), 1.0)  # type: ignore[arg-type]
    folder = min(room.members)  # both were dealt in
    room.say(folder, "gg", 2.0)
    room.show(folder, room.number - 1)
    room.ask("cid", 100, None, False, 3.0)
    room.command({"command": "bot", "bot": "random"}, 3.0)
    room.command({"command": "blinds", "small_blind": 2, "big_blind": 4}, 3.0)
    room.command({"command": "stats", "on": True}, 3.0)
    room.command({"command": "pause"}, 4.0)
    stored = json.loads(json.dumps(room.to_dict()))
    again = Room.from_dict(stored, 5.0)
    assert stored == again.to_dict()
    assert room.home == again.home and room.chat == again.chat and room.last_hand == again.last_hand
    assert again.home is not None and (again.home.name, again.home.listed, again.home.stats) == (
        "Friday",
        True,
        True,
    )
    assert again.is_host(token_digest(host)) and again.chat.lines[-1].cards is not None
    old = {
        key: value for key, value in stored.items() if key not in ("home", "chat", "chat_seq", "last_views")
    }
    plain = Room.from_dict(old, 5.0)  # stored before home games, chat and the seats' own views
    assert plain.home is None and plain.chat.lines == [] and plain.chat.seq == 0
    assert plain.last_hand is not None and plain.last_hand.number == room.last_hand.number  # type: ignore[union-attr]


def test_a_game_made_without_a_name_is_unnamed_and_unlisted_and_its_host_sits_at_once() -> None:
    room, host = Room.hosted(table_config({"seats": 6}))
    assert room.home is not None and ("", False) == (room.home.name, room.home.listed) and 8 == len(room.id)
    seat, token, pending, _ = room.ask("hostess", 100, None, True, 10.0)
    assert not pending and seat == room.seat_of_token(token_digest(token))
    assert {token_digest(token): "hostess"} == room.home.players  # the past players' list, by token
    room.say(seat, "hello", 11.0)
    line = room.chat.lines[-1]
    assert (seat, "hostess", "hello", None) == (line.seat, line.name, line.text, line.cards)
    room.command({"command": "pause"}, 12.0)
    other, _, _, _ = room.ask("guest", 100, None, True, 12.0)
    room.command({"command": "resume"}, 13.0)
    actor = room.actor_seat()
    assert actor is not None and (actor, 15.0) == room.clock(18.0)[:2]  # type: ignore[index]
    room.command({"command": "pause"}, 19.0)
    with pytest.raises(REFUSED) as error:
        room.act(actor, room.number, Action.fold(), 19.0)
    assert "the host has paused the game" == str(error.value)
    assert host and other != seat


# ------------------------------------------------------------ a person is a token, never a name
def test_two_people_who_used_one_name_settle_as_two_lines_and_are_paid_what_each_is_owed() -> None:
    """Issue 59, item 1. Person A sits as "Ann", loses 110 and leaves at hand 9; person B later sits as
    "ann" and wins 130; Bob loses 20. Grouped by name, A's debt vanished and B was paid 20."""
    a, b, bob = (token_digest(f"t1.{who}") for who in ("a", "b", "bob"))
    rows = [
        LedgerRow(1, 0, 0, "Ann", "buy_in", 1000, a),
        LedgerRow(2, 0, 1, "Bob", "buy_in", 1000, bob),
        LedgerRow(3, 9, 0, "Ann", "cash_out", 890, a),
        LedgerRow(4, 12, 0, "ann", "buy_in", 1000, b),
        LedgerRow(5, 30, 0, "ann", "cash_out", 1130, b),
        LedgerRow(6, 30, 1, "Bob", "cash_out", 980, bob),
    ]
    room, _ = game()
    settled = room.settle_up(rows)
    assert [("ann", 130), ("Bob", -20), ("Ann (left at hand 9)", -110)] == [
        (p["name"], p["net"]) for p in settled["players"]
    ]
    assert len({p["person"] for p in settled["players"]}) == 3
    assert {("Ann (left at hand 9)", "ann", 110), ("Bob", "ann", 20)} == {
        (p["from"], p["to"], p["chips"]) for p in settled["payments"]
    }


def test_the_one_seated_under_a_name_keeps_it_and_each_line_adds_up_that_persons_rows() -> None:
    """Played through the room: Ann leaves, another person sits as "ANN" and is still seated."""
    room, _, seats, ledger = seated(("ann", "bob"))
    play_out(room, ledger, hands=3)
    ledger += room.leave(seats["ann"], 2.0).ledger
    play_out(room, ledger)
    seat, _, _, _ = room.ask("ANN", 100, None, False, 3.0)
    ledger += room.command({"command": "approve", "seat": seat}, 3.0).ledger
    play_out(room, ledger, hands=2)
    settled = room.settle_up(ledger)
    names = [p["name"] for p in settled["players"]]
    left = [row.hand for row in ledger if row.kind == "cash_out" and row.name == "ann"]
    assert sorted(names) == sorted(["ANN", "bob", f"ann (left at hand {left[0]})"])
    for person in {row.person for row in ledger}:
        line = next(p for p in settled["players"] if p["person"] == person_id(person))
        rows = [row for row in ledger if row.person == person]
        assert line["cashed"] - line["bought"] == sum(
            r.chips if r.kind == "cash_out" else -r.chips for r in rows
        )
    assert 0 == sum(p["net"] for p in settled["players"])


def test_rows_stored_before_persons_were_kept_settle_by_name_as_they_did() -> None:
    room, _ = game()
    rows = [LedgerRow(1, 0, 0, "ann", "buy_in", 100), LedgerRow(2, 3, 0, "Ann", "cash_out", 150),
            LedgerRow(3, 0, 1, "bob", "buy_in", 100), LedgerRow(4, 3, 1, "bob", "cash_out", 50)]  # fmt: skip
    settled = room.settle_up(rows)
    assert [("ann", 50), ("bob", -50)] == [(p["name"], p["net"]) for p in settled["players"]]


def test_a_chat_line_carries_the_writers_seat_and_person_so_a_later_ann_is_told_apart() -> None:
    room, _, seats, ledger = seated(("ann", "bob"))
    room.say(seats["ann"], "hello", 1.0)
    first = room.members[seats["ann"]].digest
    play_out(room, ledger)
    ledger += room.leave(seats["ann"], 2.0).ledger
    play_out(room, ledger)
    seat, _, _, _ = room.ask("Ann", 100, None, False, 3.0)
    room.command({"command": "approve", "seat": seat}, 3.0)
    room.say(seat, "hi", 4.0)
    state = state_message(room, None, 5.0)
    lines = [(line["name"], line["seat"], line["person"]) for line in state["chat"]]
    later = room.members[seat].digest
    assert [("ann", seats["ann"], person_id(first)), ("Ann", seat, person_id(later))] == lines
    assert state["seats"][seat]["person"] == person_id(later) != person_id(first)


def test_the_statistics_count_two_people_who_used_one_name_as_two(tmp_path: Path) -> None:
    """Stored hands read back from a real SQLite file: "ann" plays 4 hands and leaves, another "ann"
    plays 2; their lines are apart and each counts only their own hands."""
    from holdem.server.storage import open_storage
    from holdem.server.tablestats import TableStats

    room, _, seats, ledger = seated(("ann", "bob"))
    first = room.members[seats["ann"]].digest
    hands: list[StoredHand] = []
    for _ in range(3):
        hands += play_hand(room, ledger)
    room.leave(seats["ann"], 2.0)  # when this hand ends
    hands += play_hand(room, ledger)
    seat, _, _, _ = room.ask("ann", 100, None, False, 3.0)
    room.command({"command": "approve", "seat": seat}, 3.0)
    later = room.members[seat].digest
    while sum(later in h.digests for h in hands) < 2:
        hands += play_hand(room, ledger)
    storage = open_storage(f"sqlite:///{tmp_path / 'stats.db'}")
    try:
        storage.commit([(room.id, json.dumps(room.to_dict()), hands, [])])
        counted, rows = TableStats().report(storage, room.id)
    finally:
        storage.close()
    assert counted == len(hands)
    a = [h.number for h in hands if first in h.digests]
    b = [h.number for h in hands if later in h.digests]
    assert (4, 2) == (len(a), len(b))
    assert {f"ann (hands {a[0]}-{a[-1]})": 4, f"ann (hands {b[0]}-{b[-1]})": 2, "bob": len(hands)} == {
        row.player: row.hands for row in rows
    }


def play_hand(room: Room, ledger: list[LedgerRow]) -> list[StoredHand]:
    """Play the hand in progress to its end (checking or calling); the hands it stored."""
    stored: list[StoredHand] = []
    number = room.number
    while room.table.hand is not None and room.number == number:
        legal = room.table.hand.legal_actions()
        assert legal is not None
        action = Action.check() if legal.can_check else Action.call()
        change = room.act(room.actor_seat(), room.number, action, 1.0)  # type: ignore[arg-type]
        ledger += change.ledger
        stored += change.hands
    return stored


def test_the_hosts_bot_is_never_paid_its_chips_are_the_hosts_on_a_line_of_their_own() -> None:
    """Issue 63, item 5: the settle-up said "Bob pays equity bot 2"."""
    from holdem.server.room import HOST_LINE

    room, _, _, ledger = seated(("ann", "bob"))
    ledger += room.command({"command": "bot", "bot": "calling-station"}, 0.0).ledger
    play_out(room, ledger, hands=6)
    ledger += room.command({"command": "end"}, 9.0).ledger
    play_out(room, ledger)
    stored = Room.from_dict(json.loads(json.dumps(room.to_dict())), 10.0)  # kept across a restart
    settled = stored.settle_up(ledger)
    lines = {p["name"]: p for p in settled["players"]}
    assert "calling-station bot" not in lines and ["calling-station bot"] == lines[HOST_LINE]["bots"]
    bot_rows = [r for r in ledger if r.name == "calling-station bot"]
    assert lines[HOST_LINE]["net"] == sum(r.chips if r.kind == "cash_out" else -r.chips for r in bot_rows)
    assert all("calling-station bot" not in (p["from"], p["to"]) for p in settled["payments"])
    assert 0 == sum(p["net"] for p in settled["players"])
