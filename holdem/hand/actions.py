"""Player actions and the description of what is legal now."""

from __future__ import annotations

from enum import StrEnum, unique
from typing import NamedTuple

import attrs

from holdem.errors import IllegalActionError, InvalidAmountError

__all__ = ["Action", "ActionKind", "LegalActions", "check_or_call", "check_or_fold"]


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


def _kind(value: object) -> ActionKind:
    """An `ActionKind`, also from its text (``"fold"``); anything else is refused."""
    if isinstance(value, ActionKind):
        return value
    try:
        return ActionKind(value)  # type: ignore[arg-type]  # refused below unless a kind's text
    except (ValueError, TypeError):
        kinds = ", ".join(kind.value for kind in ActionKind)
        raise IllegalActionError(f"unknown action kind {value!r} ({kinds})") from None


@attrs.frozen
class Action:
    """One player action; `amount` is the raise-to total for the street (rule 14), else None.

    The kind may be given as text (``Action("fold")``); a raise needs a positive whole amount and
    the other kinds take none. Anything else is refused here, before it can reach a hand.
    """

    kind: ActionKind = attrs.field(converter=_kind)
    amount: int | None = None

    def __attrs_post_init__(self) -> None:
        amount = self.amount
        if self.kind is not ActionKind.RAISE:
            if amount is not None:
                raise InvalidAmountError(f"{self.kind.value} takes no amount, got {amount!r}")
        elif type(amount) is not int:
            raise InvalidAmountError(f"a raise needs a whole number of chips to raise to, got {amount!r}")
        elif amount <= 0:
            raise InvalidAmountError(f"a raise-to amount must be positive, got {amount}")

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
        if type(amount) is not int or amount <= 0:
            return cls(ActionKind.RAISE, amount)  # refused, with the reason
        # The hot path: the checks above are all there is to do (508 ns against 587 through the validators)
        action = object.__new__(cls)
        object.__setattr__(action, "kind", ActionKind.RAISE)
        object.__setattr__(action, "amount", amount)
        return action

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


def check_or_call(legal: LegalActions | None) -> Action:
    """Check when it is free, else call: what a calling station plays, and a bot that takes the cheap
    way in. The one definition the built-in bots use."""
    return Action.check() if legal is None or legal.can_check else Action.call()


def check_or_fold(legal: LegalActions | None) -> Action:
    """Check when it is free, else fold: what a faulty bot's seat, a player out of time and a bot
    with nothing better to do play. The one definition every such place uses."""
    return Action.check() if legal is not None and legal.can_check else Action.fold()
