"""A panel of human styles: players as people play, each a `StyleBot` with documented parameters.

Before the flop a style plays by the strength of its starting hand (its percentile in the
documented preflop order, 0 the best): it opens the strongest `open` share of hands when nobody
has raised, more the fewer players are left behind it (up to three times as many with one
player behind); it limps the next `limp` share; facing a raise it re-raises the strongest
`threebet` share and calls the strongest `call` share; facing a re-raise, or a raise that costs a
third of its stack, it goes one level tighter (re-raises a third of `threebet`, calls `threebet`).

After the flop it plays by its hand's equity against random hands (one per live opponent, a
quick Monte Carlo): it bets or raises from `value` equity, bets without it (a bluff) with
probability `bluff`, or `cbet` when it raised before the flop, sizing at `size` of the pot, and
calls a bet when its equity beats the price of calling by `margin` (a negative margin calls
loosely). The styles (see `STYLES`) are typical players of a low-stakes game, not solved ones.
"""

from __future__ import annotations

import random

import attrs
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.bots.equity import _sample, starting_hand_percentiles
from holdem.hand.actions import Action, ActionKind, check_or_call
from holdem.hand.events import ACTION, KIND, PHASE, PLAYER, EventKind, Phase
from holdem.hand.views import SeatView

__all__ = [
    "STYLES", "LooseAggressive", "LoosePassive", "Maniac", "Rock", "Style", "StyleBot", "TightAggressive",
]  # fmt: skip


def _share(value: float) -> float:
    if not 0 <= value <= 1:
        raise ValueError(f"a share of hands or a probability is between 0 and 1, got {value!r}")
    return value


@attrs.frozen
class Style:
    """A style's parameters (shares of starting hands, equities, probabilities and a pot fraction)."""

    open: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    limp: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    call: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    threebet: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    value: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    bluff: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    cbet: float = attrs.field(converter=float, validator=lambda _, __, v: _share(v))
    margin: float = attrs.field(converter=float)
    size: float = attrs.field(converter=float)


STYLES = {
    "tight-aggressive": Style(open=0.15, limp=0.0, call=0.12, threebet=0.05, value=0.66, bluff=0.12,
                              cbet=0.65, margin=0.0, size=0.66),
    "loose-aggressive": Style(open=0.30, limp=0.0, call=0.25, threebet=0.10, value=0.60, bluff=0.28,
                              cbet=0.80, margin=-0.03, size=0.75),
    "rock": Style(open=0.07, limp=0.0, call=0.05, threebet=0.02, value=0.78, bluff=0.02, cbet=0.40,
                  margin=0.08, size=0.5),
    "maniac": Style(open=0.60, limp=0.0, call=0.50, threebet=0.30, value=0.50, bluff=0.55, cbet=0.95,
                    margin=-0.10, size=1.0),
    "loose-passive": Style(open=0.05, limp=0.45, call=0.45, threebet=0.02, value=0.82, bluff=0.03,
                           cbet=0.25, margin=-0.15, size=0.5),
}  # fmt: skip
"""The panel's styles by their built-in bot names; `calling-station` is the sixth."""

POSTFLOP_SAMPLES = 200
"""Deals behind each equity after the flop (a player's read of their hand, not a solver's)."""


class StyleBot:
    """Plays a `Style`: a named one from `STYLES`, with any parameter changed by keyword."""

    def __init__(self, style: str = "tight-aggressive", **changes: float) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
        unknown = sorted(set(changes) - {field.name for field in attrs.fields(Style)})
        if unknown:
            names = ", ".join(field.name for field in attrs.fields(Style))
            raise ValueError(f"a style has no parameter {unknown[0]!r} (its parameters: {names})")
        self.style = attrs.evolve(STYLES[style], **changes)
        self.set_random(random.Random(0))

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng
        self.gen = default_rng(rng.getrandbits(64))

    def act(self, view: SeatView) -> Action:
        return self._preflop(view) if view.phase is Phase.PREFLOP else self._postflop(view)

    # ------------------------------------------------------------ preflop
    def _preflop(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        style, me = self.style, view.player
        high, low = (card.index for card in view.hole)
        rank = starting_hand_percentiles()[high * 52 + low]
        raises = sum(1 for _, action in view.history if action.kind is ActionKind.RAISE)
        stack = view.stacks[me] + view.bets[me]
        if raises and legal.to_call * 3 >= stack:
            raises += 1  # a raise for a third of the stack is met as a re-raise is
        if raises == 0:
            wider = min(3.0, 1 + 2 / max(_behind(view), 1))
            if rank <= min(1.0, style.open * wider):
                limpers = sum(1 for _, action in view.history if action.kind is ActionKind.CALL)
                return self._raise(view, (3 + limpers) * view.big_blind)
            if rank <= min(1.0, style.open * wider + style.limp) or legal.can_check:
                return check_or_call(view.legal)
            return Action.fold()
        reraise, call = (style.threebet, style.call) if raises == 1 else (style.threebet / 3, style.threebet)
        if rank <= reraise and legal.can_raise:
            return self._raise(view, 3 * max(view.bets))
        if rank <= max(call, reraise):
            return check_or_call(view.legal)
        return Action.check() if legal.can_check else Action.fold()

    # ----------------------------------------------------------- postflop
    def _postflop(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        style = self.style
        strength = self.strength(view)
        pot = view.pot
        if legal.can_check:
            raised_first = any(
                entry[KIND] == EventKind.ACTION and entry[PLAYER] == view.player and entry[ACTION] is not None
                and entry[ACTION].kind is ActionKind.RAISE and entry[PHASE] is Phase.PREFLOP
                for entry in view.public_log
            )  # fmt: skip
            first_bet = style.cbet if raised_first and _first_check_chance(view) else style.bluff
            if legal.can_raise and (strength >= style.value or self.rng.random() < first_bet):
                return self._raise(view, int(style.size * pot))
            return Action.check()
        price = legal.to_call / (pot + legal.to_call)
        if legal.can_raise and strength >= style.value + 0.15:
            return self._raise(view, max(view.bets) + int(style.size * (pot + legal.to_call)))
        return Action.call() if strength >= price + style.margin else Action.fold()

    def strength(self, view: SeatView) -> float:
        """The hand's equity against one random hand per live opponent."""
        opponents = sum(1 for p, folded in enumerate(view.folded) if not folded and p != view.player)
        mine, board = [c.index for c in view.hole], [c.index for c in view.board]
        won, count = _sample(self.gen, mine, board, [1.0] * max(opponents, 1), POSTFLOP_SAMPLES)
        return won / count if count else 0.0

    def _raise(self, view: SeatView, to: int) -> Action:
        """A raise to `to` chips in all (kept within the legal bounds), or a call when none is allowed."""
        legal = view.legal
        assert legal is not None
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return check_or_call(view.legal)
        return Action.raise_to(min(max(to, legal.min_raise_to), legal.max_raise_to))


def _behind(view: SeatView) -> int:
    """Players who act after this one before the flop (dealing order: the blinds act last)."""
    n = view.players
    if n == 2:
        return 1 if view.player == 1 else 0
    return n - 1 - (view.player - 2) % n


def _first_check_chance(view: SeatView) -> bool:
    """Whether this is the flop and nobody has bet yet (a continuation bet's moment)."""
    street = view.phase
    return street is Phase.FLOP and not any(
        entry[KIND] == EventKind.ACTION and entry[PHASE] is street and entry[ACTION] is not None
        and entry[ACTION].kind is ActionKind.RAISE
        for entry in view.public_log
    )  # fmt: skip


class TightAggressive(StyleBot):
    """Plays few hands and plays them hard: `STYLES["tight-aggressive"]`."""

    def __init__(self, **changes: float) -> None:
        super().__init__("tight-aggressive", **changes)


class LooseAggressive(StyleBot):
    """Plays many hands, raises and bluffs often: `STYLES["loose-aggressive"]`."""

    def __init__(self, **changes: float) -> None:
        super().__init__("loose-aggressive", **changes)


class Rock(StyleBot):
    """A nit: plays only premium hands, rarely bluffs, folds to pressure: `STYLES["rock"]`."""

    def __init__(self, **changes: float) -> None:
        super().__init__("rock", **changes)


class Maniac(StyleBot):
    """Raises and re-raises most hands and bluffs at most pots: `STYLES["maniac"]`."""

    def __init__(self, **changes: float) -> None:
        super().__init__("maniac", **changes)


class LoosePassive(StyleBot):
    """A fish: limps and calls with many hands, rarely raises without a strong one:
    `STYLES["loose-passive"]`."""

    def __init__(self, **changes: float) -> None:
        super().__init__("loose-passive", **changes)
