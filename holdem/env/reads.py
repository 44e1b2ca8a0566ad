"""What each table's agent has seen of its opponent, over many tables at once: the counts of
`holdem.bots.reads` (the `SEEN` rates), kept across hands.

Counted by the definitions `Reads.learn` uses on a hand's log (a test plays the same hands both
ways): before the flop, a call or raise makes a hand voluntary and a raise a raised one, a walk
being no chance of either (heads-up, where blinds never both go all-in as they post); facing a
raise on the street, a fold or a raise is counted (``fold_pre`` and ``threebet`` before the flop,
``fold_post`` and ``raise_back`` after it); after the flop every action but a fold counts toward
``aggression``, a bet or raise as aggressive. A table's counts start again (`forget`) when another
player takes its seat.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from holdem.bots.observation import POSITION, STREET, seats_at
from holdem.bots.reads import SEEN, blended

__all__ = ["TableReads"]

_COLUMN = {name: k for k, name in enumerate(SEEN)}
Rows = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


class TableReads:
    """Counts of actions and chances, a row per table, of the opponent at each of `tables` tables."""

    def __init__(self, tables: int) -> None:
        self.actions = np.zeros((tables, len(SEEN)), dtype=np.int64)
        self.chances = np.zeros((tables, len(SEEN)), dtype=np.int64)
        self._hand_actions = np.zeros_like(self.actions)  # this hand's, so far: counted when it ends,
        self._hand_chances = np.zeros_like(self.chances)  # as the bots count a hand's log at its end

    def note(self, rows: Rows, obs: npt.NDArray[np.float32], chosen: npt.NDArray[np.int64]) -> None:
        """Count the opponent's actions `chosen` (0 fold, 1 check or call, 2 on raises) at tables
        `rows`, taken on the observations `obs` (heads-up, as the opponent saw them)."""
        street = np.argmax(obs[:, STREET:POSITION], axis=1)
        rest = seats_at(2) + 8
        calls = (chosen == 1) & (obs[:, rest + 1] > 0)
        fold, aggressive = chosen == 0, chosen >= 2
        faced = obs[np.arange(len(obs)), rest + 4 + street] > 0  # a raise before it on this street
        pre = street == 0
        self._hand_chances[rows[pre], _COLUMN["vpip"]] = 1  # acting before the flop: no walk
        self._hand_chances[rows[pre], _COLUMN["pfr"]] = 1
        self._hand_actions[rows[pre & (calls | aggressive)], _COLUMN["vpip"]] = 1
        self._hand_actions[rows[pre & aggressive], _COLUMN["pfr"]] = 1
        self._count(rows, "fold_pre", pre & faced, fold)
        self._count(rows, "threebet", pre & faced, aggressive)
        self._count(rows, "fold_post", ~pre & faced, fold)
        self._count(rows, "raise_back", ~pre & faced, aggressive)
        self._count(rows, "aggression", ~pre & ~fold, aggressive)

    def end(self, done: Mask) -> None:
        """The hands at the tables `done` are over: count what was done in them. Each is a chance to
        play voluntarily and to raise before the flop where the player acted before it: a hand
        folded to them before they acted is a walk (`holdem.hand.voluntary`), no chance."""
        self.actions[done] += self._hand_actions[done]
        self.chances[done] += self._hand_chances[done]
        self._hand_actions[done] = 0
        self._hand_chances[done] = 0

    def forget(self, tables: npt.NDArray[np.int64] | Mask) -> None:
        """Another player sits at `tables` (indices or a mask): read from nothing again."""
        for counts in (self.actions, self.chances, self._hand_actions, self._hand_chances):
            counts[tables] = 0

    def rates(self) -> npt.NDArray[np.float32]:
        """``(tables, len(SEEN))`` rates, each blended with its prior (`holdem.bots.reads.blended`)."""
        return blended(self.actions, self.chances).astype(np.float32)

    def _count(self, rows: Rows, name: str, chance: Mask, did: Mask) -> None:
        at, column = rows[chance], _COLUMN[name]  # each table once: plain stores add up
        self._hand_chances[at, column] += 1
        self._hand_actions[at, column] += did[chance]
