"""Rules that only the server's tests used to check, now each with a named test of its own, worked out
by hand: straddles at a moving-button table (rule 33), blinds owed by a broke seat and posted by a
newcomer (rule 3), equal top blinds, the settle-up at its exact limit, and a raise after a straddle
in PokerStars text. Then those written from the table's mutation survivors: a rebuy's wait for the
big blind, sitting in, a dead button, and the table's refusals word for word."""

from __future__ import annotations

import random

import pytest

from holdem import Action, Deck, Hand, Stakes
from holdem.errors import InvalidConfigError, TableError
from holdem.formats import phh
from holdem.formats.pokerstars.write import write_hand
from holdem.table.settleup import EXACT_LIMIT, settle_up
from holdem.table.table import Table


def cash_table(names: str, stakes: Stakes, seats: int | None = None) -> Table:
    """A moving-button table with `names` in seats 0, 1, … and 100 chips each; the first button is
    seat 0, so seat 1 posts the small blind and seat 2 the big blind."""
    table = Table(seats or len(names), stakes, button="moving", rng=random.Random(1))
    for seat, name in enumerate(names):
        table.sit(seat, name, 100)
    return table


def posted(table: Table) -> dict[int, int]:
    """Each seat's live forced bet in the hand in progress (blinds and straddles)."""
    hand = table.hand
    assert hand is not None
    return {s: b for s, b in zip(table.hand_seats, hand.declared_blinds, strict=True) if b}


def finish(table: Table) -> None:
    hand = table.hand
    assert hand is not None
    while not hand.is_complete:
        hand.act(Action.fold())
    table.end_hand()


def test_rule_33_a_table_straddles_only_with_four_players_or_more_dealt_in() -> None:
    """Three dealt in: the small and big blinds alone. Four: the player after the big blind posts the
    straddle too."""
    three = cash_table("ABC", Stakes(1, 2, straddles=(4,)))
    three.start_hand()
    assert {1: 1, 2: 2} == posted(three)
    four = cash_table("ABCD", Stakes(1, 2, straddles=(4,)))
    four.start_hand()
    assert {1: 1, 2: 2, 3: 4} == posted(four)


def test_rule_33_the_player_after_the_straddler_acts_first_and_the_straddler_has_the_option() -> None:
    """Button A, blinds B and C, straddle D: A acts first; when A, B and C call the 4, the action
    comes back to D, who may check or raise."""
    table = cash_table("ABCD", Stakes(1, 2, straddles=(4,)))
    hand = table.start_hand()
    assert 0 == table.seat_of(hand.actor)  # type: ignore[arg-type]
    for seat in (0, 1, 2):
        assert seat == table.seat_of(hand.actor)  # type: ignore[arg-type]
        hand.act(Action.call())
    legal = hand.legal_actions()
    assert legal is not None and 3 == table.seat_of(legal.player)
    assert legal.can_check and legal.min_raise_to == 8  # the option: check, or raise by a straddle


def test_rule_03_a_broke_seat_that_the_blinds_pass_owes_them_and_posts_them_on_its_return() -> None:
    """E (seat 4) is broke and stays seated while the button moves twice: the big blind passes its
    seat, then the small blind. Bought in again and posting at once, E posts a live big blind (2)
    and a dead small blind (1)."""
    table = cash_table("ABCDE", Stakes(1, 2))
    table.start_hand()  # button A, small B, big C
    finish(table)
    broke = table.seats[4]
    assert broke is not None
    broke.stack = 0  # E lost every chip and has not bought again
    table.start_hand()  # button B, small C, big D
    finish(table)
    table.start_hand()  # button C, small D, big A: the big blind passed E's seat
    finish(table)
    assert broke.owes_big
    table.start_hand()  # button D, small A, big B: the small blind passed it too
    finish(table)
    assert broke.owes_big and broke.owes_small
    table.add_chips(4, 100)
    table.sit_in(4, post_missed=True)
    hand = table.start_hand()
    k = table.hand_seats.index(4)
    assert (2, 1) == (hand.declared_blinds[k], hand.declared_dead[k])


def test_rule_03_a_newcomer_who_posts_at_once_posts_a_live_big_blind_and_nothing_dead() -> None:
    table = cash_table("ABCD", Stakes(1, 2), seats=6)
    table.start_hand()
    finish(table)
    table.sit(4, "N", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    k = table.hand_seats.index(4)
    assert (2, 0) == (hand.declared_blinds[k], hand.declared_dead[k])


def test_with_equal_top_blinds_the_player_after_the_last_of_them_acts_first() -> None:
    """Blinds 100/100 at four players: the small blind (player 0) and the big blind (player 1) both
    post 100; the first to act is player 2, after the big blind, not player 1 after the first 100."""
    hand = Hand.start([1000] * 4, Stakes(100, 100))
    assert 2 == hand.actor
    table = cash_table("ABCD", Stakes(100, 100))
    table.stakes = Stakes(100, 100)
    for seat in range(4):
        table.seats[seat].stack = 1000  # type: ignore[union-attr]
    dealt = table.start_hand()
    assert 3 == table.seat_of(dealt.actor)  # type: ignore[arg-type]  # button A, blinds B and C: D


def test_the_settle_up_is_exact_at_its_limit_of_sixteen_players_owed_or_owing() -> None:
    """Sixteen non-zero nets: five pairs that even out (5 payments), 8 and -8 (1), and 3, 4 and 2
    owed by -9 (3): 9 payments. Without the exact search, the largest debt paid to the largest
    credit across everyone takes 10 (-9 pays 8, and -8 must pay three)."""
    nets = [3, -9, 8, 4, 2, -8] + [x for pair in (100, 200, 300, 400, 500) for x in (pair, -pair)]
    assert EXACT_LIMIT == len(nets)
    payments = settle_up({f"p{k:02d}": net for k, net in enumerate(nets)})
    assert 9 == len(payments)
    balance = {f"p{k:02d}": net for k, net in enumerate(nets)}
    for payment in payments:
        balance[payment.payer] += payment.chips
        balance[payment.payee] -= payment.chips
    assert all(0 == net for net in balance.values())


def test_a_raise_after_a_straddle_is_written_as_raises_the_difference_to_the_total() -> None:
    """Blinds 1/2, straddle 4: the first player raises to 10, which PokerStars writes as "raises 6
    to 10" (over the straddle, the bet to match)."""
    hand = Hand.start([100] * 4, Stakes(1, 2, straddles=(4,)), rng=random.Random(2))
    hand.act(Action.raise_to(10))
    while not hand.is_complete:
        hand.act(Action.fold())
    text = write_hand(phh.loads(phh.dumps(phh.export(hand)))[0])
    assert any(line.endswith(": raises 6 to 10") for line in text.splitlines()), text


def broke_owing(table: Table, seat: int, hands: int = 3) -> None:
    """Leave `seat` with no chips for `hands` hands, as in the test above: after two the big blind
    has passed it, after three the small blind too."""
    table.start_hand()
    finish(table)
    place = table.seats[seat]
    assert place is not None
    place.stack = 0
    for _ in range(hands):
        table.start_hand()
        finish(table)
    assert (place.owes_big, place.owes_small) == (hands >= 2, hands >= 3)


def test_rule_03_a_broke_seat_that_buys_again_waits_for_the_big_blind_unless_it_posts() -> None:
    """E bought in again while owing both blinds: not dealt in until the big blind comes round to it.
    A seat with chips that tops up, or one that owes nothing, is not made to wait."""
    owing_one = cash_table("ABCDE", Stakes(1, 2))
    broke_owing(owing_one, 4, hands=2)  # the big blind alone has passed it
    owing_one.add_chips(4, 100)
    assert owing_one.seats[4] is not None and owing_one.seats[4].waiting
    table = cash_table("ABCDE", Stakes(1, 2))
    broke_owing(table, 4)
    table.add_chips(4, 100)
    place = table.seats[4]
    assert place is not None and place.waiting
    table.start_hand()  # the big blind is not E's yet: E is not dealt in
    assert 4 not in table.hand_seats and 4 != table.big_blind_seat
    finish(table)
    topped = table.seats[0]
    assert topped is not None
    before = topped.stack
    table.add_chips(0, 50)  # A has chips and owes nothing: plays on
    assert not topped.waiting and before + 50 == topped.stack


def test_rule_03_a_broke_seat_that_chose_to_post_is_not_sent_back_to_waiting_by_its_rebuy() -> None:
    table = cash_table("ABCDE", Stakes(1, 2))
    broke_owing(table, 4)
    table.sit_in(4, post_missed=True)  # E says it will post, then buys chips
    table.add_chips(4, 100)
    place = table.seats[4]
    assert place is not None and place.posting and not place.waiting
    hand = table.start_hand()
    k = table.hand_seats.index(4)
    assert (2, 1) == (hand.declared_blinds[k], hand.declared_dead[k])


def test_rule_03_sitting_in_posts_what_is_owed_or_waits_whichever_the_player_chooses() -> None:
    """A player back from sitting out who owes only the small blind posts it with a big blind when
    they choose to (a newcomer who posts owes a big blind), or waits for the big blind."""
    for post in (True, False):
        table = cash_table("ABCDE", Stakes(1, 2))
        place = table.seats[4]
        assert place is not None
        table.sit_out(4)
        place.owes_small = True  # the small blind passed E while E sat out
        table.sit_in(4, post_missed=post)
        assert (place.posting, place.waiting, place.owes_big) == (post, not post, post)


def test_the_tables_refusals_name_what_was_wrong() -> None:
    table = cash_table("ABC", Stakes(1, 2), seats=6)
    added = "the chips added to seat 0 must be a positive whole number of chips, at most 999,999,999,900, got"
    refusals = {
        f"{added} 0": lambda: table.add_chips(0, 0),
        f"{added} 1.5": lambda: table.add_chips(0, 1.5),  # type: ignore[arg-type]
        f"{added} True": lambda: table.add_chips(0, True),
        f"{added} 999999999901": lambda: table.add_chips(0, 10**12 - 99),  # past the engine's limit
        "no seat '1' at a table of 6": lambda: table.add_chips("1", 5),  # type: ignore[arg-type]
        "no seat 6 at a table of 6": lambda: table.add_chips(6, 5),
        "seat 4 is empty": lambda: table.add_chips(4, 5),
    }
    refusals["no finished hand to end"] = table.end_hand
    for message, refused in refusals.items():
        with pytest.raises(TableError) as error:
            refused()
        assert message == str(error.value)
    table.start_hand()
    during = {
        "cannot add chips while a hand is in progress": lambda: table.add_chips(0, 5),
        "cannot leave while a hand is in progress": lambda: table.leave(0),
        "no player '0' in the hand (players 0..2)": lambda: table.seat_of("0"),  # type: ignore[arg-type]
        "no player 3 in the hand (players 0..2)": lambda: table.seat_of(3),
        "no player -1 in the hand (players 0..2)": lambda: table.seat_of(-1),
        "cannot start a hand while a hand is in progress": table.start_hand,
        "no finished hand to end": table.end_hand,
    }
    for message, refused in during.items():
        with pytest.raises(TableError) as error:
            refused()
        assert message == str(error.value)
    assert [table.seat_of(k) for k in range(3)] == list(table.hand_seats)


def test_rule_03_a_player_broke_in_their_big_blind_hand_does_not_owe_that_big_blind() -> None:
    """C posted the big blind and lost everything in that hand. When the big blind moves on past C's
    seat's turn, C owes nothing for it: C paid it."""
    table = cash_table("ABCDE", Stakes(1, 2))
    table.start_hand()  # button A, small B, big C
    finish(table)
    broke = table.seats[2]
    assert broke is not None and 2 == table.big_blind_seat
    broke.stack = 0
    table.start_hand()  # the big blind moves to D
    finish(table)
    assert not broke.owes_big


def test_rule_03_a_newcomer_in_the_seat_that_last_posted_the_big_blind_waits_a_whole_round() -> None:
    """C left after posting the big blind; N sits in C's seat. The big blind moves on to D: N's
    seat is behind it, so N waits until it comes round."""
    table = cash_table("ABCDE", Stakes(1, 2))
    table.start_hand()  # button A, small B, big C
    finish(table)
    table.leave(2)
    table.sit(2, "N", 100)
    table.start_hand()
    assert 2 not in table.hand_seats and 3 == table.big_blind_seat


def test_a_table_and_a_seat_refused_name_what_was_wrong() -> None:
    for size in (11, 1, "6"):
        with pytest.raises(InvalidConfigError) as error:
            Table(size, Stakes(1, 2))  # type: ignore[arg-type]
        assert f"a table has 2 to 10 seats, got {size!r}" == str(error.value)
    with pytest.raises(InvalidConfigError) as error:
        Table(6, Stakes(1, 2), button="x")  # type: ignore[arg-type]
    assert "button must be 'dead' or 'moving', got 'x'" == str(error.value)
    assert 10 == Table(10, Stakes(1, 2)).size and 2 == Table(2, Stakes(1, 2)).size
    table = cash_table("AB", Stakes(1, 2), seats=6)
    stack = "the stack of seat {} must be a positive whole number of chips, at most 1,000,000,000,000, got"
    refusals = {
        "no seat 6 at a table of 6": lambda: table.sit(6, "C", 100),
        f"{stack.format(2)} 0": lambda: table.sit(2, "C", 0),
        f"{stack.format(2)} -5": lambda: table.sit(2, "C", -5),
        # Issue 60, item 2: 10**13 was seated, then start_hand refused it naming a dealing-order index.
        f"{stack.format(0)} 10000000000000": lambda: Table(6, Stakes(1, 2)).sit(0, "a", 10**13),
    }
    for message, refused in refusals.items():
        with pytest.raises(TableError) as seat_error:
            refused()
        assert message == str(seat_error.value)
    table.start_hand()
    with pytest.raises(TableError) as during:
        table.sit(2, "C", 100)
    assert "cannot seat a player while a hand is in progress" == str(during.value)
    assert [None] * 4 == table.seats[2:]  # nothing was seated


def test_rule_33_two_straddles_need_five_players_dealt_in() -> None:
    """Each straddler posts nothing else and somebody acts before them: two straddles after the big
    blind need five players. Four post the blinds alone; five post 1, 2, 4 and 8."""
    four = cash_table("ABCD", Stakes(1, 2, straddles=(4, 8)), seats=5)
    assert (1, 2, 0, 0) == four.start_hand().declared_blinds and () == four.straddle_seats()
    five = cash_table("ABCDE", Stakes(1, 2, straddles=(4, 8)))
    assert (1, 2, 4, 8, 0) == five.start_hand().declared_blinds and (3, 4) == five.straddle_seats()


def test_rule_02_a_dead_button_is_nobodys_in_the_hand_and_a_live_one_is_the_last_dealt() -> None:
    """Tournament table: button 0, small blind 3, big blind 6. The player in seat 3 leaves; the button
    moves to seat 3, empty, and is dead: the hand has no button player. Before, it was the last dealt."""
    table = Table(9, Stakes(10, 20))
    for seat in (0, 3, 6, 7):
        table.sit(seat, f"p{seat}", 1000)
    table.button = 0
    hand = table.start_hand()
    assert 3 == hand.button and 0 == table.seat_of(3)
    finish(table)
    table.leave(3)
    hand = table.start_hand()
    assert (3, 6, 7) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert hand.button is None and (6, 7, 0) == table.hand_seats


def seated(seats: int, players: tuple[int, ...], rule: str = "moving") -> Table:
    """A table of `seats` with 100 chips in each of `players`, one hand played (every player folding)."""
    table = Table(seats, Stakes(1, 2), button=rule, rng=random.Random(1))  # type: ignore[arg-type]
    for seat in players:
        table.sit(seat, f"p{seat}", 100)
    table.start_hand()
    finish(table)
    return table


def test_rule_03_a_newcomer_who_chose_to_post_then_sat_out_waits_for_the_big_blind_on_coming_back() -> None:
    """Players in seats 0, 2 and 4; D sits in seat 3 (between the blinds) choosing to post, sits out
    before being dealt, and comes back the default way: D waits for the big blind, which next moves
    from seat 4 to seat 0 without passing seat 3."""
    table = seated(6, (0, 2, 4))
    assert (0, 2, 4) == (table.button, table.small_blind_seat, table.big_blind_seat)
    table.sit(3, "D", 100, wait_for_big_blind=False)
    table.sit_out(3)
    table.sit_in(3)
    table.start_hand()
    assert (4, 0, 2) == table.hand_seats and {4: 1, 0: 2} == posted(table)


def test_rule_03_with_one_player_left_in_a_newcomer_waiting_for_the_big_blind_posts_it_now() -> None:
    """Heads-up, seat 1 leaves and C sits in seat 3 to wait for the big blind: with only seat 0
    otherwise in, C posts the big blind at once and seat 0 has the button and the small blind. Alone
    again, no hand can start."""
    table = seated(6, (0, 1))
    table.leave(1)
    table.sit(3, "C", 100)
    table.start_hand()
    assert (3, 0) == table.hand_seats and {3: 2, 0: 1} == posted(table)
    finish(table)
    table.leave(3)
    with pytest.raises(TableError) as refused:
        table.start_hand()
    assert "a hand needs two players who are in, got 1" == str(refused.value)


def test_rule_03_a_newcomer_posting_to_come_in_takes_neither_the_button_nor_a_blinds_seat() -> None:
    """Seats 0, 1 and 2 played a hand (button 0, blinds 1 and 2); N sits in seat 4 and posts at once.
    The button and the blinds move among the others (button 1, blinds 2 and 0) and N posts a live big
    blind in turn; the first to act is left of the big blind: the button."""
    table = seated(6, (0, 1, 2))
    table.sit(4, "N", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    assert (1, 2, 0) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (2, 4, 0, 1) == table.hand_seats and {2: 1, 4: 2, 0: 2} == posted(table)
    assert 1 == table.seat_of(hand.actor)  # type: ignore[arg-type]


def test_rule_03_heads_up_a_newcomer_posting_to_come_in_takes_the_big_blind() -> None:
    table = seated(6, (0, 1, 2))
    table.leave(1)
    table.leave(2)
    table.sit(4, "N", 100, wait_for_big_blind=False)
    table.start_hand()
    assert (0, 0, 4) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (4, 0) == table.hand_seats and {4: 2, 0: 1} == posted(table)


def test_rule_03_three_handed_the_newcomer_after_the_big_blind_acts_first() -> None:
    """Seats 0 and 2 heads-up, then N posts in seat 1, between the big blind (0) and the button (2):
    N is left of the big blind, so N acts first (with the option of a live big blind)."""
    table = seated(6, (0, 2))
    table.sit(1, "N", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    assert (0, 1, 2) == table.hand_seats and {0: 2, 1: 2, 2: 1} == posted(table)
    assert 1 == table.seat_of(hand.actor)  # type: ignore[arg-type]


def test_a_table_deals_from_the_deck_it_is_given() -> None:
    table = Table(6, Stakes(1, 2), button="moving", rng=random.Random(1))
    for seat in (0, 1, 2):
        table.sit(seat, f"p{seat}", 100)
    hand = table.start_hand(deck=Deck.stacked("AsKsQhJh2c3c"))
    assert ["As Jh", "Ks 2c", "Qh 3c"] == [" ".join(map(str, hole)) for hole in hand.holes]  # one at a time


def test_rule_26_a_player_moved_onto_the_buttons_own_seat_is_dealt_in_at_once() -> None:
    """Dead button: after button 0, blinds 3 and 6, the button goes to seat 3. Its player is out and
    a player moved into seat 3 is on the button, not between the small blind and the button: dealt
    in at once, posting nothing."""
    table = seated(9, (0, 3, 6), rule="dead")
    table.leave(3)
    table.sit(3, "moved", 100)
    table.start_hand()
    assert (3, 6, 0) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (6, 0, 3) == table.hand_seats and {6: 1, 0: 2} == posted(table)


def test_rule_26_a_player_between_the_small_blind_and_the_button_waits_even_with_two_left_to_play() -> None:
    """Dead button on the empty seat 3, blinds 6 and 0; a player moved into seat 4 (between the button
    and the small blind) waits, and seats 6 and 0 play heads-up."""
    table = seated(9, (0, 3, 6), rule="dead")
    table.leave(3)
    table.sit(4, "moved", 100)
    table.start_hand()
    assert (3, 6, 0) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (6, 0) == table.hand_seats


def test_rule_01_heads_up_the_button_acts_first_even_when_both_players_post_to_come_in() -> None:
    """A and B leave after a heads-up hand; C and D sit down choosing to post at once. Each posts a big
    blind, D's seat has the button, and the button acts first before the flop (rule 1): the big
    blind, C, acted first before."""
    table = seated(6, (0, 1))
    table.leave(0)
    table.leave(1)
    table.sit(2, "C", 100, wait_for_big_blind=False)
    table.sit(4, "D", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    assert (4, 2) == (table.button, table.big_blind_seat) and {2: 2, 4: 2} == posted(table)
    assert 4 == table.seat_of(hand.actor)  # type: ignore[arg-type]


def test_rule_05_the_big_blinds_seat_posts_the_big_blind_ante_not_a_newcomer_posting_to_come_in() -> None:
    """Seats 0, 1 and 2 played a hand; N sits in seat 3, between the next small blind (2) and big blind
    (0), and posts at once. Seat 0, the big blind, posts the big-blind ante."""
    table = Table(6, Stakes(1, 2, big_blind_ante=2), button="moving", rng=random.Random(1))
    for seat in (0, 1, 2):
        table.sit(seat, f"p{seat}", 100)
    table.start_hand()
    finish(table)
    table.sit(3, "N", 100, wait_for_big_blind=False)
    hand = table.start_hand()
    assert (2, 3, 0, 1) == table.hand_seats and {2: 1, 3: 2, 0: 2} == posted(table)
    antes = [(table.seat_of(e.player), e.amount) for e in hand.events() if e.kind == "ante"]  # type: ignore[arg-type]
    assert [(0, 2)] == antes


def test_rule_03_with_one_player_in_every_newcomer_waiting_posts_a_big_blind_the_buttons_too() -> None:
    """Seat 1 is left alone after a heads-up hand; X (seat 3) and Y (seat 4) sit down to wait for the
    big blind. Waiting would deal no hand, so both post a big blind now: X in the big blind's seat and
    Y on the button, with seat 1 in the small blind."""
    table = seated(6, (0, 1))
    table.leave(0)
    table.sit(3, "X", 100)
    table.sit(4, "Y", 100)
    table.start_hand()
    assert (4, 1, 3) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (1, 3, 4) == table.hand_seats and {1: 1, 3: 2, 4: 2} == posted(table)


def test_rule_03_heads_up_a_newcomer_posting_takes_the_big_blind_that_would_have_gone_to_the_other() -> None:
    """After button 0 and blinds 1 and 2, seats 1 and 2 leave and N sits in seat 1 posting at once:
    the big blind would move on to seat 0, but N, who must post one to come in, takes it."""
    table = seated(6, (0, 1, 2))
    table.leave(1)
    table.leave(2)
    table.sit(1, "N", 100, wait_for_big_blind=False)
    table.start_hand()
    assert (0, 0, 1) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (1, 0) == table.hand_seats and {1: 2, 0: 1} == posted(table)


def test_rule_26_moved_players_wait_only_while_two_others_can_play() -> None:
    """Dead button: after button 3 and blinds 5 and 0, all three are out; players are moved into seats
    2, 7 and 8. The button is dead on 5 and the small blind on 0, the big blind is 2: seats 7 and 8,
    between the button and the small blind, would wait, but that leaves one player, so all three play."""
    table = Table(9, Stakes(10, 20))
    for seat in (0, 3, 5):
        table.sit(seat, f"p{seat}", 1000)
    table.button = 3
    table.start_hand()
    finish(table)
    for seat in (0, 3, 5):
        table.leave(seat)
    for seat in (2, 7, 8):
        table.sit(seat, f"moved{seat}", 1000)
    table.start_hand()
    assert (5, 0, 2) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (7, 8, 2) == table.hand_seats and {2: 20} == posted(table)


def test_a_table_names_no_straddler_before_its_first_hand_or_without_straddles() -> None:
    table = Table(6, Stakes(1, 2, straddles=(4,)), button="moving", rng=random.Random(1))
    assert () == table.straddle_seats()
    for seat in range(4):
        table.sit(seat, f"p{seat}", 100)
    table.start_hand()
    assert (3,) == table.straddle_seats()
