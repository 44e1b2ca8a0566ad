"""Showdown: the order in which hands are shown, who shows or mucks, and who wins what (rules 17-20).

Pure functions over plain ints: the hand passes in contributions, who folded, the cards as
indices and the rules, and gets back the pots, the payouts and who showed (only shown hands win).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from holdem.cards.card import Card
from holdem.cards.evaluator import strengths_on
from holdem.hand.events import HandResult
from holdem.hand.pots import Pot, award, build_pots, rake_of, take_rake
from holdem.hand.stakes import Rules

__all__ = ["Settlement", "by_board", "result_of", "reveal", "settle", "showdown_order"]


class Settlement(NamedTuple):
    """How the pots go: payouts per player, the pots (after rake) and their winners, the players in
    showdown order with whether each showed, and the rake."""

    payouts: list[int]
    pots: list[Pot]
    winners: list[tuple[int, ...]]
    order: list[tuple[int, bool]]
    rake: int


def settle(
    contributions: Sequence[int],
    folded: Sequence[bool],
    dead: int,
    holes: Sequence[tuple[int, int]],
    board: Sequence[int],
    *,
    aggressor: int | None,
    all_in: bool,
    rules: Rules,
    again: Sequence[int] = (),
) -> Settlement:
    """Build the pots, take the rake, show down the live hands and award every pot.

    `board` is the board as dealt (complete when hands are shown; empty before the flop), `aggressor` the
    last player to bet or raise on the river, and `all_in` whether betting ended with players
    all-in (then every hand is shown, rule 19). `again` is the second board of a hand run twice
    (rule 32): each pot is then split between the two boards.
    """
    live = [j for j, out in enumerate(folded) if not out]
    level = contributions[live[0]]
    if again:
        return _twice(contributions, folded, dead, live, holes, (board, again), rules)
    if len(live) > 1 and max(contributions) == level and {contributions[j] for j in live} == {level}:
        return _single_pot(contributions, dead, live, holes, board, aggressor, all_in, rules)
    pots, rake = _raked(build_pots(contributions, folded, dead), board, rules)
    strengths: list[int | None] = [None] * len(folded)
    order: list[tuple[int, bool]] = []
    if len(live) > 1:
        values = dict(zip(live, strengths_on(board, [holes[j] for j in live]), strict=True))
        sequence = showdown_order(live, aggressor)
        showing = set(reveal(sequence, values, pots, show_all=all_in or not rules.muck_losers))
        for j in sequence:
            order.append((j, j in showing))
            if j in showing:
                strengths[j] = values[j]
    else:
        strengths[live[0]] = 0
    payouts, winners = award(pots, strengths)
    return Settlement(payouts, pots, winners, order, rake)


def _raked(pots: list[Pot], board: Sequence[int], rules: Rules) -> tuple[list[Pot], int]:
    """The pots after the rake, and the rake: none without a flop (rule 20)."""
    if rules.rake_percent and board:
        return take_rake(pots, rules.rake_percent, rules.rake_cap)
    return pots, 0


def _twice(
    contributions: Sequence[int],
    folded: Sequence[bool],
    dead: int,
    live: list[int],
    holes: Sequence[tuple[int, int]],
    boards: tuple[Sequence[int], Sequence[int]],
    rules: Rules,
) -> Settlement:
    """`settle` for a hand run twice (rule 32): every live hand is shown (they are all-in), each pot
    (after the rake) is halved, the odd chip to the first board's half, and each half is awarded
    on its board (odd chips of a tie by rule 18). A pot's winners are those of either board."""
    pots, rake = _raked(build_pots(contributions, folded, dead), boards[0], rules)
    won: list[set[int]] = [set() for _ in pots]
    payouts = [0] * len(folded)
    for paid, winners in by_board(pots, live, holes, boards):
        payouts = [a + b for a, b in zip(payouts, paid, strict=True)]
        for pot_winners, new in zip(won, winners, strict=True):
            pot_winners.update(new)
    order = [(j, True) for j in showdown_order(live, None)]
    return Settlement(payouts, pots, [tuple(sorted(w)) for w in won], order, rake)


def by_board(
    pots: Sequence[Pot],
    live: Sequence[int],
    holes: Sequence[tuple[int, int]],
    boards: Sequence[Sequence[int]],
) -> list[tuple[list[int], list[tuple[int, ...]]]]:
    """A hand run twice (rule 32): each board's payouts and each pot's winners on it, every pot
    halved, the odd chip to the first board's half (card indexes, as `settle` takes them)."""
    out = []
    for k, board in enumerate(boards):
        strengths: list[int | None] = [None] * len(holes)
        for j, value in zip(live, strengths_on(board, [holes[j] for j in live]), strict=True):
            strengths[j] = value
        halves = [Pot(pot.amount // 2 + (pot.amount % 2 if k == 0 else 0), pot.eligible) for pot in pots]
        out.append(award(halves, strengths))
    return out


def showdown_order(live: Sequence[int], last_aggressor: int | None) -> list[int]:
    """The live players in showdown order: the last aggressor on the final street first, else the
    first live player left of the button; then round the table."""
    seats = sorted(live)
    if last_aggressor is None or last_aggressor not in live:
        return seats
    k = seats.index(last_aggressor)
    return seats[k:] + seats[:k]


def reveal(
    order: Sequence[int],
    values: Mapping[int, int],
    pots: Sequence[Pot],
    *,
    show_all: bool,
) -> list[int]:
    """The players, in `order`, who show their hands; the others muck.

    With `show_all` (players all-in, or muck_losers off) everybody shows. Otherwise a player
    shows only a hand that can still win or tie a pot they are eligible for: at least as good
    as the best hand shown so far among that pot's players. A side pot is judged separately, so
    a hand beaten for the main pot may still be shown for a side pot.
    """
    shown: list[int] = []
    best: dict[int, int] = {}  # pot number -> best value shown so far
    for j in order:
        pots_in = [k for k, pot in enumerate(pots) if j in pot.eligible]
        if show_all or any(values[j] >= best.get(k, 0) for k in pots_in):
            shown.append(j)
            for k in pots_in:
                best[k] = max(best.get(k, 0), values[j])
    return shown


def _single_pot(
    contributions: Sequence[int],
    dead: int,
    live: list[int],
    holes: Sequence[tuple[int, int]],
    board: Sequence[int],
    aggressor: int | None,
    all_in: bool,
    rules: Rules,
) -> Settlement:
    """`settle` when every live player put in the same and nobody more: one pot, no side pots."""
    total = sum(contributions) + dead
    rake = (
        rake_of(total, rules.rake_percent, rules.rake_cap) if rules.rake_percent and board else 0
    )  # rule 20
    show_all = all_in or not rules.muck_losers
    best = -1
    order: list[tuple[int, bool]] = []
    winners: list[int] = []
    sequence = showdown_order(live, aggressor)
    for j, value in zip(sequence, strengths_on(board, [holes[j] for j in sequence]), strict=True):
        showed = show_all or value >= best  # rule 19: a hand that cannot win may be mucked
        order.append((j, showed))
        if showed:
            if value > best:
                best, winners = value, [j]
            elif value == best:
                winners.append(j)
    payouts = [0] * len(contributions)
    winners.sort()
    share, odd = divmod(total - rake, len(winners))
    for rank, j in enumerate(winners):  # rule 18: odd chips from the first seat left of the button
        payouts[j] = share + (1 if rank < odd else 0)
    return Settlement(payouts, [Pot(total - rake, tuple(live))], [tuple(winners)], order, rake)


def result_of(
    outcome: Settlement,
    final_stacks: Sequence[int],
    starting_stacks: Sequence[int],
    shown: tuple[tuple[Card, ...] | None, ...],
) -> HandResult:
    """The `HandResult` of a settled hand."""
    return HandResult(
        payouts=tuple(outcome.payouts),
        final_stacks=tuple(final_stacks),
        pots=tuple(outcome.pots),
        winners=tuple(outcome.winners),
        shown=shown,
        rake=outcome.rake,
        payoffs=tuple(f - s for f, s in zip(final_stacks, starting_stacks, strict=True)),
    )
