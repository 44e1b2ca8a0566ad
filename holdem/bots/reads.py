"""What a bot learns of its opponents from the hands it has seen: each one's tendencies, counted.

`Reads` keeps, per opponent, how often they put chips in voluntarily and raised before the flop,
re-raised or folded when facing a raise before the flop, folded or raised when facing a bet after
it, and bet or raised after it, each as actions over chances. Opponents are told apart by their
seat relative to the reader's, which stays the same for each opponent in a match (the bots rotate
together) and at a table. Each rate starts from a prior worth a few hands of a typical player
(`PRIORS`), so a few hands move it little and many hands decide it.
"""

from __future__ import annotations

from holdem.hand.actions import ActionKind
from holdem.hand.events import EventKind, LogEntry, Phase

__all__ = ["PRIORS", "Reads", "Tendencies"]

PRIORS = {"vpip": (0.45, 8.0), "pfr": (0.15, 8.0), "threebet": (0.08, 6.0), "fold_pre": (0.45, 6.0),
          "fold_post": (0.40, 6.0), "aggression": (0.35, 6.0), "raise_back": (0.15, 6.0)}  # fmt: skip
"""Each rate's prior: (rate, weight in chances)."""


class Tendencies:
    """One opponent's counts: actions and chances for each rate in `PRIORS`."""

    __slots__ = ("actions", "chances")

    def __init__(self) -> None:
        self.actions = dict.fromkeys(PRIORS, 0)
        self.chances = dict.fromkeys(PRIORS, 0)

    def rate(self, name: str) -> float:
        """The rate, blended with its prior."""
        prior, weight = PRIORS[name]
        return (self.actions[name] + prior * weight) / (self.chances[name] + weight)

    def count(self, name: str, did: bool) -> None:
        self.chances[name] += 1
        self.actions[name] += did


class Reads:
    """Tendencies of each opponent, by seat relative to the reader."""

    def __init__(self) -> None:
        self.seats: dict[int, Tendencies] = {}

    def of(self, me: int, player: int, players: int) -> Tendencies:
        """The tendencies of `player`, seen from `me` at a table of `players`."""
        return self.seats.setdefault((player - me) % players, Tendencies())

    def learn(self, me: int, players: int, log: tuple[LogEntry, ...]) -> None:
        """Count a finished hand's public actions (`SeatView.public_log`) for every opponent."""
        voluntary, raised = [False] * players, [False] * players
        street, bet_on_street = Phase.PREFLOP, False
        for kind, player, _, _, action, phase in log:
            if kind != EventKind.ACTION or player is None or action is None:
                continue
            if phase is not street:
                street, bet_on_street = phase, False
            if player == me:
                bet_on_street |= action.kind is ActionKind.RAISE
                continue
            them = self.of(me, player, players)
            aggressive = action.kind is ActionKind.RAISE
            if street is Phase.PREFLOP:
                voluntary[player] |= action.kind in (ActionKind.CALL, ActionKind.RAISE)
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
        for player in range(players):
            if player != me:
                them = self.of(me, player, players)
                them.count("vpip", voluntary[player])
                them.count("pfr", raised[player])
