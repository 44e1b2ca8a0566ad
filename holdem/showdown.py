"""Showdown: the order in which hands are shown, and who shows or mucks (rule 19).

Pure functions: the hand passes in who is live, the strengths and the pots, and gets back
the order and the hands that are shown (only shown hands can win).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from holdem.pots import Pot

__all__ = ["reveal", "showdown_order"]


def showdown_order(live: Sequence[int], players: int, last_aggressor: int | None) -> list[int]:
    """The last aggressor on the final street first, else the first live player left of the button."""
    first = last_aggressor if last_aggressor is not None and last_aggressor in live else live[0]
    return [j for j in ((first + k) % players for k in range(players)) if j in live]


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
