"""What each hand of one player wins against the other's weighted range, with exact card removal.

Against a range weighted by ``r`` (one weight per opposing hand), hand ``h`` holding cards ``a`` and
``b`` meets only the opposing hands that share no card with it:

    live(h) = total - with(a) - with(b) + same(h)

where ``with(c)`` sums the weights of the opposing hands holding ``c`` and ``same(h)`` is the
weight of ``h`` itself in the other range (it holds both cards, so it was taken off twice).

A showdown needs the weight of the live hands below ``h`` and level with it. On each board the
opposing hands are sorted by strength once (when the solver is built): then "below h" is a prefix
of a running sum, and "below h and holding a" a prefix of a running sum over the hands holding
``a`` sorted the same way. Every board's answer is a few gathers from running sums: O(n log n) to
set up, O(n) for each showdown, never n^2.

Many showdowns share the boards (every river showdown of the tree): their weights are stacked as
a last axis of ``K`` columns, so each gather moves ``K`` numbers.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

__all__ = ["Folds", "Showdowns"]

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
_KEY = 8192  # above every strength (7462)


@attrs.frozen
class Folds:
    """The live weight each hand of one player meets, against the other's range (any level)."""

    incidence: F32  # (opposing hands, 52): 1 where the hand holds the card
    first: I64  # (hands,) this player's cards
    second: I64
    same: I64  # (hands,) the same hand's index in the other range, or 0
    has_same: F32  # (hands,) 1 where the other range holds the same hand

    @classmethod
    def build(cls, mine: npt.NDArray[np.int8], theirs: npt.NDArray[np.int8]) -> Folds:
        incidence = np.zeros((len(theirs), 52), dtype=np.float32)
        incidence[np.arange(len(theirs)), theirs[:, 0]] = 1
        incidence[np.arange(len(theirs)), theirs[:, 1]] = 1
        where = {(int(a), int(b)): i for i, (a, b) in enumerate(theirs)}
        same = np.array([where.get((int(a), int(b)), -1) for a, b in mine], dtype=np.int64)
        return cls(incidence, mine[:, 0].astype(np.int64), mine[:, 1].astype(np.int64),
                   np.maximum(same, 0), (same >= 0).astype(np.float32))  # fmt: skip

    def live(self, reach: F32) -> F32:
        """``live(h)`` for each deal (row) of `reach`, a (deals, opposing hands) array."""
        by_card = reach @ self.incidence
        out: F32 = reach.sum(axis=1, keepdims=True) - by_card[:, self.first] - by_card[:, self.second]
        out += reach[:, self.same] * self.has_same
        return out


@attrs.frozen
class Showdowns:
    """Showdown shares of one player's hands on every final board, in chunks of `chunk` boards.

    Index arrays point into one chunk's arrays flattened to rows: the opposing weights (``H + 1``
    rows a board, the last a zero), their running sum in strength order (``H + 1`` rows a board),
    and the running sum over (card, strength) order (``2H + 1`` rows a board).
    """

    chunk: int
    hands: int  # opposing hands
    order: npt.NDArray[np.int32]  # (boards, H): rows of the weights in strength order
    below: npt.NDArray[np.int32]  # (boards, mine): rows of the running sum, strictly below
    upto: npt.NDArray[np.int32]  # ... below or level
    entries: npt.NDArray[np.int32]  # (boards, 2H): rows of the weights in (card, strength) order
    card_rows: npt.NDArray[np.int32]  # (boards, mine, 6): a's start, below, upto; b's the same
    card_ends: npt.NDArray[np.int32]  # (boards, mine, 2): the end of a's and b's runs
    same: npt.NDArray[np.int32]  # (boards, mine): the row of the same hand's weight, or the zero row

    @classmethod
    def build(cls, mine: npt.NDArray[np.int8], theirs: npt.NDArray[np.int8],
              mine_strength: npt.NDArray[np.int32], their_strength: npt.NDArray[np.int32],
              chunk: int) -> Showdowns:  # fmt: skip
        boards, count = their_strength.shape
        local = np.arange(boards, dtype=np.int64) % chunk
        order = np.argsort(their_strength, axis=1, kind="stable")
        sorted_keys = np.take_along_axis(their_strength, order, axis=1).astype(np.int64)
        sorted_keys += np.arange(boards, dtype=np.int64)[:, None] * _KEY
        query = mine_strength.astype(np.int64) + np.arange(boards, dtype=np.int64)[:, None] * _KEY
        flat = sorted_keys.reshape(-1)
        offset = np.arange(boards, dtype=np.int64)[:, None] * count
        sum_rows = local[:, None] * (count + 1)

        def rows_in_sum(side: str) -> npt.NDArray[np.int32]:
            return (np.searchsorted(flat, query, side=side) - offset + sum_rows).astype(np.int32)  # type: ignore[call-overload,no-any-return]

        below, upto = rows_in_sum("left"), rows_in_sum("right")
        entries, card_rows, card_ends = _card_runs(mine, theirs, mine_strength, their_strength, local)
        same_index = Folds.build(mine, theirs)
        same = np.where(same_index.has_same > 0, same_index.same, count)[None, :] + local[:, None] * (
            count + 1
        )
        return cls(chunk, count, (order + local[:, None] * (count + 1)).astype(np.int32), below, upto,
                   entries, card_rows, card_ends, same.astype(np.int32))  # fmt: skip

    def shares(self, start: int, weights: F32) -> tuple[F32, F32]:
        """For the boards ``start:start + len(weights)``, given the opposing `weights` (boards, H, K):
        each hand's weight won (half of a tie) and its live weight, both (boards, mine, K)."""
        boards, count, k = weights.shape
        stop = start + boards
        padded = np.zeros((boards, count + 1, k), dtype=np.float32)
        padded[:, :count] = weights
        rows = padded.reshape(-1, k)
        total = np.zeros((boards, count + 1, k), dtype=np.float32)
        np.cumsum(rows[self.order[start:stop]], axis=1, out=total[:, 1:])
        sums = total.reshape(-1, k)
        by_card = np.zeros((boards, 2 * count + 1, k), dtype=np.float32)
        np.cumsum(rows[self.entries[start:stop]], axis=1, out=by_card[:, 1:])
        runs = by_card.reshape(-1, k)[self.card_rows[start:stop]]  # (boards, mine, 6, K)
        ends = by_card.reshape(-1, k)[self.card_ends[start:stop]]  # (boards, mine, 2, K)
        below, upto = sums[self.below[start:stop]], sums[self.upto[start:stop]]
        a_start, a_below, a_upto, b_start, b_below, b_upto = (runs[:, :, i] for i in range(6))
        same = rows[self.same[start:stop]]
        win = below - (a_below - a_start) - (b_below - b_start)
        tie = (upto - below) - (a_upto - a_below) - (b_upto - b_below) + same
        live = total[:, count:] - (ends[:, :, 0] - a_start) - (ends[:, :, 1] - b_start) + same
        win += 0.5 * tie
        return win, live


def _card_runs(
    mine: npt.NDArray[np.int8],
    theirs: npt.NDArray[np.int8],
    mine_strength: npt.NDArray[np.int32],
    their_strength: npt.NDArray[np.int32],
    local: I64,
) -> tuple[npt.NDArray[np.int32], ...]:
    """The opposing hands holding each card, in strength order, as rows of a running sum."""
    boards, count = their_strength.shape
    cards = theirs.reshape(-1).astype(np.int64)  # entry 2j and 2j+1: hand j's two cards
    keys = cards[None, :] * _KEY + np.repeat(their_strength, 2, axis=1)
    order = np.argsort(keys, axis=1, kind="stable")
    width = 2 * count
    sorted_keys = np.take_along_axis(keys, order, axis=1) + np.arange(boards, dtype=np.int64)[:, None] * (
        52 * _KEY
    )
    flat = sorted_keys.reshape(-1)
    starts = np.concatenate([[0], np.cumsum(np.bincount(cards, minlength=52))])
    base = np.arange(boards, dtype=np.int64)[:, None] * (52 * _KEY)
    sum_base = local[:, None] * (width + 1)
    offset = np.arange(boards, dtype=np.int64)[:, None] * width
    columns = []
    ends = []
    for side in (0, 1):
        card = mine[:, side].astype(np.int64)[None, :]
        query = base + card * _KEY + mine_strength
        columns.append(np.broadcast_to(starts[card] + sum_base, query.shape))
        columns.append(np.searchsorted(flat, query, side="left") - offset + sum_base)
        columns.append(np.searchsorted(flat, query, side="right") - offset + sum_base)
        ends.append(np.broadcast_to(starts[card + 1] + sum_base, query.shape))
    entries = (order // 2 + local[:, None] * (count + 1)).astype(np.int32)
    return entries, np.stack(columns, axis=-1).astype(np.int32), np.stack(ends, axis=-1).astype(np.int32)
