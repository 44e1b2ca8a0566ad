"""An ACPC dealer with the reference dealer's command line, messages, log and scores.

``holdem acpc dealer MATCH GAME HANDS SEED NAME...`` opens one port per player, prints the ports
on its first line, waits for each player in turn (``VERSION:2.0.0``), and deals HANDS hands with
the seats rotating one place each hand. Every player gets its view (``MATCHSTATE:...``) after every
action; the player to act answers with that line, ``:`` and its action. As the reference dealer
does, replies that are not about the current state are ignored, an unreadable action or an invalid
one is played as a call (and counted), a too-small or too-large no-limit raise is moved to the
nearest legal size, and a player who disconnects or runs out of time ends the match with an error.
Cards come from the reference's generator (MT19937 seeded with SEED) in the reference's order, so a
seed deals the same cards. ``MATCH.log`` holds a ``STATE:`` line per hand with each position's
value and name, then the ``SCORE:`` line, which is also printed.
"""

from __future__ import annotations

import random
import socket
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from holdem.acpc.bridge import engine_action, start_hand, state_of, values
from holdem.acpc.gamedef import GameDef
from holdem.acpc.protocol import MatchState, parse_match_state, parse_moves
from holdem.cards.card import CARDS, Card
from holdem.cards.deck import Deck
from holdem.errors import DealerError, HoldemError, ProtocolError
from holdem.hand.actions import Action
from holdem.hand.state import Hand

__all__ = ["acpc_generator", "deal", "format_value", "run_dealer"]


def acpc_generator(seed: int) -> random.Random:
    """A `random.Random` in the state of the reference dealer's MT19937 after ``init_genrand(seed)``
    (its ``getrandbits(32)`` is the reference's ``genrand_int32``)."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & 0xFFFFFFFF)
    rng = random.Random()
    rng.setstate((3, (*state, 624), None))
    return rng


_ACPC_DECK: tuple[Card, ...] = tuple(
    next(c for c in CARDS if str(c) == rank + suit) for suit in "cdhs" for rank in "23456789TJQKA"
)  # the reference's deck order: by suit, then by rank


def deal(rng: random.Random, players: int) -> tuple[list[list[Card]], list[Card]]:
    """Hole cards per position and the five board cards, drawn as the reference dealer draws them."""
    deck = list(_ACPC_DECK)
    count = len(deck)

    def draw() -> Card:
        nonlocal count
        i = rng.getrandbits(32) % count
        card = deck[i]
        deck[i] = deck[count - 1]
        count -= 1
        return card

    holes = [[draw(), draw()] for _ in range(players)]
    board = [draw() for _ in range(5)]
    return holes, board


def format_value(value: float) -> str:
    """A value as the reference writes it: six decimals, trailing zeros and point removed."""
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


class _Seat:
    """One connected player: its socket and a line reader with a deadline."""

    def __init__(self, conn: socket.socket, number: int) -> None:
        self.conn, self.number, self.buffer = conn, number, b""

    def send(self, line: str) -> None:
        try:
            self.conn.sendall(line.encode("ascii") + b"\r\n")
        except OSError as error:
            raise DealerError(f"could not send to seat {self.number}: {error}") from None

    def read_line(self, seconds: float | None) -> str:
        deadline = None if seconds is None else time.monotonic() + seconds
        while b"\n" not in self.buffer:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DealerError(f"seat {self.number} ran out of time")
                self.conn.settimeout(left)
            try:
                chunk = self.conn.recv(4096)
            except TimeoutError:
                raise DealerError(f"seat {self.number} ran out of time") from None
            except OSError as error:
                raise DealerError(f"could not read from seat {self.number}: {error}") from None
            if not chunk:
                raise DealerError(f"seat {self.number} closed the connection")
            self.buffer += chunk
            if len(self.buffer) > 1 << 16:
                raise DealerError(f"seat {self.number} sent a line over 64 KiB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("ascii", "replace").rstrip("\r")


def run_dealer(
    match_name: str,
    game: GameDef,
    game_name: str,
    hands: int,
    seed: int,
    names: Sequence[str],
    *,
    ports: Sequence[int] = (),
    host: str = "127.0.0.1",
    response_seconds: float = 600.0,
    start_seconds: float | None = None,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    quiet: bool = True,
) -> list[float]:
    """Run a match; returns each seat's total (seat order). Raises `DealerError` if it cannot finish."""
    n = game.num_players
    if len(names) != n:
        raise DealerError(f"the game has {n} players; got {len(names)} names")
    listeners = []
    try:
        for p in range(n):
            port = ports[p] if p < len(ports) else 0
            try:
                listeners.append(socket.create_server((host, port)))
            except OSError as error:
                raise DealerError(f"could not listen on port {port}: {error}") from None
        print(" ".join(str(s.getsockname()[1]) for s in listeners), file=out, flush=True)
        header = (
            f"# name/game/hands/seed {match_name} {game_name} {hands} {seed}\n"
            f"#--t_response {int(response_seconds * 1000)}\n"
        )
        err.write(header)
        with open(f"{match_name}.log", "w", encoding="ascii") as log:
            log.write(header)
            seats = []
            for p, listener in enumerate(listeners):
                listener.settimeout(start_seconds)
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    raise DealerError(f"no player connected to seat {p + 1} in time") from None
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                seats.append(_Seat(conn, p + 1))
            try:
                for seat in seats:
                    _check_version(seat)
                totals = _play(game, hands, seed, names, seats, log, response_seconds, err, quiet)
            finally:
                for seat in seats:
                    seat.conn.close()
            score = "SCORE:" + "|".join(map(format_value, totals)) + ":" + "|".join(names)
            log.write(score + "\n")
        print(score, file=out, flush=True)
        err.write(score + "\n")
        return totals
    finally:
        for listener in listeners:
            listener.close()


def _check_version(seat: _Seat) -> None:
    line = seat.read_line(None)
    parts = line.removeprefix("VERSION:").split(".") if line.startswith("VERSION:") else []
    if len(parts) != 3 or not all(part.isdecimal() for part in parts):
        raise DealerError(f"seat {seat.number} sent {line[:40]!r}, not a VERSION:2.0.0 handshake")
    if int(parts[0]) != 2:
        err = f"seat {seat.number} speaks protocol version {parts[0]}; this dealer speaks 2.0.0"
        raise DealerError(err)


def _play(
    game: GameDef,
    hands: int,
    seed: int,
    names: Sequence[str],
    seats: list[_Seat],
    log: TextIO,
    response_seconds: float,
    err: TextIO,
    quiet: bool,
) -> list[float]:
    n = game.num_players
    rng = acpc_generator(seed)
    totals = [0.0] * n
    invalid = [0] * n
    for number in range(hands):
        holes, board = deal(rng, n)
        hand = start_hand(game, Deck.for_hand(holes, board))
        seat_of = [(p + number) % n for p in range(n)]  # position p sits at seat (p + hand) mod n
        while hand.actor is not None:
            for p in range(n):
                state = state_of(hand, p, number)
                seats[seat_of[p]].send(str(state))
            actor = hand.actor
            state = state_of(hand, actor, number)
            seat = seats[seat_of[actor]]
            action, bad = _read_action(seat, state, hand, game, response_seconds, err, quiet)
            invalid[seat_of[actor]] += bad
            hand.act(action)
        result = values(hand)
        for p in range(n):
            totals[seat_of[p]] += result[p]
        line = state_of(hand, 0, number, show_all=True).log_line()
        line += (
            ":" + "|".join(map(format_value, result)) + ":" + "|".join(names[seat_of[p]] for p in range(n))
        )
        log.write(line + "\n")
        log.flush()
        for p in range(n):
            seats[seat_of[p]].send(str(state_of(hand, p, number)))
    if any(invalid):
        err.write(f"invalid actions played as calls, by seat: {' '.join(map(str, invalid))}\n")
    return totals


def _read_action(
    seat: _Seat, state: MatchState, hand: Hand, game: GameDef, seconds: float, err: TextIO, quiet: bool
) -> tuple[Action, int]:
    """The acting seat's action, and 1 if its reply was replaced by a call (0 otherwise)."""
    started = time.monotonic()
    while True:
        left = seconds - (time.monotonic() - started)
        line = seat.read_line(max(left, 0.0))
        if not quiet:
            err.write(f"FROM {seat.number} {line}\n")
        if line.startswith(("#", ";")):
            continue
        head, sep, answer = line.rpartition(":")
        try:
            replied = parse_match_state(head, game)
        except ProtocolError:
            err.write(f"WARNING: bad state format in response from seat {seat.number}\n")
            continue
        if replied != state:
            err.write(f"WARNING: ignoring un-requested response from seat {seat.number}\n")
            continue
        try:
            moves = parse_moves(answer, game)
            if not sep or len(moves) != 1 or len(moves[0]) != 1:
                raise ProtocolError(f"one action expected, got {answer!r}")
            action = engine_action(hand, moves[0][0])
        except (ProtocolError, HoldemError):
            err.write(f"WARNING: bad action format in response from seat {seat.number}, changed to call\n")
            return _call(hand), 1
        legal = hand.legal_actions()
        assert legal is not None
        if action.amount is not None and legal.min_raise_to is not None and legal.max_raise_to is not None:
            fixed = min(max(action.amount, legal.min_raise_to), legal.max_raise_to)  # the reference's fix
            action = Action.raise_to(fixed)
        if hand.is_legal(action):
            return action, 0
        err.write(f"WARNING: invalid action from seat {seat.number}, changed to call\n")
        return _call(hand), 1


def _call(hand: Hand) -> Action:
    legal = hand.legal_actions()
    return Action.check() if legal is not None and legal.can_check else Action.call()
