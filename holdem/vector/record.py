"""Hand histories of `VectorTables` (``record=True``): each finished hand as a PHH document.

Written as `holdem.formats.phh.export` writes a `Hand`'s (players in dealing order, heads-up arrays listed
button first), with the PHH fields ``table``, ``hand``, ``seats`` and ``seat_count`` saying where
it was played. Kept per table as text lines while the hand runs; slower than the bare arrays, so
it is off unless asked for.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from holdem.cards.card import CARDS
from holdem.hand.stakes import Stakes
from holdem.vector.showdown import board_columns

__all__ = ["actions", "board", "finish", "start"]

Ints = npt.NDArray[np.int64]
_NAMES = [str(card) for card in CARDS]


class Tables(Protocol):
    """What the record reads of a `VectorTables`."""

    players: int
    stakes: Stakes
    button: Ints
    hands_played: Ints
    _log: list[list[str]]
    _deck: npt.NDArray[np.int8]
    _street: Ints
    _start: Ints
    _stack: Ints
    _folded: npt.NDArray[np.bool_]
    _blinds: Ints
    _big: int


def start(t: Tables, rows: Ints) -> None:
    """Begin the record of a new hand at `rows`: the hole cards."""
    n = t.players
    for r in rows.tolist():
        deck = t._deck[:, r].tolist()
        t._log[r] = [f"d dh p{i + 1} {_NAMES[deck[i]]}{_NAMES[deck[n + i]]}" for i in range(n)]


def actions(t: Tables, rows: Ints, players: Ints, chosen: Ints, bets: Ints) -> None:
    """Record each table's action: fold, check or call, or a raise to its new bet."""
    for r, i, a, bet in zip(rows.tolist(), players.tolist(), chosen.tolist(), bets.tolist(), strict=True):
        verb = "f" if a == 0 else "cc" if a == 1 else f"cbr {bet}"
        t._log[r].append(f"p{i + 1} {verb}")


def board(t: Tables, rows: Ints) -> None:
    """Record the board cards dealt as each table at `rows` opens its next street."""
    columns = board_columns(t.players)
    for r, street in zip(rows.tolist(), t._street[rows].tolist(), strict=True):
        deck = t._deck[:, r]
        dealt = columns[:3] if street == 1 else columns[street + 1 : street + 2]
        t._log[r].append("d db " + "".join(_NAMES[deck[c]] for c in dealt))


def finish(t: Tables, rows: Ints) -> list[dict[str, Any]]:
    """The PHH documents of the hands just finished at `rows`."""
    n, stakes = t.players, t.stakes
    antes = [stakes.ante] * n
    antes[t._big] += stakes.big_blind_ante  # the big blind posts both antes
    blinds = t._blinds.tolist()
    if n == 2:
        antes, blinds = antes[::-1], blinds[::-1]
    out = []
    for r in rows.tolist():
        lines = t._log[r]
        live = [i for i in range(n) if not t._folded[i, r]]
        if len(live) > 1:
            deck = t._deck[:, r].tolist()
            lines += [f"p{i + 1} sm {_NAMES[deck[i]]}{_NAMES[deck[n + i]]}" for i in live]
        button = int(t.button[r])
        out.append({
            "variant": "NT", "antes": antes, "blinds_or_straddles": blinds, "min_bet": stakes.big_blind,
            "starting_stacks": t._start[:, r].tolist(), "actions": lines,
            "finishing_stacks": t._stack[:, r].tolist(), "table": r + 1, "hand": int(t.hands_played[r]),
            "seats": [(button + 1 + i) % n + 1 for i in range(n)], "seat_count": n,
        })  # fmt: skip
        t._log[r] = []
    return out
