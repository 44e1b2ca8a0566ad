"""Pots and settlement: side pots from contributions, splits, odd chips, rake (rules 16–18, 20)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

__all__ = ["Pot", "award", "build_pots", "rake_of", "take_rake"]


@attrs.frozen
class Pot:
    """A pot: its chips and the players (hand order) who may win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Main and side pots from each player's total contribution (rule 17).

    A pot exists for each distinct contribution level of a player still in the hand; folded
    chips stay in the pots they fed. `dead` money (a big-blind ante) goes to the main pot.
    """
    levels = sorted({c for c, out in zip(contributions, folded, strict=True) if not out and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(i for i, c in enumerate(contributions) if not folded[i] and c >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    # Chips of folded players above every live level (none once uncalled bets are returned,
    # but kept so that chips are always conserved) join the last pot; dead money the first.
    excess = sum(max(c - previous, 0) for c in contributions)
    if not pots:
        return [Pot(excess + dead, tuple(i for i, out in enumerate(folded) if not out))]
    if dead:
        pots[0] = attrs.evolve(pots[0], amount=pots[0].amount + dead)
    if excess:
        pots[-1] = attrs.evolve(pots[-1], amount=pots[-1].amount + excess)
    return pots


def rake_of(total: int, percent: float, cap: int | None) -> int:
    """The rake of a pot of `total` chips: `percent` of it, rounded down, at most `cap` (rule 20)."""
    rake = int(total * percent // 100)
    return rake if cap is None else min(rake, cap)


def take_rake(pots: list[Pot], percent: float, cap: int | None) -> tuple[list[Pot], int]:
    """Take `rake_of` the chips, from the main pot first (rule 20)."""
    rake = rake_of(sum(p.amount for p in pots), percent, cap)
    left, out = rake, []
    for pot in pots:
        taken = min(left, pot.amount)
        left -= taken
        out.append(attrs.evolve(pot, amount=pot.amount - taken))
    return out, rake


def award(pots: Sequence[Pot], strengths: Sequence[int | None]) -> tuple[list[int], list[tuple[int, ...]]]:
    """Payouts per player and the winners of each pot.

    `strengths[i]` is None for a player who cannot win (folded or mucked). A tie splits the
    pot equally; odd chips go one at a time to the tied winners from the first seat left of
    the button, which is player 0 in hand order (rule 18).
    """
    payouts = [0] * len(strengths)
    winners_per_pot: list[tuple[int, ...]] = []
    for pot in pots:
        contenders = [i for i in pot.eligible if strengths[i] is not None]
        if not contenders:
            contenders = list(pot.eligible)
            best = None
        else:
            best = max(strengths[i] for i in contenders)  # type: ignore[type-var]
        winners = tuple(i for i in contenders if strengths[i] == best)
        share, odd = divmod(pot.amount, len(winners))
        for rank, player in enumerate(sorted(winners)):
            payouts[player] += share + (1 if rank < odd else 0)
        winners_per_pot.append(winners)
    return payouts, winners_per_pot
