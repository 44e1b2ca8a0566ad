"""The cards the dealer may still turn, as arrays: one row (a "deal") per way the board can run.

Level 0 is the spot's own board (one deal); each later level adds one card to the deals of the
level before, each parent's children in a row (`Deals.parent`). A hand that holds a dealt card has
no weight in that deal (`Deals.live`).

Suit isomorphism: two suits that are not on the board, and between which swapping changes neither
range, are alike: the turn 7c and the turn 7d then lead to the same game with those suits' names
swapped. Only the first of such cards is dealt (its "mirrors" are not), and a chance node counts
its values again for each mirror with the hands renamed by the swap: the value of hand h after 7d
is the value of the renamed hand after 7c. On a two-tone flop that is a quarter of the turns fewer,
and of the deals below them.

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

F32 = npt.NDArray[np.float32]
Swap = tuple[int, int]


def swap_card(card: int, swap: Swap) -> int:
    """The card with the two suits of `swap` exchanged."""
    suit = card & 3
    a, b = swap
    return card - suit + (b if suit == a else a if suit == b else suit)


@attrs.frozen
class Mirrors:
    """The deals of a level standing also for their mirror under one swap: their rows, and those
    rows' parents grouped (`starts` into the rows, `parents` of each group) for a segmented sum."""

    rows: npt.NDArray[np.int64]
    starts: npt.NDArray[np.int64]
    parents: npt.NDArray[np.int64]


@attrs.frozen
class Deals:
    """The deals of every level and each player's live hands in them.

    `cards[level]` is a (deals, level) array of the cards turned; `parent[level]` each deal's parent
    at the level before (children of one parent are consecutive; `starts[level]` where each parent's
    run begins); `live[level][player]` a (deals, hands) 0/1 array; `outs[level]` the divisor of a
    chance node at `level`; `mirrors[level]` the swaps under which deals of `level` stand for a card
    not dealt, and `renamed[swap][player]` each hand's index after the swap; `strengths[player]`
    the (deals, hands) strength of each hand on each final board (0 where the hand is not live).
    """

    cards: tuple[npt.NDArray[np.int8], ...]
    parent: tuple[npt.NDArray[np.int64], ...]
    starts: tuple[npt.NDArray[np.int64], ...]
    live: tuple[tuple[F32, F32], ...]
    outs: tuple[int, ...]
    mirrors: tuple[dict[Swap, Mirrors], ...]
    renamed: dict[Swap, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]
    strengths: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]

    @property
    def last(self) -> int:
        """The level of the complete board."""
        return len(self.cards) - 1

    def size(self, level: int) -> int:
        """How many deals `level` has."""
        return len(self.cards[level])

    def down(self, level: int, values: F32, player: int) -> F32:
        """`player`'s per-deal array at `level` spread to the deals of the next level (zero where a
        dealt card blocks the hand)."""
        out: F32 = values[self.parent[level + 1]] * self.live[level + 1][player]
        return out

    def up(self, level: int, values: F32, player: int) -> F32:
        """Sum `player`'s per-deal array at `level + 1` into their parents at `level`, each deal counted
        again, renamed, for each card it mirrors; blocked hands count nothing."""
        child = level + 1
        masked = values * self.live[child][player]
        out: F32 = np.add.reduceat(masked, self.starts[child], axis=0)
        for swap, mirror in self.mirrors[child].items():
            renamed = masked[mirror.rows][:, self.renamed[swap][player]]
            out[mirror.parents] += np.add.reduceat(renamed, mirror.starts, axis=0)
        return out

    def child(self, level: int, deal: int, card: int) -> tuple[int, Swap | None]:
        """The deal of `level + 1` that turning `card` from `deal` leads to, and the swap that turns
        `card` into that deal's card (None when `card` is dealt as itself)."""
        start = int(self.starts[level + 1][deal])
        stop = int(self.starts[level + 1][deal + 1]) if deal + 1 < self.size(level) else self.size(level + 1)
        cards = self.cards[level + 1][start:stop, level]
        for row, dealt in enumerate(cards.tolist()):
            if dealt == card:
                return start + row, None
        for swap, mirror in self.mirrors[level + 1].items():
            twin = swap_card(card, swap)
            for row in mirror.rows.tolist():
                if start <= row < stop and int(self.cards[level + 1][row, level]) == twin:
                    return row, swap
        raise KeyError(card)


Renamings = dict[Swap, tuple[npt.NDArray[np.int64], ...]]


def _alike(
    hands: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]],
    weights: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    board: tuple[int, ...],
) -> tuple[list[list[int]], Renamings]:
    """Classes of suits off the board that both ranges treat alike, and for each swap within a
    class each player's hand renaming."""
    on_board = {c & 3 for c in board}
    free = [s for s in range(4) if s not in on_board]
    renamed: Renamings = {}
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            perms = [_renaming(h, w, (a, b)) for h, w in zip(hands, weights, strict=True)]
            if all(p is not None for p in perms):
                renamed[(a, b)] = tuple(p for p in perms if p is not None)
    classes: list[list[int]] = []
    for s in free:
        for group in classes:
            if (group[0], s) in renamed:
                group.append(s)
                break
        else:
            classes.append([s])
    # A class is kept whole only if every swap within it is allowed (a chain a~b~c implies a~c here).
    return [g for g in classes if len(g) > 1], renamed


def _renaming(
    hands: npt.NDArray[np.int8], weights: npt.NDArray[np.float64], swap: Swap
) -> npt.NDArray[np.int64] | None:
    """Each hand's index after `swap`, or None when the range holds a hand but not its renaming (or
    at another weight)."""
    where = {(int(a), int(b)): i for i, (a, b) in enumerate(hands)}
    out = np.empty(len(hands), dtype=np.int64)
    for i, (a, b) in enumerate(hands):
        x, y = sorted((swap_card(int(a), swap), swap_card(int(b), swap)), reverse=True)
        j = where.get((x, y))
        if j is None or weights[j] != weights[i]:
            return None
        out[i] = j
    return out


def _next_level(board: set[int], cards: npt.NDArray[np.int8], classes: list[list[int]]) -> tuple[
    npt.NDArray[np.int8], npt.NDArray[np.int64], dict[Swap, list[int]]
]:  # fmt: skip
    """Every deal of a level followed by each card not yet out, a class's mirrors left out."""
    rows: list[tuple[int, ...]] = []
    parents: list[int] = []
    mirrored: dict[Swap, list[int]] = {}
    for d, row in enumerate(cards):
        taken = board | {int(c) for c in row}
        suits_out = {c & 3 for c in taken}
        for card in range(52):
            if card in taken:
                continue
            alike = next(([s for s in g if s not in suits_out] for g in classes if card & 3 in g), [])
            if len(alike) > 1 and card & 3 != alike[0]:
                continue  # a mirror of the same rank in the class's first free suit
            if len(alike) > 1:
                for other in alike[1:]:
                    mirrored.setdefault((alike[0], other), []).append(len(rows))
            rows.append((*row.tolist(), card))
            parents.append(d)
    array = np.array(rows, dtype=np.int8).reshape(len(rows), cards.shape[1] + 1)
    return array, np.array(parents, dtype=np.int64), mirrored


def _mirrors(rows: list[int], parent: npt.NDArray[np.int64]) -> Mirrors:
    index = np.array(rows, dtype=np.int64)
    owners = parent[index]
    starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    return Mirrors(index, starts, owners[starts])


def _live(hands: npt.NDArray[np.int8], dealt: npt.NDArray[np.int8]) -> F32:
    if dealt.shape[1] == 0:
        return np.ones((1, len(hands)), dtype=np.float32)
    clash = (hands[None, :, :, None] == dealt[:, None, None, :]).any(axis=(2, 3))
    live: F32 = (~clash).astype(np.float32)
    return live


def _strengths(board: tuple[int, ...], hands: npt.NDArray[np.int8], dealt: npt.NDArray[np.int8],
               live: F32) -> npt.NDArray[np.int32]:  # fmt: skip
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


def deal(
    board: tuple[int, ...],
    hands: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]],
    weights: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
    *,
    isomorphism: bool = True,
) -> Deals:
    """The deals from `board` (3 to 5 cards) to the river for the two players' `hands` (with their
    `weights`, which decide which suits are alike; without them, or with `isomorphism` off, every
    card is dealt)."""
    classes: list[list[int]] = []
    renamed: Renamings = {}
    if isomorphism and weights is not None:
        classes, renamed = _alike(hands, weights, board)
    on_board = set(board)
    cards = [np.zeros((1, 0), dtype=np.int8)]
    parents = [np.zeros(0, dtype=np.int64)]
    mirrors: list[dict[Swap, Mirrors]] = [{}]
    for _ in range(5 - len(board)):
        level, parent, mirrored = _next_level(on_board, cards[-1], classes)
        cards.append(level)
        parents.append(parent)
        mirrors.append({swap: _mirrors(rows, parent) for swap, rows in mirrored.items()})
    starts = [np.zeros(1, dtype=np.int64)] + [
        np.flatnonzero(np.r_[True, p[1:] != p[:-1]]) for p in parents[1:]
    ]  # fmt: skip
    live = tuple((_live(hands[0], c), _live(hands[1], c)) for c in cards)
    outs = tuple(52 - len(board) - level - 4 for level in range(len(cards) - 1))
    strengths = (
        _strengths(board, hands[0], cards[-1], live[-1][0]),
        _strengths(board, hands[1], cards[-1], live[-1][1]),
    )
    used = {swap: (r[0], r[1]) for swap, r in renamed.items()}
    return Deals(tuple(cards), tuple(parents), tuple(starts), live, outs, tuple(mirrors), used, strengths)
