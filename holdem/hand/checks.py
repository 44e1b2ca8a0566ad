"""Why an action is refused: the one check behind `Hand.act` and `Hand.is_legal`, with its messages.

Every refusal names the player and the street; the hand is never changed here.
"""

from __future__ import annotations

from holdem.errors import HandOverError, IllegalActionError, InvalidAmountError, NotYourTurnError
from holdem.hand.actions import Action, ActionKind, LegalActions
from holdem.hand.shape import HandState as Hand

__all__ = ["check_action", "plainly_legal"]

_FOLD, _CHECK, _CALL, _RAISE, _ALL_IN = (
    ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALL_IN
)  # fmt: skip
_CHECK_ACTION = Action.check()


def plainly_legal(hand: Hand, i: int, action: Action) -> bool:
    """Whether player `i`, who is to act, may take `action` exactly as it is: a call facing a bet,
    a check when nothing is owed, a fold (unless the rules forbid folding when checking is free), a
    bet or raise within the legal bounds. The quick test `Hand.act` tries first and `check_action`
    starts from; anything else (an all-in to resolve, a call that is a check, a refusal) is
    `check_action`'s longer way."""
    kind = action.kind
    if kind is _RAISE:
        legal = hand.legal_actions()
        lo, hi = (None, None) if legal is None else (legal.min_raise_to, legal.max_raise_to)
        amount = action.amount
        return lo is not None and hi is not None and amount is not None and lo <= amount <= hi
    free = hand.bets[i] >= hand.round.level
    return (
        (kind is _CALL and not free)
        or (kind is _CHECK and free)
        or (kind is _FOLD and not (free and hand.rules.forbid_free_fold))
    )


def check_action(hand: Hand, action: Action, player: int | None) -> tuple[int, Action]:
    """Check an action against the legal actions; returns the player and the action, ALL-IN resolved."""
    legal = hand.legal_actions()
    if legal is None:
        raise HandOverError(f"the hand is over; {action} not accepted")
    i = legal.player
    if player is not None and type(player) is not int:
        raise IllegalActionError(f"player must be a player number, got {player!r} ({_where(hand, i)})")
    if player is not None and player != i:
        raise NotYourTurnError(
            f"player {player} acted out of turn; player {i} is to act ({hand.phase.name.lower()})"
        )
    if not isinstance(action, Action):
        raise IllegalActionError(f"not an action: {action!r} ({_where(hand, i)})")
    if plainly_legal(hand, i, action):
        return i, action
    kind = action.kind
    if kind is _ALL_IN:
        action = _all_in(hand, i, legal)
        kind = action.kind
    if kind is _FOLD:
        if not legal.can_fold:
            raise IllegalActionError(f"fold when checking is free is not allowed ({_where(hand, i)})")
    elif kind is _CHECK:
        if not legal.can_check:
            level = hand.round.level
            owed = level - hand.bets[i]
            raise IllegalActionError(
                f"cannot check facing a bet of {level}; call {owed} or fold ({_where(hand, i)})"
            )
    elif kind is _CALL:
        if legal.can_check:  # nothing is owed: a call is a check (rule 15's note)
            action = _CHECK_ACTION
    else:  # a raise: an Action checks its amount is a positive whole number when made
        amount, lo, hi = action.amount, legal.min_raise_to, legal.max_raise_to
        assert amount is not None
        verb = "bet" if hand.round.level == 0 else "raise"
        if lo is None or hi is None:
            raise IllegalActionError(f"{verb} not allowed; call or fold ({_where(hand, i)})")
        if amount < lo:
            raise InvalidAmountError(f"{verb} to {amount} is below the minimum {lo} ({_where(hand, i)})")
        if amount > hi:
            raise InvalidAmountError(f"{verb} to {amount} is above the maximum {hi} ({_where(hand, i)})")
    return i, action


def _all_in(hand: Hand, i: int, legal: LegalActions) -> Action:
    """The raise or call that puts all of player `i`'s chips in, if the rules allow one."""
    total = hand.bets[i] + hand.stacks[i]
    if total <= hand.round.level:
        return Action.call()  # calling takes every chip
    hi = legal.max_raise_to
    if hi == total:
        return Action.raise_to(total)
    limit = "no raise is allowed" if hi is None else f"the maximum raise-to is {hi}"
    raise InvalidAmountError(f"all-in to {total} is not allowed: {limit} ({_where(hand, i)})")


def _where(hand: Hand, i: int) -> str:
    """The context named in error messages."""
    return f"player {i}, {hand.phase.name.lower()}"
