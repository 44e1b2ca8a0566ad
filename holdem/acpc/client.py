"""An ACPC client: any `holdem` bot plays through a dealer that speaks protocol 2.0.0.

It connects, sends ``VERSION:2.0.0``, and answers every match state in which it is to act with
that state, ``:`` and an action, until the dealer closes the connection. Each state is replayed in
the engine under the game's rules, so the bot sees a `SeatView` as in any other match, and its
answer is checked before it is sent: a bot that raises, returns an illegal action or runs past the
time limit is answered for with the fallback (check when free, else fold) and counted. The bot's
hooks are called as everywhere (`holdem.bots.decide`): ``start_hand`` at the first state of each hand,
``end_hand`` at its last, with the result as the seat sees it.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Callable

import attrs

from holdem.acpc.bridge import betting_of, hand_from_state, values
from holdem.acpc.gamedef import GameDef
from holdem.acpc.protocol import format_moves, parse_match_state
from holdem.bots import Bot
from holdem.bots.decide import Hooks, decide
from holdem.errors import ClientError, ProtocolError

__all__ = ["ClientSummary", "play_acpc"]


@attrs.frozen
class ClientSummary:
    """A finished session: hands completed, chips won in total, the bot's answers replaced, the first
    ten faults' reasons, and every fault (answers replaced and hooks that failed) counted."""

    hands: int
    chips: float
    replaced: int
    reasons: tuple[str, ...]
    faults: int = 0


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
    hooks, faults = Hooks(bot), list[str]()  # the life cycle of `holdem.bots.decide`

    def fault(hand_number: int | None, found: tuple[str, str | None] | None) -> None:
        if found is not None:
            faults.append(found[0] if hand_number is None else f"hand {hand_number}: {found[0]}")

    fault(None, hooks.seed(random.Random(seed)))
    try:
        conn = socket.create_connection((host, port), timeout=connect_seconds)
    except OSError as error:
        raise ClientError(f"cannot connect to an ACPC dealer at {host}:{port}: {error}") from None
    conn.settimeout(None)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    hands, chips, replaced, current = 0, 0.0, 0, None
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
            if state.hand != current:  # the first state of a hand: it begins
                current = state.hand
                fault(current, hooks.meet_players(_names(len(hand.stacks), state.position)))
                fault(current, hooks.start(hand, state.position))
            if hand.is_complete:
                hands += 1
                won = values(hand)[state.position]
                chips += won
                fault(current, hooks.end(hand, state.position))
                if on_hand is not None:
                    on_hand(state.hand, won)
                continue
            if hand.actor != state.position:
                continue
            _, answered = decide(bot, hand, time_limit)
            if answered is not None:
                replaced += 1
                fault(current, answered)
            moves = [move for round_moves in betting_of(hand) for move in round_moves]
            answer = format_moves(((moves[-1],),))
            conn.sendall(f"{line}:{answer}\r\n".encode("ascii"))
    return ClientSummary(hands, chips, replaced, tuple(faults[:10]), len(faults))


def _names(players: int, me: int) -> tuple[str, ...]:
    """The protocol names nobody: each player is named by their seat relative to this client's
    ("+1" the next), which stays theirs as the seats rotate from hand to hand."""
    return tuple(f"+{(p - me) % players}" for p in range(players))
