"""The hand a table finished last, as typed values: what everyone saw at its end (the board, the hands
shown down and after, the chips won, the stacks after the payout, the log, the result), and each
seat's own view of it, kept with that seat's token digest so that only its player is ever sent it.
Turned into JSON only at the edge: `public` for every reader, `to_dict` for storage (the two keys a
stored room has always had, ``last_hand`` and ``last_views``).
"""

from __future__ import annotations

from typing import Any

import attrs

from holdem.cards.evaluator import evaluate
from holdem.hand.events import HandResult
from holdem.hand.state import Hand
from holdem.hand.views import SeatView
from holdem.server.handlog import hand_log

__all__ = ["LastHand", "SeatEnd"]


@attrs.frozen
class SeatEnd:
    """One seat's end of the hand: the player's name, their token's digest, and their own view."""

    name: str
    digest: str
    view: SeatView


@attrs.define
class LastHand:
    """The last finished hand of a table. `seats` are the seats dealt in, in hand order (the result's
    players); the maps are by seat. `shown` grows when a player shows their cards after the hand."""

    number: int
    seats: tuple[int, ...]
    board: tuple[str, ...]
    second_board: tuple[str, ...]  # rule 32: a hand run twice
    shown: dict[int, tuple[str, ...]]
    won: dict[int, int]
    names: dict[int, str]  # each hand shown down with a full board, named
    second_names: dict[int, str]
    stacks: dict[int, int]  # after the payout
    log: list[dict[str, Any]]
    result: HandResult
    ends: dict[int, SeatEnd]

    @classmethod
    def of(
        cls, hand: Hand, number: int, seats: tuple[int, ...], players: dict[int, tuple[str, str]]
    ) -> LastHand:
        """The finished `hand`, numbered `number`, dealt to `seats`; `players`: each seat's (name,
        token digest)."""
        assert hand.result is not None
        down = {s: cards for s, cards in zip(seats, hand.result.shown, strict=True) if cards}
        board, second = hand.board, hand.second_board
        return cls(
            number=number,
            seats=seats,
            board=tuple(map(str, board)),
            second_board=tuple(map(str, second)),
            shown={s: tuple(map(str, cards)) for s, cards in down.items()},
            won={s: won for s, won in zip(seats, hand.result.payouts, strict=True) if won},
            names={s: evaluate([*c, *board]).describe() for s, c in down.items() if len(board) == 5},
            second_names={s: evaluate([*c, *second]).describe() for s, c in down.items() if second},
            stacks=dict(zip(seats, hand.stacks, strict=True)),
            log=hand_log(hand, seats),
            result=hand.result,
            ends={s: SeatEnd(*players[s], hand.view(k)) for k, s in enumerate(seats)},
        )

    def view_for(self, seat: int | None, digest: str | None) -> SeatView | None:
        """The seat's own view of the hand, to the player whose token (by its digest) dealt them in."""
        end = self.ends.get(seat) if seat is not None else None
        return end.view if end is not None and digest is not None and end.digest == digest else None

    def public(self) -> dict[str, Any]:
        """What every reader is sent (`holdem/docs/protocol.md`, ``last_hand``)."""
        return {
            "number": self.number,
            "board": list(self.board),
            "shown": {str(s): list(cards) for s, cards in self.shown.items()},
            "won": _keyed(self.won),
            "names": _keyed(self.names),
            "second_board": list(self.second_board),
            "second_names": _keyed(self.second_names),
            "stacks": _keyed(self.stacks),
            "log": self.log,
            "seats": list(self.seats),
            "result": self.result.to_dict(),
        }

    def to_dict(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The stored form: (``last_hand``, ``last_views``)."""
        ends = self.ends.items()
        return self.public(), {
            str(s): {"name": e.name, "token": e.digest, "view": e.view.to_dict()} for s, e in ends
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], views: dict[str, Any]) -> LastHand:
        """A last hand stored by `to_dict`."""
        return cls(
            number=int(data["number"]),
            seats=tuple(data["seats"]),
            board=tuple(data["board"]),
            second_board=tuple(data.get("second_board", ())),
            shown={int(s): tuple(cards) for s, cards in data["shown"].items()},
            won=_seated(data["won"]),
            names=_seated(data.get("names", {})),
            second_names=_seated(data.get("second_names", {})),
            stacks=_seated(data["stacks"]),
            log=list(data["log"]),
            result=HandResult.from_dict(data["result"]),
            ends={int(s): _end(e) for s, e in views.items()},
        )


def _keyed(values: dict[int, Any]) -> dict[str, Any]:
    """A map by seat as JSON writes it (keys are strings)."""
    return {str(seat): value for seat, value in values.items()}


def _seated(values: dict[str, Any]) -> dict[int, Any]:
    return {int(seat): value for seat, value in values.items()}


def _end(data: dict[str, Any]) -> SeatEnd:
    """A stored seat's end; one stored before tokens were kept matches no token."""
    return SeatEnd(str(data["name"]), str(data.get("token", "")), SeatView.from_dict(data["view"]))
