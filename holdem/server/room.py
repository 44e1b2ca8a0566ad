"""One cash table on the server: seats and their tokens, the hand in progress, the clock.

A `Room` is plain state with no I/O. Each request method either raises `RequestError` having
changed nothing, or applies the change and returns a `Change`: the ledger rows and finished
hands to store with the room's new state (`to_dict`). Times are passed in (`now`, seconds on a
monotonic clock), so the clock is tested without waiting.

Players join with a buy-in and get a token (only its SHA-256 digest is kept). Joining, leaving
and rebuying during a hand take effect when it ends; a hand starts whenever two players with
chips are in (the moving button, missed blinds and waiting for the big blind are
`holdem.table.table.Table`'s, rules 2–3). When a player's decision time and time bank both run out,
the server checks for them if that is free, else folds, and sits them out.

A tournament's table is a room too (`tournament` names it): a dead button, no buy-ins, rebuys or
sitting out, and hands dealt by the tournament's director (`holdem.server.tourney`), which also
seats and moves its players; a player out of time checks or folds without being sat out.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import math
import secrets
import warnings
from collections.abc import Collection
from typing import Any

import attrs

from holdem.errors import HoldemError, NotFoundError, RefusedError, RequestError, SnapshotError, TableError
from holdem.formats import phh
from holdem.hand.actions import Action, check_or_fold
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.state import Hand
from holdem.server.change import Change, LedgerRow, StoredHand
from holdem.server.chat import Chat
from holdem.server.config import TableConfig, check_lookalike, player_name, table_config
from holdem.server.home import Home, Seeker
from holdem.server.lasthand import LastHand
from holdem.table.settleup import settle_up
from holdem.table.snapshot import table_from_json, table_to_json
from holdem.table.table import ButtonRule, Table

__all__ = ["FORMAT", "HOST_LINE", "Member", "Room", "person_id", "token_digest"]

AWAY_SECONDS = 10.0
"""The decision clock, in seconds, of a player at a cash or home table who has no connection open on
their turn: they are checked or folded once it runs out (their time bank is not spent) and sat out, as
a player out of time is. A tournament player keeps the whole clock, and is blinded off."""

FORMAT = "holdem/room"


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256 digest (a stolen database holds no usable token)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def person_id(digest: str) -> str:
    """The public name of the person holding the token with `digest`: 12 hex digits that tell two
    people apart on a page and give away nothing of the token or its digest ("" for no digest)."""
    if not digest:
        return ""
    return hashlib.sha256(f"person {digest}".encode()).hexdigest()[:12]


@attrs.define
class Member:
    """A player holding a seat. `joining`/`rebuy`: chips that arrive when the current hand ends."""

    name: str
    digest: str  # of the seat's token (never the token itself)
    bank: float
    joining: int = 0
    rebuy: int = 0
    leaving: bool = False
    away: bool = False  # asked to sit out before being seated


class Room:
    """One served table (a cash table, a home game or a tournament's table); seats numbered 0..seats-1."""

    def __init__(
        self, ident: str, config: TableConfig, tournament: str | None = None, table: Table | None = None
    ) -> None:
        """A room for `config`'s table; a tournament's (`tournament`, its id) may come with its
        `table` already seated (by the draw, rule 22)."""
        self.id = ident
        self.config = config
        self.tournament = tournament
        button: ButtonRule = "moving" if tournament is None else "dead"
        rules = Rules(run_twice=config.run_twice)
        self.table = table or Table(config.seats, self._stakes(), rules=rules, button=button)  # rng: CSPRNG
        self.busted: list[tuple[str, int]] = []  # a tournament's players out in the last hand, with stacks
        self.members: dict[int, Member] = {}
        self.number = 0  # the hand in progress, or the last one
        self.ledger_seq = 0
        self.last_hand: LastHand | None = None
        self.turn: tuple[int, int] | None = None  # (hand, actions taken): the decision on the clock
        self.turn_started = 0.0
        self.home: Home | None = None  # a home game's host, requests and controls
        self.chat = Chat()

    def _stakes(self) -> Stakes:
        config = self.config
        straddles = (2 * config.big_blind,) if config.straddle else ()
        return Stakes(config.small_blind, config.big_blind, ante=config.ante, straddles=straddles)

    # ------------------------------------------------------------ a tournament's director
    def take_busted(self) -> list[tuple[str, int]]:
        """The players the last hand here put out of the tournament, with their stacks; now placed."""
        busted, self.busted = self.busted, []
        return busted

    def break_up(self) -> None:
        """The tournament broke this table: its players were moved (rule 27); nobody sits here now."""
        self.table.seats = [None] * self.table.size
        self.members = {}

    def seat_members(self, members: dict[int, Member]) -> None:
        """The players seated here after a draw or a balance, with their tokens."""
        self.members = members

    def fresh_clock(self, now: float) -> None:
        """The player to act gets a fresh decision clock from `now` (the game was paused or resumed);
        their time bank is kept."""
        self.turn_started = now

    # ------------------------------------------------------------ reading
    def seat_of_token(self, digest: str) -> int | None:
        """The seat whose token has this digest (compared in constant time), or None."""
        found = None
        for seat, member in self.members.items():
            if hmac.compare_digest(member.digest, digest):
                found = seat
        return found

    def steps(self) -> int:
        """Actions taken in the hand in progress (0 between hands)."""
        hand = self.table.hand
        return 0 if hand is None else len(hand.history)

    def actor_seat(self) -> int | None:
        hand = self.table.hand
        if hand is None or hand.actor is None:
            return None
        return self.table.hand_seats[hand.actor]

    def clock(self, now: float, away: Collection[int] = ()) -> tuple[int, float, float] | None:
        """(seat to act, decision seconds left, time bank left), or None when nobody is to act. `away`:
        the seats with no connection open; one to act at a cash table has `AWAY_SECONDS` and no bank."""
        seat = self.actor_seat()
        if seat is None or (self.home is not None and self.home.paused):
            return None  # nobody to act, or the clock stands still while the game is paused
        elapsed = now - self.turn_started
        if seat in away and self.tournament is None:
            return seat, max(0.0, min(self.config.action_seconds, AWAY_SECONDS) - elapsed), 0.0
        action = max(0.0, self.config.action_seconds - elapsed)
        over = max(0.0, elapsed - self.config.action_seconds)
        return seat, action, max(0.0, self.members[seat].bank - over)

    def chips(self) -> int:
        """Every chip the room holds: stacks, the pot, and buy-ins and rebuys still to arrive."""
        hand = self.table.hand
        total = sum(m.joining + m.rebuy for m in self.members.values())
        dealt = set(self.table.hand_seats) if hand is not None else set()
        total += sum(p.stack for s, p in enumerate(self.table.seats) if p is not None and s not in dealt)
        if hand is not None:
            total += sum(hand.stacks) + hand.pot
        return total

    def settlement(self, rows: list[LedgerRow]) -> dict[str, Any]:
        """0.1's name for `settle_up`; warns, and goes in 0.3."""
        warnings.warn(
            "Room.settlement is now Room.settle_up; settlement goes in 0.3", DeprecationWarning, stacklevel=2
        )
        return self.settle_up(rows)

    def settle_up(self, rows: list[LedgerRow]) -> dict[str, Any]:
        """Each person's buy-ins, cash-outs, chips on the table and net, from the stored ledger, and the
        fewest payments that settle them. A person is a seat token, never a name: two people who used
        one name are two lines ("Ann (left at hand 9)" and "ann"). A player dealt into the hand in
        progress counts the chips they had when it began (the pot is nobody's yet)."""
        people: dict[str, dict[str, Any]] = {}
        for row in rows:
            entry = _account(people, row.person, row.name)
            entry["_last"] = row.seq
            if row.kind == "cash_out":
                entry["cashed"] += row.chips
                entry["left_at"] = row.hand
            else:
                entry["bought"] += row.chips
                entry["left_at"] = None
        for seat, member in self.members.items():  # each bought in, so each has a row
            entry = _account(people, member.digest, member.name)
            entry["on_table"] += self.held(seat)
            entry["_last"] = math.inf
        bots = self.home.bot_digests if self.home is not None else set()
        house = [people.pop(key) for key in list(people) if key in bots]  # the host's bots
        entries = _labelled(list(people.values()))
        if house:  # a bot's chips are the host's, who bought them: one line, the bots named on it
            entries.append(_host_line(house))
        for entry in entries:
            entry["net"] = entry["cashed"] + entry["on_table"] - entry["bought"]
        payments = settle_up({e["name"]: e["net"] for e in entries})
        ended = self.home is not None and self.home.ended
        return {
            "table": self.id,
            "ended": ended,
            # Final once the game has ended and the last hand with it: everyone has cashed out.
            "final": ended and not self.members,
            "players": sorted(entries, key=lambda e: (-e["net"], e["name"].casefold())),
            "payments": [{"from": p.payer, "to": p.payee, "chips": p.chips} for p in payments],
        }

    # ------------------------------------------------------------ requests
    def join(self, name: Any, buy_in: Any, seat: Any, now: float) -> tuple[int, str, Change]:
        """Take a seat (the first free one unless `seat` is given); returns (seat, token, change)."""
        name, seat = self.check_join(name, buy_in, seat)
        token = self.new_token()
        return seat, token, self.admit(seat, name, buy_in, token_digest(token), now)

    def new_token(self) -> str:
        return f"{self.id}.{secrets.token_urlsafe(32)}"  # 256 bits; the table first, for routing

    def new_digest(self) -> str:
        """The digest of a new token nobody is given (a host's bot holds its seat by it)."""
        return token_digest(self.new_token())

    @classmethod
    def hosted(cls, config: TableConfig, name: Any = "", listed: Any = False) -> tuple[Room, str]:
        """A home game with `config`, and its host token (for this table alone); `name` is what the
        lobby shows, `listed` whether it lists the game (`Home.open` checks both)."""
        room = cls(secrets.token_hex(4), config)
        token = room.new_token()
        room.home = Home.open(token_digest(token), name, listed)
        return room, token

    def is_host(self, digest: str) -> bool:
        """Whether this is a home game and `digest` is its host token's."""
        return self.home is not None and self.home.is_host(digest)

    def ask(self, name: Any, buy_in: Any, seat: Any, host: bool, now: float) -> tuple[int, str, bool, Change]:
        """Ask for a seat: (seat, token, whether it waits for the host, change). At a table without a
        host, or asked with the host's token, the player sits at once."""
        name, seat = self.check_join(name, buy_in, seat)
        token = self.new_token()
        if self.home is None or host:
            return seat, token, False, self.admit(seat, name, buy_in, token_digest(token), now)
        self.home.add_seeker(seat, Seeker(name, buy_in, token_digest(token)))
        return seat, token, True, Change()

    def command(self, data: dict[str, Any], now: float) -> Change:
        """One of the host's commands (`holdem.server.home.COMMANDS`)."""
        if self.home is None:
            raise RefusedError("this table has no host")
        return self.home.command(self, data, now)

    def say(self, seat: int, text: Any, now: float) -> Change:
        """A chat message from the player in `seat` (`Chat.say` checks it)."""
        member = self.members.get(seat)
        if member is None:
            raise RequestError("only a seated player can chat")
        self.chat.say(seat, member.name, text, now, person_id(member.digest))
        return Change()

    def show(self, seat: int, number: Any) -> Change:
        """The player in `seat` shows their cards of the hand just finished (they won without a
        showdown, or mucked): everyone sees them, in the chat and with the last hand."""
        last, member = self.last_hand, self.members.get(seat)
        if last is None or type(number) is not int or number != last.number:
            raise RequestError(f"only the last hand's cards can be shown, hand {last and last.number}")
        seen = last.view_for(seat, member.digest if member is not None else None)
        if member is None or seen is None:
            raise RequestError(f"you were not dealt into hand {number}")
        if seat in last.shown:
            raise RequestError(f"your cards of hand {number} are shown already")
        cards = tuple(str(card) for card in seen.hole)
        last.shown[seat] = cards
        self.chat.post(seat, member.name, f"shows {' '.join(cards)}", cards, person_id(member.digest))
        return Change()

    def check_join(self, name: Any, buy_in: Any, seat: Any) -> tuple[str, int]:
        """The name and seat of a request to sit with `buy_in`, checked (`RequestError` if refused)."""
        if self.tournament is not None:
            raise RefusedError(f"a table of tournament {self.tournament}: enter the tournament instead")
        if self.home is not None and self.home.ended:
            raise RefusedError("this game has ended")
        name = player_name(name)
        asking = self.home.pending.values() if self.home is not None else ()
        held = [m.name for m in [*self.members.values(), *asking] if m.name.casefold() == name.casefold()]
        if held:  # names are compared without case
            raise RefusedError(f"{held[0]!r} is already at this table")
        check_lookalike(name, self.names_seen(), "at this table or lately")
        self._check_buy_in(buy_in, 0)
        free = self.free_seats()
        if seat is None:
            if not free:
                raise RefusedError(f"table {self.id} is full")
            return name, free[0]
        if type(seat) is not int or not 0 <= seat < self.config.seats:
            raise RequestError(f"seat must be 0..{self.config.seats - 1}, got {seat!r}")
        if seat not in free:
            raise RefusedError(f"seat {seat} is taken")
        return name, seat

    def names_seen(self) -> set[str]:
        """The names seated, asking for a seat, in the last hand, in the chat kept, and (at a home
        game) of everyone who has sat: those a newcomer's name must not look like."""
        names = {m.name for m in self.members.values()}
        if self.home is not None:
            names |= {p.name for p in self.home.pending.values()} | set(self.home.players.values())
        names |= {line.name for line in self.chat.lines}
        if self.last_hand is not None:
            names |= {end.name for end in self.last_hand.ends.values()}
        return names

    def free_seats(self) -> list[int]:
        """Seats nobody holds or has asked for."""
        asked = self.home.pending if self.home is not None else {}
        return [s for s in range(self.config.seats) if s not in self.members and s not in asked]

    def admit(self, seat: int, name: str, buy_in: int, digest: str, now: float) -> Change:
        """Seat a checked player (`check_join`) whose token has `digest`."""
        member = Member(name, digest, float(self.config.time_bank_seconds))
        change = Change()
        self.members[seat] = member
        self._ledger(change, seat, "buy_in", buy_in)
        if self.home is not None:
            self.home.note_player(digest, name)
        if self.table.hand is None:
            self.table.sit(seat, name, buy_in)
        else:
            member.joining = buy_in
        self._start(now, change)
        return change

    def leave(self, seat: int, now: float) -> Change:
        """Leave now between hands, else when the hand ends; the chips are cashed out."""
        member = self._member(seat)
        if self.tournament is not None:
            raise RefusedError("a tournament's player cannot leave the table")
        change = Change()
        if self.table.hand is not None and self.table.seats[seat] is not None:
            member.leaving = True
            return change
        self._cash_out(change, seat)
        self._start(now, change)
        return change

    def rebuy(self, seat: int, amount: Any, now: float) -> Change:
        """Add chips, up to the maximum buy-in; they arrive now, or when the hand ends if dealt in."""
        member = self._member(seat)
        place = self.table.seats[seat]
        stack = self.held(seat)
        self._check_buy_in(amount, stack, "amount")
        change = Change()
        self._ledger(change, seat, "rebuy", amount)
        if place is None:
            member.joining += amount  # not seated yet: arrives with the buy-in
        elif self.table.hand is None:
            self.table.add_chips(seat, amount)
        else:
            member.rebuy += amount  # the table takes chips only between hands
        self._start(now, change)
        return change

    def sit_out(self, seat: int) -> Change:
        """Sit out from the next hand on; refused when already out (nothing to store or send)."""
        member = self._member(seat)
        place = self.table.seats[seat]
        if place.sitting_out if place is not None else member.away:
            raise RequestError("you are already sitting out")
        if place is not None:
            self.table.sit_out(seat)
        else:
            member.away = True
        return Change()

    def sit_in(self, seat: int, post: Any, now: float) -> Change:
        """Come back in: post the missed blinds now (`post`), or wait for the big blind (rule 3)."""
        member = self._member(seat)
        if not isinstance(post, bool):
            raise RequestError(f"post must be true or false, got {post!r}")
        place = self.table.seats[seat]
        before = (member.away, attrs.astuple(place) if place is not None else None)
        member.away = False
        if place is not None:
            self.table.sit_in(seat, post_missed=post)
        if before == (member.away, attrs.astuple(place) if place is not None else None):
            raise RequestError("you are already sitting in")  # nothing changed: nothing to store or send
        change = Change()
        self._start(now, change)
        return change

    def act(self, seat: int, number: Any, action: Action, now: float, steps: Any = None) -> Change:
        """The player in `seat` acts in hand `number` after `steps` actions (None: any); both guard
        against stale actions."""
        hand = self.table.hand
        if hand is None:
            raise RequestError("no hand is in progress")
        if type(number) is not int or number != self.number:
            raise RequestError(f"stale action: hand {number!r} is over, this is hand {self.number}")
        if steps is not None and (type(steps) is not int or steps != len(hand.history)):
            raise RequestError(f"stale action: step {steps!r} is over, this is step {len(hand.history)}")
        player = self.table.player_at(seat)
        if player is None:
            raise RequestError(f"seat {seat} is not in hand {self.number}")
        if hand.actor != player:
            raise RequestError(f"not your turn: seat {self.actor_seat()} is to act")
        if self.home is not None and self.home.paused:
            raise RequestError("the host has paused the game")
        try:
            hand.act(action, player)
        except HoldemError as error:
            raise RequestError(str(error)) from None
        member = self.members[seat]
        overtime = now - self.turn_started - self.config.action_seconds
        member.bank = max(0.0, member.bank - max(0.0, overtime))
        return self._after_action(now)

    def expire(self, now: float, away: Collection[int] = ()) -> Change | None:
        """If the player to act is out of time (`clock`): check or fold for them and sit them out."""
        clock = self.clock(now, away)
        hand = self.table.hand
        if clock is None or hand is None or clock[1] > 0 or clock[2] > 0:
            return None
        seat = clock[0]
        legal = hand.legal_actions()
        assert legal is not None  # someone is to act
        hand.act(check_or_fold(legal), legal.player)
        if self.tournament is not None or seat not in away:
            self.members[seat].bank = 0.0  # spent
        if self.tournament is None:  # a tournament player stays dealt in, and is blinded off
            self.table.sit_out(seat)
        return self._after_action(now)

    def resume(self, now: float) -> Change | None:
        """Deal a hand if none is in progress and two players are in (after a restart)."""
        if self.table.hand is not None:
            return None
        change = Change()
        self._start(now, change)
        return None if self.table.hand is None and not change.hands else change

    # ------------------------------------------------------------ transitions
    def _after_action(self, now: float) -> Change:
        change = Change()
        hand = self.table.hand
        if hand is not None and hand.is_complete:
            self._finish(change)
            self._start(now, change)
        self._new_turn(now)
        return change

    def _document(self, hand: Hand) -> dict[str, Any]:
        """The finished hand as PHH stores it: the table, hand number, seats, names, and the date and
        time it ended (UTC), which trackers and players need."""
        seats = self.table.hand_seats
        ended = datetime.datetime.now(datetime.UTC)
        return phh.export(hand) | {
            "table": self.id,
            "hand": self.number,
            "seats": [s + 1 for s in seats],
            "seat_count": self.config.seats,
            "players": [self.members[s].name for s in seats],
            "year": ended.year,
            "month": ended.month,
            "day": ended.day,
            "time": ended.strftime("%H:%M:%S"),
            "time_zone": "UTC",
        }

    def _finish(self, change: Change) -> None:
        """Record the finished hand, bring the stacks back, and apply leaves, joins and rebuys."""
        hand = self.table.hand
        assert hand is not None and hand.is_complete and hand.result is not None
        seats = self.table.hand_seats
        digests = tuple(self.members[s].digest for s in seats)
        change.hands.append(StoredHand(self.number, phh.dumps(self._document(hand)), digests))
        # Each seat's own view of the hand as it ended goes to that seat alone (a bot's `end_hand`), kept
        # with the member's token digest: a player who takes the seat later, under any name, never gets it.
        players = {s: (self.members[s].name, self.members[s].digest) for s in seats}
        self.last_hand = LastHand.of(hand, self.number, seats, players)
        starting = dict(zip(seats, hand.starting_stacks, strict=True))
        self.table.end_hand()
        self.busted = [(self.members.pop(s).name, starting[s]) for s in seats if self.table.seats[s] is None]
        for seat, member in list(self.members.items()):
            if member.leaving or (self.home is not None and self.home.ended):
                self._cash_out(change, seat)
                continue
            if member.joining:
                self.table.sit(seat, member.name, member.joining)
                member.joining = 0
                if member.away:
                    self.table.sit_out(seat)
                    member.away = False
            if member.rebuy:
                self.table.add_chips(seat, member.rebuy)
                member.rebuy = 0

    def deal(self, now: float, stakes: Stakes, change: Change) -> bool:
        """A tournament's next hand at `stakes`, if two players are in; whether one was dealt (a hand
        that the blinds alone decide is over at once, recorded in `change`)."""
        self.table.stakes = stakes
        try:
            hand = self.table.start_hand()
        except TableError:
            return False
        self.number += 1
        if hand.is_complete:
            self._finish(change)
        self._new_turn(now)
        return True

    def _start(self, now: float, change: Change) -> None:
        """Deal the next hand if none is in progress and two players are in. A hand that the blinds
        alone decide (every player all-in or out after posting) is over at once: record it, deal on.
        At a tournament's table the director deals instead."""
        home = self.home
        if self.tournament is not None or (home is not None and (home.paused or home.ended)):
            self._new_turn(now)
            return
        blinds = home.take_blinds() if home is not None and self.table.hand is None else None
        if blinds is not None:  # the host's new blinds
            small, big, ante = blinds
            self.config = attrs.evolve(self.config, small_blind=small, big_blind=big, ante=ante)
            self.table.stakes = self._stakes()
        while self.table.hand is None:
            try:
                hand = self.table.start_hand()
            except TableError:
                break  # fewer than two players with chips are in
            self.number += 1
            if hand.is_complete:
                self._finish(change)
        self._new_turn(now)

    def _new_turn(self, now: float) -> None:
        hand = self.table.hand
        turn = None if hand is None or hand.actor is None else (self.number, len(hand.history))
        if turn != self.turn:
            self.turn, self.turn_started = turn, now

    def _cash_out(self, change: Change, seat: int) -> None:
        member = self.members[seat]
        place = self.table.leave(seat) if self.table.seats[seat] is not None else None
        chips = (place.stack if place is not None else 0) + member.joining + member.rebuy
        self._ledger(change, seat, "cash_out", chips)
        del self.members[seat]

    def _ledger(self, change: Change, seat: int, kind: str, chips: int) -> None:
        """A chip movement of the member in `seat`, kept with their name and their person."""
        member = self.members[seat]
        self.ledger_seq += 1
        row = LedgerRow(self.ledger_seq, self.number, seat, member.name, kind, chips, member.digest)
        change.ledger.append(row)

    def _member(self, seat: int) -> Member:
        member = self.members.get(seat)
        if member is None:
            raise NotFoundError(f"seat {seat} is empty")
        return member

    def buy_in_range(self, stack: int) -> tuple[int, int]:
        """The fewest and most chips a player holding `stack` (with what is on its way) may add."""
        return max(self.config.min_buy_in - stack, 1), self.config.max_buy_in - stack

    def held(self, seat: int) -> int:
        """The chips of the player in `seat` as a rebuy counts them: the seat's stack as the hand in
        progress began, and the chips on their way."""
        member, place = self.members[seat], self.table.seats[seat]
        return (place.stack if place is not None else 0) + member.joining + member.rebuy

    def _check_buy_in(self, amount: Any, stack: int, field: str = "buy_in") -> None:
        """`amount` more chips for a player holding `stack` (with what is on its way): within the table's
        buy-in range, with the field and the range named when not."""
        high = self.config.max_buy_in
        least, most = self.buy_in_range(stack)
        if most < 1:
            raise RequestError(f"{field}: you have {stack} chips, the most this table allows ({high})")
        if type(amount) is not int or not least <= amount <= most:
            have = f" (you have {stack})" if stack else ""
            raise RequestError(
                f"{field} must be a whole number of chips from {least} to {most}{have}, got {amount!r}"
            )

    # ------------------------------------------------------------ storing
    def to_dict(self) -> dict[str, Any]:
        """The whole room as JSON-ready data (the deck order included: it never leaves the server)."""
        last = self.last_hand.to_dict() if self.last_hand is not None else None
        return {
            "format": FORMAT,
            "id": self.id,
            "config": self.config.to_dict(),
            "table": json.loads(table_to_json(self.table)),
            "members": {str(s): _member_dict(m) for s, m in self.members.items()},
            "number": self.number,
            "ledger_seq": self.ledger_seq,
            "last_hand": last[0] if last is not None else None,
            "last_views": last[1] if last is not None else {},
            "tournament": self.tournament,
            "home": self.home.to_dict() if self.home is not None else None,
        } | self.chat.to_dict()

    @classmethod
    def from_dict(cls, data: dict[str, Any], now: float) -> Room:
        """A room stored by `to_dict`; the player to act gets a fresh decision clock."""
        if data.get("format") != FORMAT:
            raise SnapshotError(f"not a stored room: format {data.get('format')!r:.40}, expected {FORMAT!r}")
        room = cls(data["id"], table_config(data["config"]), data.get("tournament"))
        room.table = table_from_json(json.dumps(data["table"]))
        room.members = {int(s): _member(m) for s, m in data["members"].items()}
        room.number, room.ledger_seq = data["number"], data["ledger_seq"]
        if data["last_hand"] is not None:
            room.last_hand = LastHand.from_dict(data["last_hand"], data.get("last_views", {}))
        room.home = Home.from_dict(data["home"]) if data.get("home") else None
        room.chat = Chat.from_dict(data)
        room._new_turn(now)
        return room


def _account(people: dict[str, dict[str, Any]], digest: str, name: str) -> dict[str, Any]:
    """The settle-up line of the person with `digest`; rows stored before persons were kept ("")
    are one person per name, as they were then, and so is a seated player who bought in then."""
    if not digest or (digest not in people and f"name {name.casefold()}" in people):
        digest = f"name {name.casefold()}"
    return people.setdefault(
        digest,
        {"name": name, "person": person_id(digest), "bought": 0, "cashed": 0, "on_table": 0, "left_at": None},
    )


HOST_LINE = "the host (for their bots)"
"""The settle-up's line for the chips of the bots a host seated."""


def _host_line(bots: list[dict[str, Any]]) -> dict[str, Any]:
    """The host's line: what their bots bought, cashed and hold, with the bots' names."""
    line: dict[str, Any] = {"name": HOST_LINE, "person": "", "left_at": None}
    for key in ("bought", "cashed", "on_table"):
        line[key] = sum(bot[key] for bot in bots)
    line["bots"] = sorted(bot["name"] for bot in bots)
    return line


def _labelled(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines with names told apart where two people used one name (compared without case): the
    latest to hold it (the one seated, if any) keeps the name; each earlier one who left is "Ann (left
    at hand 9)"."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_name.setdefault(entry["name"].casefold(), []).append(entry)
    for same in by_name.values():
        latest = max(same, key=lambda e: e["_last"])
        for entry in same:
            if entry is not latest and entry["left_at"] is not None:
                entry["name"] = f"{entry['name']} (left at hand {entry['left_at']})"
        labels = [entry["name"] for entry in same]
        for k, entry in enumerate(same):
            if labels.count(entry["name"]) > 1:  # left at the same hand: numbered in the order they came
                entry["name"] = f"{entry['name']} #{k + 1}"
    for entry in entries:
        del entry["_last"]
    return entries


def _member_dict(member: Member) -> dict[str, Any]:
    """A member as stored; the digest under the key "token", as rooms have always been stored."""
    data = attrs.asdict(member)
    data["token"] = data.pop("digest")
    return data


def _member(data: dict[str, Any]) -> Member:
    fields = dict(data)
    return Member(digest=fields.pop("token"), **fields)
