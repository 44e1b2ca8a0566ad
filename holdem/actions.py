"""Player actions and the description of what is legal now."""

from __future__ import annotations

from enum import StrEnum, unique
from typing import NamedTuple

import attrs

__all__ = ["Action", "ActionKind", "LegalActions"]


@unique
class ActionKind(StrEnum):
    """What a player does when it is their turn."""

    FOLD = "fold"
    """Give up the hand."""
    CHECK = "check"
    """Pass without betting (only when there is nothing to call)."""
    CALL = "call"
    """Match the current bet (all-in for less when short)."""
    RAISE = "raise"
    """Bet or raise to a street total (`Action.amount`); an opening bet is a raise from zero."""
    ALL_IN = "all-in"
    """Put every chip in: applied as a raise to the whole stack, or a call for it."""


@attrs.frozen
class Action:
    """One player action; `amount` is the raise-to total for the street (rule 14), else None."""

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return _FOLD

    @classmethod
    def check(cls) -> Action:
        return _CHECK

    @classmethod
    def call(cls) -> Action:
        return _CALL

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Bet or raise so that this street's total in front of the player is `amount`."""
        return cls(ActionKind.RAISE, amount)

    bet = raise_to

    @classmethod
    def all_in(cls) -> Action:
        """Every chip in; the hand records it as the raise or call it amounts to."""
        return _ALL_IN

    def __str__(self) -> str:
        return self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"


_FOLD = Action(ActionKind.FOLD)
_CHECK = Action(ActionKind.CHECK)
_CALL = Action(ActionKind.CALL)
_ALL_IN = Action(ActionKind.ALL_IN)


class LegalActions(NamedTuple):
    """What the player to act may do (an immutable value; a named tuple, cheap to build per action).

    `to_call` is the chips needed to call (0 when checking is possible; capped by the stack);
    `min_raise_to`/`max_raise_to` bound a raise-to total, both None when no raise is possible.
    """

    player: int
    can_fold: bool
    can_check: bool
    to_call: int
    min_raise_to: int | None
    max_raise_to: int | None

    @property
    def can_call(self) -> bool:
        return self.to_call > 0

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None
