"""All-in equity of 2–10 holdings (exact hole cards or ranges) on a partial board.

Exact enumeration sums the board cards' keys once and adds each holding's two keys, so a
heads-up preflop run over all 1,712,304 boards is a few vectorised passes. Ranges are
enumerated exactly when the work is small, and sampled (Monte Carlo) otherwise.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence
from typing import Literal

import attrs
import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.cards import _tables
from holdem.cards.batch import Tables, combinations, lookup, tables
from holdem.cards.card import CARDS, Card, parse_cards
from holdem.cards.ranges import Combo, parse_range
from holdem.errors import ImpossibleSpotError, InvalidConfigError, InvalidRangeError

__all__ = ["EquityResult", "PlayerEquity", "all_in_values", "equity"]

EXACT_LIMIT = 30_000_000
"""Exact enumeration is used while (holdings combinations x boards) stays below this."""
DEFAULT_SAMPLES = 200_000
"""Monte Carlo sample count when exact enumeration is too large and none is given."""


@attrs.frozen
class PlayerEquity:
    """One player's share: `win` (alone), `tie` (split) and `equity` (pot share), all 0–1."""

    holding: str
    win: float
    tie: float
    equity: float
    stderr: float | None = None


@attrs.frozen
class EquityResult:
    """The equities of all players, how they were computed, and over how many deals."""

    players: tuple[PlayerEquity, ...]
    method: Literal["exact", "monte-carlo"]
    deals: int


def equity(
    players: Sequence[str | Sequence[Card]],
    board: str | Sequence[Card] = (),
    dead: str | Sequence[Card] = (),
    *,
    samples: int | None = None,
    rng: int | random.Random | np.random.Generator | None = None,
) -> EquityResult:
    """Win, tie and equity of each player, exactly when feasible, else by Monte Carlo.

    Each player is exact hole cards (``"AsAh"``) or a range (``"TT+,AKs"``). Range combinations
    that clash with the board, dead cards or another player are dropped; if nothing is left,
    `ImpossibleSpotError`. Giving `samples` forces Monte Carlo; `rng` seeds it: a seed, a
    `random.Random` (as `Hand` and `Table` take) or a NumPy `Generator`.

    >>> result = equity(["AsAd", "KcKh"])
    >>> result.method, result.deals, round(result.players[0].equity, 4)
    ('exact', 1712304, 0.8126)
    >>> round(equity(["AsAd", "QQ+"], board="Kd7c2h").players[0].equity, 3)
    0.625
    """
    if not 2 <= len(players) <= 10:
        raise ImpossibleSpotError(f"equity needs 2 to 10 players, got {len(players)}")
    board_cards = [c.index for c in parse_cards(board)]
    dead_cards = [c.index for c in parse_cards(dead)]
    if len(board_cards) not in (0, 3, 4, 5):
        raise ImpossibleSpotError(
            f"a board has 0, 3, 4 or 5 cards (preflop, flop, turn, river), got {len(board_cards)}"
        )
    known = board_cards + dead_cards
    if len(set(known)) != len(known):
        raise ImpossibleSpotError("the board and dead cards share a card")
    labels = [p if isinstance(p, str) else "".join(map(str, p)) for p in players]
    ranges = [_holding(p, set(known)) for p in players]
    if samples is not None and samples <= 0:
        raise ImpossibleSpotError(f"samples must be positive, got {samples}")
    free = 52 - len(known) - 2 * len(players)
    if free < 5 - len(board_cards):
        raise ImpossibleSpotError("not enough cards left to complete the board")
    boards = math.comb(free, 5 - len(board_cards))
    work = math.prod(len(r) for r in ranges) * boards
    if samples is None and work <= EXACT_LIMIT:
        return _exact(labels, ranges, board_cards, known)
    return _monte_carlo(labels, ranges, board_cards, known, samples or DEFAULT_SAMPLES, rng)


def _holding(player: str | Sequence[Card], known: set[int]) -> list[Combo]:
    """A player's combinations that do not clash with the board or dead cards."""
    if not isinstance(player, str):
        a, b = (c.index for c in parse_cards(player))
        combos: list[Combo] = [(a, b, 1.0)]
    else:
        try:
            combos = parse_range(player)
        except InvalidRangeError as error:
            raise InvalidRangeError(f"{error} (player {player!r})") from None
    left = [c for c in combos if c[0] not in known and c[1] not in known]
    if not left:
        raise ImpossibleSpotError(f"no combination of {player!r} is left after the board and dead cards")
    return left


class _Tally:
    """Wins, ties and pot shares per player, accumulated over weighted deals."""

    def __init__(self, players: int) -> None:
        self.win = np.zeros(players)
        self.tie = np.zeros(players)
        self.share = np.zeros(players)
        self.share_sq = np.zeros(players)
        self.weight = 0.0
        self.deals = 0

    def add(self, values: npt.NDArray[np.int32], weight: float = 1.0) -> None:
        """Add deals given as a (players, deals) array of strengths."""
        best = values.max(axis=0)
        top = values == best
        winners = top.sum(axis=0)
        shares = top / winners
        alone = top & (winners == 1)
        self.win += weight * alone.sum(axis=1)
        self.tie += weight * (top & (winners > 1)).sum(axis=1)
        self.share += weight * shares.sum(axis=1)
        self.share_sq += weight * (shares**2).sum(axis=1)
        self.weight += weight * values.shape[1]
        self.deals += values.shape[1]

    def result(self, labels: list[str], method: Literal["exact", "monte-carlo"]) -> EquityResult:
        n = self.weight
        mean = self.share / n
        errors = [
            float(math.sqrt(max(sq / n - m * m, 0.0) / self.deals)) if method == "monte-carlo" else None
            for sq, m in zip(self.share_sq, mean, strict=True)
        ]
        players = tuple(
            PlayerEquity(label, float(w / n), float(t / n), float(m), e)
            for label, w, t, m, e in zip(labels, self.win, self.tie, mean, errors, strict=True)
        )
        return EquityResult(players, method, self.deals)


def _strengths(
    board_sum: npt.NDArray[np.int64],
    board_suits: npt.NDArray[np.int64],
    first: int | npt.NDArray[np.int64],
    second: int | npt.NDArray[np.int64],
    t: Tables,
) -> npt.NDArray[np.int32]:
    """Strengths of one holding (two cards, or two columns of cards) on each board."""
    extra = t.suit_bits[first] + t.suit_bits[second]

    def suit_sums(rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        return board_suits[rows] + (extra if np.ndim(extra) == 0 else extra[rows])

    return lookup(board_sum + t.keys[first] + t.keys[second], suit_sums, t)


def _runouts(
    board: list[int], known: list[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every completion of `board` by cards not in `known` (which holds the board): the summed keys
    (offset included), summed suit bits and card masks of the five board cards."""
    t = tables()
    if not board:  # all 2,598,960 boards are summed once; each spot picks its rows
        sums, suits, masks = _five_card_boards()
        known_mask = sum(1 << c for c in known)
        rows = np.flatnonzero(masks & known_mask == 0)
        return sums[rows], suits[rows], masks[rows]
    deck = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    runouts = deck[combinations(len(deck), 5 - len(board))]
    board_sum = (
        np.einsum("ij->i", t.keys[runouts]) + sum(_tables.CARD_KEYS[c] for c in board) + _tables.OFFSET
    )
    board_suits = np.einsum("ij->i", t.suit_bits[runouts]) + sum(_tables.SUIT_BITS[c] for c in board)
    board_mask = np.einsum("ij->i", np.left_shift(1, runouts)) | sum(1 << c for c in board)
    return board_sum, board_suits, board_mask


@functools.cache
def _five_card_boards() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    t = tables()
    boards = combinations(52, 5).astype(np.int64)
    return (
        np.einsum("ij->i", t.keys[boards]) + _tables.OFFSET,
        np.einsum("ij->i", t.suit_bits[boards]),
        np.einsum("ij->i", np.left_shift(1, boards)),
    )


def _exact(labels: list[str], ranges: list[list[Combo]], board: list[int], known: list[int]) -> EquityResult:
    t = tables()
    board_sum, board_suits, board_mask = _runouts(board, known)
    tally = _Tally(len(labels))
    for deal in itertools.product(*ranges):
        cards = [c for a, b, _ in deal for c in (a, b)]
        if len(set(cards)) != len(cards):
            continue
        hole_mask = sum(1 << c for c in cards)
        clear = (board_mask & hole_mask) == 0
        rows = np.flatnonzero(clear) if not clear.all() else slice(None)
        sums, suits = board_sum[rows], board_suits[rows]
        values = np.stack([_strengths(sums, suits, a, b, t) for a, b, _ in deal])
        tally.add(values, math.prod(w for _, _, w in deal))
    if tally.deals == 0:
        raise ImpossibleSpotError(f"the holdings cannot all be dealt at once: {_clash(labels, ranges)}")
    return tally.result(labels, "exact")


def _clash(labels: list[str], ranges: list[list[Combo]]) -> str:
    """Which card two exact holdings share, or that every combination of the ranges clashes."""
    exact = [(label, {a, b}) for label, combos in zip(labels, ranges, strict=True) if len(combos) == 1
             for a, b, _ in combos]  # fmt: skip
    for k, (first, cards) in enumerate(exact):
        for second, others in exact[k + 1 :]:
            if cards & others:
                return f"{CARDS[min(cards & others)]} is in both {first} and {second}"
    return "every combination clashes"


def all_in_values(
    holes: Sequence[tuple[Card, Card]],
    board: Sequence[Card],
    pots: Sequence[tuple[int, Sequence[int]]],
    dead: Sequence[Card] = (),
) -> list[float]:
    """The chips each holding wins on average from `pots` over every way the board can be completed.

    `pots` are (amount, indices into `holes` of the players who may win it); a pot is split
    evenly among its best eligible hands (odd chips as fractions). Exact: every runout of the cards
    not in the holes, the board or `dead` counts once.
    """
    t = tables()
    board_cards = [c.index for c in board]
    known = board_cards + [c.index for c in dead] + [c.index for hole in holes for c in hole]
    if len(set(known)) != len(known):
        raise ImpossibleSpotError("the holdings, board and dead cards share a card")
    sums, suits, _ = _runouts(board_cards, known)
    values = np.stack([_strengths(sums, suits, a.index, b.index, t) for a, b in holes])
    won = np.zeros(len(holes))
    for amount, eligible in pots:
        rows = list(eligible)
        contenders = values[rows]
        top = contenders == contenders.max(axis=0)
        won[rows] += amount * (top / top.sum(axis=0)).mean(axis=1)
    return [float(x) for x in won]


def _dealable(ranges: list[list[Combo]], used: set[int], budget: int = 100_000) -> bool | None:
    """Whether some deal gives every player a combination of their range with no card twice (None:
    not settled within `budget` steps of the search, narrowest range first)."""
    order = sorted(ranges, key=len)
    steps = 0

    def place(k: int) -> bool | None:
        nonlocal steps
        if k == len(order):
            return True
        unsettled = False
        for a, b, _ in order[k]:
            steps += 1
            if steps > budget:
                return None
            if a in used or b in used:
                continue
            used.update((a, b))
            found = place(k + 1)
            used.difference_update((a, b))
            if found:
                return True
            unsettled |= found is None
        return None if unsettled else False

    return place(0)


def _monte_carlo(
    labels: list[str],
    ranges: list[list[Combo]],
    board: list[int],
    known: list[int],
    samples: int,
    rng: int | random.Random | np.random.Generator | None,
) -> EquityResult:
    if _dealable(ranges, set(known)) is False:
        raise ImpossibleSpotError("the holdings can never be dealt at once: every deal needs a card twice")
    gen = _generator(rng)
    t = tables()
    combos = [np.array([(a, b) for a, b, _ in r], dtype=np.int64) for r in ranges]
    probs = [np.array([w for _, _, w in r]) / sum(w for _, _, w in r) for r in ranges]
    tally = _Tally(len(labels))
    need = 5 - len(board)
    fixed = np.array(known, dtype=np.int64)
    attempts = 0
    while tally.deals < samples:
        batch = min(samples - tally.deals, 100_000)
        holes = np.concatenate(
            [c[gen.choice(len(c), size=batch, p=p)] for c, p in zip(combos, probs, strict=True)], axis=1
        )
        ordered = np.sort(holes, axis=1)
        holes = holes[(np.diff(ordered, axis=1) != 0).all(axis=1)]
        attempts += batch
        if not len(holes):
            if attempts >= 20 * samples:
                raise ImpossibleSpotError("the holdings can almost never be dealt at once")
            continue
        order = gen.random((len(holes), 52))
        order[:, fixed] = 2.0
        np.put_along_axis(order, holes, 2.0, axis=1)
        runouts = (
            np.argpartition(order, need, axis=1)[:, :need]
            if need
            else np.zeros((len(holes), 0), dtype=np.int64)
        )
        cards = np.concatenate(
            [runouts, np.broadcast_to(fixed[: len(board)], (len(holes), len(board)))], axis=1
        )
        board_sum = np.einsum("ij->i", t.keys[cards]) + _tables.OFFSET
        board_suits = np.einsum("ij->i", t.suit_bits[cards])
        values = np.stack(
            [
                _strengths(board_sum, board_suits, holes[:, 2 * i], holes[:, 2 * i + 1], t)
                for i in range(len(ranges))
            ]
        )
        tally.add(values)
    return tally.result(labels, "monte-carlo")


def _generator(rng: int | random.Random | np.random.Generator | None) -> np.random.Generator:
    """A NumPy generator from any of the random sources the library accepts."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, random.Random):
        return default_rng(rng.getrandbits(128))
    if rng is not None and (type(rng) is not int or rng < 0):
        raise InvalidConfigError(
            f"rng must be a non-negative seed, a random.Random or a Generator, got {rng!r}"
        )
    return default_rng(rng)
