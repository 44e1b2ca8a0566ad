"""What a bot learns of its opponents from the hands it has seen: each one's tendencies, counted.

`Reads` keeps, per opponent, how often they put chips in voluntarily and raised before the flop,
re-raised or folded when facing a raise before the flop, folded or raised when facing a bet after
it, and bet or raised after it, each as actions over chances. Opponents are told apart by name
when whoever runs the game names them (the bots' ``meet`` hook: a match, a table session, a
tournament and a served table do), so a new player in a seat is read from nothing; otherwise by
their seat relative to the reader's, which stays the same for each opponent in a match (the bots
rotate together). Each rate starts from a prior worth a few hands of a typical player
(`PRIORS`), so a few hands move it little and many hands decide it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from holdem.hand.actions import Action, ActionKind
from holdem.hand.events import EventKind, LogEntry, Phase
from holdem.hand.voluntary import entered

__all__ = ["PRIORS", "SEEN", "Reads", "Tendencies", "blended"]

PRIORS = {"vpip": (0.45, 8.0), "pfr": (0.15, 8.0), "threebet": (0.08, 6.0), "fold_pre": (0.45, 6.0),
          "fold_post": (0.40, 6.0), "aggression": (0.35, 6.0), "raise_back": (0.15, 6.0),
          "fold_open": (0.45, 6.0), "raise_open": (0.10, 6.0), "fold_reraised": (0.45, 6.0),
          "raise_reraised": (0.12, 6.0), "raise_limp": (0.25, 6.0)}  # fmt: skip
"""Each rate's prior: (rate, weight in chances). `fold_open` and `raise_open` count a player's
answer to the first raise before the flop when they have not raised yet; `fold_reraised` and
`raise_reraised` their answer, having raised, to a raise over theirs; `raise_limp` how often
they raise a pot someone has limped into (called the big blind) and nobody has raised."""

PARENTS = {"fold_open": "fold_pre", "fold_reraised": "fold_pre", "raise_open": "threebet",
           "raise_reraised": "threebet"}  # fmt: skip
"""Rates whose prior is the player's own broader rate (folds or raises facing any raise before the
flop), so a spot seldom seen starts from what the player does in the others."""


SEEN = ("vpip", "pfr", "threebet", "fold_pre", "fold_post", "aggression", "raise_back")
"""The rates a learned policy sees of its opponents (`holdem.learn.features`), none with a parent:
counted from hand logs by `Reads`, and over many tables at once by `holdem.env.reads`."""


def blended(actions: npt.ArrayLike, chances: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The `SEEN` rates, each blended with its prior as `Tendencies.rate` does, from ``(..., len(SEEN))``
    counts of actions and chances."""
    prior = np.array([PRIORS[name][0] for name in SEEN])
    weight = np.array([PRIORS[name][1] for name in SEEN])
    rates: npt.NDArray[np.float64] = (np.asarray(actions) + prior * weight) / (np.asarray(chances) + weight)
    return rates


EXPECTED_SHARE = 0.8
"""The share of its equity on the flop a hand is expected to realise (it cannot always see the
showdown); `Tendencies.edge` counts what flops against a player came to beyond it."""

EDGE_WEIGHT = 15
"""The flops' worth of prior (an edge of nothing) that `Tendencies.edge` is blended with."""


class Tendencies:
    """One opponent's counts: actions and chances for each rate in `PRIORS`, and what the reader's
    flops against them came to (`edge`)."""

    __slots__ = ("actions", "chances", "expected", "flops", "pots", "won")

    def __init__(self) -> None:
        self.actions = dict.fromkeys(PRIORS, 0)
        self.chances = dict.fromkeys(PRIORS, 0)
        # Per kind of pot: [limped, raised] before the flop.
        self.flops, self.pots, self.won, self.expected = [0, 0], [0, 0], [0, 0], [0.0, 0.0]

    def edge(self, raised: bool) -> float:
        """Chips the reader won after the flop against this player, heads-up, beyond `EXPECTED_SHARE` of
        its equity in the pot then, per chip in that pot, in pots limped or `raised` before the
        flop; blended with nothing (`EDGE_WEIGHT` flops of it). Above zero against players who pay
        off or bluff into it, below against players who push it off its equity."""
        k = int(raised)
        prior = EDGE_WEIGHT * (self.pots[k] / self.flops[k] if self.flops[k] else 1.0)
        return (self.won[k] - EXPECTED_SHARE * self.expected[k]) / (self.pots[k] + prior)

    def note_flop(self, raised: bool, equity: float, pot: int, won: int) -> None:
        """Count a heads-up flop in a pot limped or `raised` before it: the reader's `equity` and the
        `pot` then, and the chips it won from then on."""
        k = int(raised)
        self.flops[k] += 1
        self.pots[k] += pot
        self.expected[k] += equity * pot
        self.won[k] += won

    def rate(self, name: str) -> float:
        """The rate, blended with its prior (the broader rate's, for the rates in `PARENTS`)."""
        prior, weight = PRIORS[name]
        if name in PARENTS:
            prior = self.rate(PARENTS[name])
        return (self.actions[name] + prior * weight) / (self.chances[name] + weight)

    def count(self, name: str, did: bool) -> None:
        self.chances[name] += 1
        self.actions[name] += did


class Reads:
    """Tendencies of each opponent: by name once the players are named (`meet`), else by seat
    relative to the reader."""

    def __init__(self) -> None:
        self.seats: dict[int, Tendencies] = {}
        self.players: dict[str, Tendencies] = {}
        self.names: tuple[str, ...] = ()

    def meet(self, names: tuple[str, ...]) -> None:
        """The names of the next hand's players, in dealing order: a new name is a new player, read
        from nothing."""
        self.names = tuple(names)

    def of(self, me: int, player: int, players: int) -> Tendencies:
        """The tendencies of `player`, seen from `me` at a table of `players`."""
        if len(self.names) == players:
            return self.players.setdefault(self.names[player], Tendencies())
        return self.seats.setdefault((player - me) % players, Tendencies())

    def learn(self, me: int, players: int, log: tuple[LogEntry, ...]) -> None:
        """Count a finished hand's public actions (`SeatView.public_log`) for every opponent."""
        raised = [False] * players
        preflop: list[tuple[int, Action]] = []  # for `holdem.hand.voluntary`
        street, bet_on_street, raises, limped = Phase.PREFLOP, False, 0, False
        for kind, player, _, _, action, phase in log:
            if kind != EventKind.ACTION or player is None or action is None:
                continue
            if phase is not street:
                street, bet_on_street = phase, False
            aggressive = action.kind is ActionKind.RAISE
            limps = street is Phase.PREFLOP and not raises and action.kind is ActionKind.CALL
            if street is Phase.PREFLOP:
                preflop.append((player, action))
            if player == me:
                bet_on_street |= aggressive
                limped |= limps
                raises += aggressive and street is Phase.PREFLOP
                continue
            them = self.of(me, player, players)
            if street is Phase.PREFLOP:
                _count_answer(them, raises, raised[player], action.kind)
                if limped and not raises:
                    them.count("raise_limp", aggressive)
                limped |= limps
                raises += aggressive
                raised[player] |= aggressive
                if bet_on_street:
                    them.count("fold_pre", action.kind is ActionKind.FOLD)
                    them.count("threebet", aggressive)
            else:
                if bet_on_street:
                    them.count("fold_post", action.kind is ActionKind.FOLD)
                    them.count("raise_back", aggressive)
                if action.kind is not ActionKind.FOLD:
                    them.count("aggression", aggressive)
            bet_on_street |= aggressive
        vpip, pfr, walk = entered(preflop, players, street is not Phase.PREFLOP)
        for player in range(players):
            if player != me and player != walk:  # a walk is no chance of either
                them = self.of(me, player, players)
                them.count("vpip", player in vpip)
                them.count("pfr", player in pfr)


def _count_answer(them: Tendencies, raises: int, raised: bool, kind: ActionKind) -> None:
    """Count a preflop answer to the first raise (by one who has not raised) or to a re-raise of
    one's own raise."""
    if raises == 1 and not raised:
        them.count("fold_open", kind is ActionKind.FOLD)
        them.count("raise_open", kind is ActionKind.RAISE)
    elif raises >= 2 and raised:
        them.count("fold_reraised", kind is ActionKind.FOLD)
        them.count("raise_reraised", kind is ActionKind.RAISE)
