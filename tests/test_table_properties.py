"""Hypothesis over a table's life: players join, leave, sit out and in, bust and rebuy, in both
button modes; after every hand the seat-order rules (1-3) still hold and the table never stalls."""

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from holdem.hand.stakes import Stakes
from holdem.table.table import Table
from tests.strategies import examples, random_action


class TableMachine(RuleBasedStateMachine):
    """Random seating changes between random hands."""

    table: Table

    @initialize(
        size=st.integers(2, 10),
        button=st.sampled_from(["dead", "moving"]),
        players=st.integers(2, 10),
        seed=st.integers(0, 2**32),
    )
    def start(self, size: int, button: str, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.table = Table(size, Stakes(5, 10), button=button, rng=self.rng)  # type: ignore[arg-type]
        self.names = 0
        for seat in range(min(size, players)):
            self._sit(seat, wait=True)
        self.last_big: str | None = None
        self.hands = 0

    def _sit(self, seat: int, *, wait: bool) -> None:
        self.names += 1
        self.table.sit(seat, f"p{self.names}", self.rng.choice([15, 40, 200]), wait_for_big_blind=wait)

    def _can_play(self) -> int:
        return sum(1 for p in self.table.seats if p is not None and p.stack > 0 and not p.sitting_out)

    @rule(seat=st.integers(0, 9), wait=st.booleans())
    def join(self, seat: int, wait: bool) -> None:
        if seat < self.table.size and self.table.seats[seat] is None:
            self._sit(seat, wait=wait)

    @rule(seat=st.integers(0, 9))
    def leave(self, seat: int) -> None:
        if seat < self.table.size and self.table.seats[seat] is not None:
            self.table.leave(seat)

    @rule(seat=st.integers(0, 9))
    def sit_out(self, seat: int) -> None:
        if seat < self.table.size and self.table.seats[seat] is not None:
            self.table.sit_out(seat)

    @rule(seat=st.integers(0, 9), post=st.booleans())
    def sit_in(self, seat: int, post: bool) -> None:
        if seat < self.table.size and self.table.seats[seat] is not None:
            self.table.sit_in(seat, post_missed=post)

    @rule(seat=st.integers(0, 9))
    def rebuy(self, seat: int) -> None:
        place = self.table.seats[seat] if seat < self.table.size else None
        if self.table.button_rule == "moving" and place is not None and place.stack < 50:
            self.table.add_chips(seat, 100)

    @precondition(lambda self: self._can_play() >= 2)
    @rule()
    def play_a_hand(self) -> None:
        table = self.table
        hand = table.start_hand()  # never stalls: two players can play
        big = table.big_blind_seat
        assert big is not None and big in table.hand_seats
        big_name = table.seats[big].name  # type: ignore[union-attr]
        if len(table.hand_seats) >= 3:
            assert table.button != big, "the button is on the big blind"
        assert big_name != self.last_big, f"{big_name} posts the big blind twice in a row"
        self.last_big = big_name
        while not hand.is_complete:
            hand.act(random_action(hand, self.rng))
        table.end_hand()
        self.hands += 1

    @invariant()
    def seats_are_sound(self) -> None:
        table = self.table
        assert table.hand is None
        assert all(p is None or p.stack >= 0 for p in table.seats)
        if table.button_rule == "dead":
            assert all(p is None or p.stack > 0 for p in table.seats), "a busted player is still seated"


TestTableMachine = TableMachine.TestCase
TestTableMachine.settings = settings(max_examples=examples(300), stateful_step_count=40, deadline=None)
