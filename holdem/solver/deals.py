"""The cards the dealer may still turn, as arrays: one row (a "deal") per way the board can run.

Level 0 is the spot's own board (one deal); each later level adds one card to every deal of the
level before, in card order, so a level's deals are its parent's deals times the cards left, and
the children of parent deal ``d`` are the rows ``d * k`` to ``d * k + k - 1``. A hand that holds a
dealt card has no weight in that deal (`Deals.live`).

A dealt card's chance is exact: given both players' hands, the next card is one of the cards
neither hand nor the board holds (44 of them on the river when the turn is known, 45 on the turn),
so a chance node divides by that count, not by the cards left in the deck.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from holdem.cards.batch import strengths_of

__all__ = ["Deals", "deal"]


@attrs.frozen
class Deals:
    """The deals of every level and each player's live hands in them.

    `cards[level]` is a (deals, level) array of the cards turned; `live[level][player]` a (deals,
    hands) 0/1 array; `fanout[level]` the cards turned from each deal of `level`; `outs[level]` the
    divisor of a chance node at `level`; `strengths[player]` the (deals, hands) strength of each
    hand on each final board (0 where the hand is not live).
    """

    cards: tuple[npt.NDArray[np.int8], ...]
    live: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...]
    fanout: tuple[int, ...]
    outs: tuple[int, ...]
    strengths: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]

    @property
    def last(self) -> int:
        """The level of the complete board."""
        return len(self.cards) - 1

    def size(self, level: int) -> int:
        """How many deals `level` has."""
        return len(self.cards[level])


def _next_level(board: set[int], cards: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Every deal of a level followed by each card that is neither on the board nor already dealt."""
    rows = []
    for row in cards:
        taken = board | {int(c) for c in row}
        for card in range(52):
            if card not in taken:
                rows.append((*row.tolist(), card))
    return np.array(rows, dtype=np.int8).reshape(len(rows), cards.shape[1] + 1)


def _live(hands: npt.NDArray[np.int8], dealt: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    if dealt.shape[1] == 0:
        return np.ones((1, len(hands)), dtype=np.float32)
    clash = (hands[None, :, :, None] == dealt[:, None, None, :]).any(axis=(2, 3))
    live: npt.NDArray[np.float32] = (~clash).astype(np.float32)
    return live


def _strengths(board: tuple[int, ...], hands: npt.NDArray[np.int8], dealt: npt.NDArray[np.int8],
               live: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:  # fmt: skip
    deals, count = live.shape
    seven = np.empty((deals, count, 7), dtype=np.int8)
    seven[:, :, : len(board)] = board
    seven[:, :, len(board) : 5] = dealt[:, None, :]
    seven[:, :, 5:] = hands[None, :, :]
    flat = seven.reshape(-1, 7)
    ok = live.reshape(-1) > 0
    out = np.zeros(len(flat), dtype=np.int32)
    out[ok] = strengths_of(flat[ok])
    return out.reshape(deals, count)


def deal(board: tuple[int, ...], hands: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]) -> Deals:
    """The deals from `board` (3 to 5 cards) to the river for the two players' `hands`."""
    on_board = set(board)
    cards = [np.zeros((1, 0), dtype=np.int8)]
    for _ in range(5 - len(board)):
        cards.append(_next_level(on_board, cards[-1]))
    live = tuple((_live(hands[0], c), _live(hands[1], c)) for c in cards)
    fanout = tuple(len(cards[i + 1]) // len(cards[i]) for i in range(len(cards) - 1))
    outs = tuple(52 - len(board) - level - 4 for level in range(len(cards) - 1))
    strengths = (
        _strengths(board, hands[0], cards[-1], live[-1][0]),
        _strengths(board, hands[1], cards[-1], live[-1][1]),
    )
    return Deals(tuple(cards), live, fanout, outs, strengths)
