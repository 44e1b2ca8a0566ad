"""Simple built-in bots: random, calling station, folder, and a scripted test double."""

from __future__ import annotations

import random
from collections.abc import Iterable

from holdem.hand.actions import Action, check_or_call, check_or_fold
from holdem.hand.views import SeatView

__all__ = ["CallingStation", "Folder", "RandomBot", "ScriptedBot"]


class RandomBot:
    """Uniform over the legal kinds (fold, check/call, raise); raises to the minimum, a pot, or all-in."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        kinds = ["call"]
        if legal.can_fold and not legal.can_check:
            kinds.append("fold")
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            kinds.append("raise")
        kind = self.rng.choice(kinds)
        if kind == "fold":
            return Action.fold()
        if kind == "call":
            return check_or_call(view.legal)
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        pot_size = view.bets[view.player] + legal.to_call + view.pot + legal.to_call
        size = self.rng.choice([legal.min_raise_to, pot_size, legal.max_raise_to])
        return Action.raise_to(min(max(size, legal.min_raise_to), legal.max_raise_to))


class CallingStation:
    """Always checks or calls."""

    def act(self, view: SeatView) -> Action:
        return check_or_call(view.legal)


class Folder:
    """Folds whenever facing a bet; checks when free."""

    def act(self, view: SeatView) -> Action:
        return check_or_fold(view.legal)


class ScriptedBot:
    """Plays the given actions in order (``"f"``, ``"k"``, ``"c"``, ``"r 300"``), then checks or calls."""

    def __init__(self, actions: Iterable[Action | str] = ()) -> None:
        if isinstance(actions, str):
            actions = actions.split(";")
        self.script = [a if isinstance(a, Action) else _parse(a) for a in actions]

    def act(self, view: SeatView) -> Action:
        return self.script.pop(0) if self.script else check_or_call(view.legal)


def _parse(text: str) -> Action:
    word, _, amount = text.strip().partition(" ")
    simple = {"f": Action.fold(), "k": Action.check(), "c": Action.call()}
    if word in simple:
        return simple[word]
    if word == "r" and amount.strip().isdigit():
        return Action.raise_to(int(amount))
    raise ValueError(f"bad scripted action {text!r}")
