"""A table session: seats, the button, who posts what, and hands played one after another.

A table follows the seat-order rules of `holdem.hand.positions` (rules 1–3: the dead button of
tournaments, the moving button of cash games, the move to heads-up) and tracks missed blinds
(rule 3). It builds each `Hand` with its players in dealing order and their blinds;
`end_hand` brings the result back to the seats.
"""

from __future__ import annotations

from typing import Literal

import attrs

from holdem.cards.deck import Deck, RandomSource
from holdem.errors import InvalidConfigError, TableError
from holdem.hand.positions import dealing_order, place_blinds, previous_seat
from holdem.hand.stakes import CHIP_LIMIT, Rules, Stakes, check_chips
from holdem.hand.state import Hand

__all__ = ["ButtonRule", "Seat", "Table"]


@attrs.define
class Seat:
    """A player's place at the table. `waiting`: sits out until the big blind reaches them;
    `owes_big`/`owes_small`: blinds missed while sitting out (rule 3); `posting`: will post them."""

    name: str
    stack: int
    sitting_out: bool = False
    waiting: bool = False
    owes_big: bool = False
    owes_small: bool = False
    posting: bool = False


ButtonRule = Literal["dead", "moving"]


class Table:
    """Seats 0..size-1 clockwise. ``button="dead"`` for tournaments, ``"moving"`` for cash games.

    >>> from holdem import Action, Stakes
    >>> table = Table(6, Stakes(1, 2))
    >>> table.sit(0, "ann", 200)
    >>> table.sit(3, "bob", 200)
    >>> hand = table.start_hand()
    >>> hand.act(Action.fold())
    >>> table.end_hand()
    >>> sorted((seat.name, seat.stack) for seat in table.seats if seat is not None)
    [('ann', 199), ('bob', 201)]
    """

    def __init__(
        self,
        size: int,
        stakes: Stakes,
        *,
        rules: Rules | None = None,
        button: ButtonRule = "dead",
        rng: RandomSource | None = None,
    ) -> None:
        if type(size) is not int or not 2 <= size <= 10:
            raise InvalidConfigError(f"a table has 2 to 10 seats, got {size!r}")
        if not isinstance(stakes, Stakes):
            raise InvalidConfigError(f"stakes must be a Stakes, got {stakes!r}")
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidConfigError(f"rules must be a Rules, got {rules!r}")
        if button not in ("dead", "moving"):
            raise InvalidConfigError(f"button must be 'dead' or 'moving', got {button!r}")
        self.size = size
        self.stakes = stakes
        self.rules = rules or Rules()
        self.button_rule: ButtonRule = button
        self.rng = rng
        self.seats: list[Seat | None] = [None] * size
        self.button: int | None = None
        self.small_blind_seat: int | None = None
        self.big_blind_seat: int | None = None
        self.hand: Hand | None = None
        self.hand_seats: tuple[int, ...] = ()
        self.eliminated: list[str] = []

    # ------------------------------------------------------------ seating
    def _between_hands(self, what: str) -> None:
        if self.hand is not None:
            raise TableError(f"cannot {what} while a hand is in progress")

    def _occupied(self, seat: int) -> Seat:
        if type(seat) is not int or not 0 <= seat < self.size:
            raise TableError(f"no seat {seat!r} at a table of {self.size}")
        place = self.seats[seat]
        if place is None:
            raise TableError(f"seat {seat} is empty")
        return place

    def sit(self, seat: int, name: str, stack: int, *, wait_for_big_blind: bool = True) -> None:
        """Seat a player. In a cash game a newcomer waits for the big blind or posts one (rule 3)."""
        self._between_hands("seat a player")
        if type(seat) is not int or not 0 <= seat < self.size:
            raise TableError(f"no seat {seat!r} at a table of {self.size}")
        if self.seats[seat] is not None:
            raise TableError(f"seat {seat} is taken")
        if not isinstance(name, str) or not name:
            raise TableError(f"a player's name must be non-empty text, got {name!r}")
        if not isinstance(wait_for_big_blind, bool):
            raise TableError(f"wait_for_big_blind must be true or false, got {wait_for_big_blind!r}")
        _check_chips(stack, f"the stack of seat {seat}")
        place = Seat(name, stack)
        if self.button_rule == "moving" and self.big_blind_seat is not None:
            place.waiting, place.posting = wait_for_big_blind, not wait_for_big_blind
            place.owes_big = not wait_for_big_blind
        elif self.button_rule == "dead" and self.big_blind_seat is not None:
            # Rule 26: dealt in at once, unless the seat lies between the small blind and the
            # button; then only once the button has passed it (checked as each hand starts).
            place.waiting = True
        self.seats[seat] = place

    def leave(self, seat: int) -> Seat:
        """Remove a player between hands; returns their seat (with the chips they take)."""
        self._between_hands("leave")
        place = self._occupied(seat)
        self.seats[seat] = None
        return place

    def sit_out(self, seat: int) -> None:
        """A cash player sits out: dealt no hands, and owes the blinds that pass them."""
        self._occupied(seat).sitting_out = True

    def sit_in(self, seat: int, *, post_missed: bool = False) -> None:
        """Come back: post the missed blinds next hand, or wait for the big blind (rule 3)."""
        place = self._occupied(seat)
        place.sitting_out = False
        if place.owes_big or place.owes_small or place.waiting:
            place.posting, place.waiting = post_missed, not post_missed
            place.owes_big = place.owes_big or post_missed  # a newcomer who posts owes a big blind

    def add_chips(self, seat: int, amount: int) -> None:
        """A rebuy or top-up, between hands."""
        self._between_hands("add chips")
        place = self._occupied(seat)
        _check_chips(amount, f"the chips added to seat {seat}", CHIP_LIMIT - place.stack)
        if place.stack == 0 and (place.owes_big or place.owes_small) and not place.posting:
            place.waiting = True  # back from broke: wait for the big blind, or sit_in(post_missed=True)
        place.stack += amount

    # ----------------------------------------------------------- playing
    def start_hand(self, *, deck: Deck | None = None) -> Hand:
        """Place the button and blinds, and deal a hand to the players who are in.

        A finished hand that was not ended yet is ended first (`end_hand`).
        """
        if self.hand is not None and self.hand.is_complete:
            self.end_hand()
        self._between_hands("start a hand")
        places, seated, ready = self._players_in()
        button, small, big = self._button_and_blinds(places, seated, ready)
        dealt = self._dealt_in(places, seated, ready, button, small, big)
        order = dealing_order(dealt, button, self.size)
        blinds, dead = self._forced_bets(places, order, small, big)
        straddled = self._straddled(blinds, order.index(big))
        # The first to act preflop is left of the big blind or the last straddle, whoever else posted live
        # (heads-up the button, rule 1, also when both players post a big blind to come in).
        first = (order.index(big) + 1 + straddled) % len(order)
        self.button, self.small_blind_seat, self.big_blind_seat = button, small, big
        self.hand_seats = tuple(order)
        self.hand = Hand.start(
            [places[s].stack for s in order],
            self.stakes,
            rules=self.rules,
            deck=deck,
            rng=self.rng,
            blinds=blinds,
            dead=dead,
            first_to_act=first,
            dead_button=order[-1] != button,
            big_blind_player=order.index(big),
        )
        return self.hand

    def _players_in(self) -> tuple[dict[int, Seat], list[int], list[int]]:
        """The seats with chips who are not sitting out (`places`), their seats, and those ready to be
        dealt in: at a cash table, not waiting for the big blind, unless too few are (rule 3)."""
        places = {
            s: p for s, p in enumerate(self.seats) if p is not None and p.stack > 0 and not p.sitting_out
        }
        seated = list(places)
        cash = self.button_rule == "moving"
        ready = [s for s in seated if not places[s].waiting] if cash else seated
        if cash and len(ready) < 2 <= len(seated):
            # Liveness: too few players are in, so those waiting for the big blind post one now (rule 3).
            for place in places.values():
                if place.waiting:
                    place.waiting, place.posting, place.owes_big = False, True, True
            ready = seated
        if len(ready) < 2:
            raise TableError(f"a hand needs two players who are in, got {len(ready)}")
        return places, seated, ready

    def _button_and_blinds(
        self, places: dict[int, Seat], seated: list[int], ready: list[int]
    ) -> tuple[int, int, int]:
        """The button, small blind and big blind seats (rules 1-3)."""
        cash = self.button_rule == "moving"
        # Players posting to come in (rule 3) post a big blind wherever they sit; the button and
        # blinds move among the others, so that nobody posts the big blind twice in a row.
        regular = [s for s in ready if not places[s].posting] if cash else ready
        positions = regular if len(regular) >= 2 else ready
        button, small, big = place_blinds(
            positions,
            self.size,
            rule=self.button_rule,
            last_button=self.button,
            last_small=self.small_blind_seat,
            last_big=self.big_blind_seat,
        )
        posting = [s for s in positions if places[s].posting] if cash else []
        if len(positions) == 2 and len(posting) == 1 and big != posting[0]:
            button = small = big  # heads-up, the player posting to come in takes the big blind
            big = posting[0]
        if cash:
            waiting = self._waiting_big_blind(big, seated)
            if waiting is not None:
                big = waiting
                around = sorted({*positions, big})
                if len(around) >= 3:
                    # Rule 2 (moving button): the small blind and the button are the two players
                    # before the big blind, also when a newcomer takes it and the table goes from
                    # heads-up to three (the button never posts the small blind with three in).
                    small = previous_seat(big, around, self.size)
                    button = previous_seat(small, around, self.size)
            self._record_missed(small, big)
        return button, small, big

    def _dealt_in(
        self,
        places: dict[int, Seat],
        seated: list[int],
        ready: list[int],
        button: int,
        small: int,
        big: int,
    ) -> list[int]:
        """The seats dealt this hand: those ready and the big blind; at a tournament table, everyone
        but a newcomer between the small blind and the button (rule 26)."""
        dealt = seated if ready is seated else [s for s in seated if s in ready or s == big]
        if self.button_rule == "moving":
            return dealt
        # Rule 26: a player who arrived between the small blind and the button sits out until the
        # button has passed their seat; everyone else who arrived is dealt in now.
        if small != button:
            behind = [
                s
                for s in dealt
                if places[s].waiting and 0 < (s - button) % self.size < (small - button) % self.size
            ]
            if len(dealt) - len(behind) >= 2:
                dealt = [s for s in dealt if s not in behind]
        for s in dealt:
            places[s].waiting = False
        return dealt

    def _forced_bets(
        self, places: dict[int, Seat], order: list[int], small: int, big: int
    ) -> tuple[list[int], list[int]]:
        """Each dealt player's live blind and dead money, in dealing order (rules 2-3); the debts
        they settle are cleared."""
        cash = self.button_rule == "moving"
        blinds = [0] * len(order)
        dead = [0] * len(order)
        for k, s in enumerate(order):
            place = places[s]
            if s == big:
                blinds[k] = self.stakes.big_blind
            elif cash and place.posting:
                blinds[k] = self.stakes.big_blind  # rule 3: the big-blind part is live …
                dead[k] = self.stakes.small_blind if place.owes_small else 0  # … the rest is dead
            elif s == small:
                blinds[k] = self.stakes.small_blind
            if s == big or (cash and place.posting):
                place.owes_big = place.owes_small = place.posting = place.waiting = False
        return blinds, dead

    def _straddled(self, blinds: list[int], big: int) -> int:
        """Post the stakes' straddles at a cash table, each by the player after the one before (the
        first after the big blind), when at least four players are dealt in and each straddler posts
        nothing else; how many were posted."""
        straddles = self.stakes.straddles
        if self.button_rule != "moving" or len(blinds) < max(4, len(straddles) + 3):
            return 0
        for j, straddle in enumerate(straddles):
            k = (big + 1 + j) % len(blinds)
            if blinds[k]:
                return j
            blinds[k] = straddle
        return len(straddles)

    def straddle_seats(self) -> tuple[int, ...]:
        """The seats that posted a straddle in the current or last hand, in order (none at a tournament
        table): the players between the big blind and the first to act preflop."""
        hand = self.hand
        if hand is None or hand.opener is None or self.button_rule != "moving":
            return ()
        n, big = len(self.hand_seats), hand.big_blind_player
        return tuple(self.hand_seats[(big + 1 + j) % n] for j in range((hand.opener - big - 1) % n))

    def seat_of(self, player: int) -> int:
        """The seat of `player` (dealing order) in the current or last hand."""
        if type(player) is not int or not 0 <= player < len(self.hand_seats):
            raise TableError(f"no player {player!r} in the hand (players 0..{len(self.hand_seats) - 1})")
        return self.hand_seats[player]

    def player_at(self, seat: int) -> int | None:
        """The player number (dealing order) of `seat` in the current or last hand; None if not dealt in."""
        return self.hand_seats.index(seat) if seat in self.hand_seats else None

    def _place(self, seat: int) -> Seat:
        place = self.seats[seat]
        assert place is not None
        return place

    def _waiting_big_blind(self, big: int, seated: list[int]) -> int | None:
        """A waiting player whose seat the big blind passes takes it and joins (rule 3)."""
        last = self.big_blind_seat if self.big_blind_seat is not None else big
        span = (big - last) % self.size or self.size
        for step in range(1, span + 1):
            s = (last + step) % self.size
            if s in seated and self._place(s).waiting:
                return s
        return None

    def _record_missed(self, small: int, big: int) -> None:
        """Sitting-out or broke players whose seat a blind passes owe it (rule 3)."""
        for blind, last, now in (("big", self.big_blind_seat, big), ("small", self.small_blind_seat, small)):
            if last is None:  # the first hand: no blind has passed anyone yet
                continue
            for step in range(1, (now - last) % self.size):
                place = self.seats[(last + step) % self.size]
                if place is not None and (place.sitting_out or place.stack == 0):
                    setattr(place, f"owes_{blind}", True)

    def end_hand(self) -> None:
        """Bring a finished hand's stacks back to the seats; tournament players with no chips leave."""
        hand = self.hand
        if hand is None or not hand.is_complete:
            raise TableError("no finished hand to end")
        busted = []
        for k, (s, stack) in enumerate(zip(self.hand_seats, hand.stacks, strict=True)):
            place = self._place(s)
            place.stack = stack
            if stack == 0 and self.button_rule == "dead":
                busted.append((hand.starting_stacks[k], k, s, place.name))
        for _, _, s, name in sorted(busted):  # the shortest stack at the start goes out first
            self.eliminated.append(name)
            self.seats[s] = None
        self.hand = None


def _check_chips(value: object, name: str, most: int = CHIP_LIMIT) -> None:
    """A positive whole number of chips, at most `most` (the engine's `CHIP_LIMIT` by default)."""
    check_chips(name, value, positive=True, most=most, error=TableError)
