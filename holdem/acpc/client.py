"""An ACPC client: any `holdem` bot plays through a dealer that speaks protocol 2.0.0.

It connects, sends ``VERSION:2.0.0``, and answers every match state in which it is to act with
that state, ``:`` and an action, until the dealer closes the connection. Each state is replayed in
the engine under the game's rules, so the bot sees a `SeatView` as in any other match, and its
answer is checked before it is sent: a bot that raises, returns an illegal action or runs past the
time limit is answered for with the fallback (check when free, else fold) and counted.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Callable

import attrs

from holdem.acpc.bridge import betting_of, hand_from_state, values
from holdem.acpc.gamedef import GameDef
from holdem.acpc.protocol import ProtocolError, format_moves, parse_match_state
from holdem.bots import Bot
from holdem.decide import decide
from holdem.errors import HoldemError

__all__ = ["ClientError", "ClientSummary", "play_acpc"]


class ClientError(HoldemError):
    """The dealer could not be reached or sent something that is not a match state of the game."""


@attrs.frozen
class ClientSummary:
    """A finished session: hands completed, chips won in total, and the bot's answers replaced."""

    hands: int
    chips: float
    replaced: int
    reasons: tuple[str, ...]


def play_acpc(
    host: str,
    port: int,
    bot: Bot,
    game: GameDef,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    connect_seconds: float = 10.0,
    on_hand: Callable[[int, float], None] | None = None,
) -> ClientSummary:
    """Play `bot` at the dealer on `host`:`port` until it closes the connection."""
    set_random = getattr(bot, "set_random", None)
    if set_random is not None and seed is not None:
        set_random(random.Random(seed))
    try:
        conn = socket.create_connection((host, port), timeout=connect_seconds)
    except OSError as error:
        raise ClientError(f"cannot connect to an ACPC dealer at {host}:{port}: {error}") from None
    conn.settimeout(None)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    hands, chips, replaced, reasons = 0, 0.0, 0, list[str]()
    with conn, conn.makefile("rb") as reader:
        conn.sendall(b"VERSION:2.0.0\r\n")
        for raw in reader:
            line = raw.decode("ascii", "replace").rstrip("\r\n")
            if not line or line.startswith(("#", ";")):
                continue
            try:
                state = parse_match_state(line, game)
                hand = hand_from_state(state, game)
            except ProtocolError as error:
                raise ClientError(f"the dealer sent {line[:80]!r}: {error}") from None
            if hand.is_complete:
                hands += 1
                won = values(hand)[state.position]
                chips += won
                if on_hand is not None:
                    on_hand(state.hand, won)
                continue
            if hand.actor != state.position:
                continue
            _, fault = decide(bot, hand, time_limit)
            if fault is not None:
                replaced += 1
                if len(reasons) < 10:
                    reasons.append(f"hand {state.hand}: {fault[0]}")
            moves = [move for round_moves in betting_of(hand) for move in round_moves]
            answer = format_moves(((moves[-1],),))
            conn.sendall(f"{line}:{answer}\r\n".encode("ascii"))
    return ClientSummary(hands, chips, replaced, tuple(reasons))
