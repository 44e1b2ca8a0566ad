"""A linear softmax policy over `holdem.learn.features`, saved as ``.npz``, and the bot that plays it.

The policy gives each legal action the probability ``softmax(features @ weights)`` (illegal
actions none). All-zero weights are the untrained policy: every legal action alike. A policy
file holds the weights and the pot fractions of the action space it was trained with, so the
bot plays the same actions at any table: ``holdem match 'holdem.learn:PolicyBot[path=p.npz]' ...``.
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import numpy as np
import numpy.typing as npt

from holdem.bots.reads import SEEN, Reads
from holdem.env.encoding import ActionSpace, observation
from holdem.errors import BotLoadError
from holdem.hand.actions import Action
from holdem.hand.events import HandResult
from holdem.hand.views import SeatView
from holdem.learn.features import FEATURES, READS, features

__all__ = ["LinearPolicy", "PolicyBot"]

Floats = npt.NDArray[np.float64]
_FACING = FEATURES.index("facing a bet")


@attrs.frozen(eq=False)
class LinearPolicy:
    """Weights ``(len(FEATURES), actions)`` and the pot fractions the actions raise by."""

    weights: Floats
    fractions: tuple[float, ...] = (0.5, 1.0, 2.0)

    @classmethod
    def untrained(cls, fractions: tuple[float, ...] = (0.5, 1.0, 2.0)) -> LinearPolicy:
        """The policy before learning: every legal action equally likely."""
        return cls(np.zeros((len(FEATURES), len(fractions) + 3)), fractions)

    def probabilities(self, feats: npt.NDArray[np.float32], mask: npt.ArrayLike) -> Floats:
        """``(N, actions)`` probabilities of each action, given features and legality masks. A fold
        where a check is free is never played (it is never better than the check)."""
        legal = np.asarray(mask).astype(bool).copy()
        legal[:, 0] &= feats[:, _FACING] > 0
        logits = np.where(legal, feats @ self.weights, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        result: Floats = weights / weights.sum(axis=1, keepdims=True)
        return result

    def save(self, path: str | Path) -> None:
        """Write the policy to an ``.npz`` file."""
        np.savez(path, weights=self.weights, fractions=np.array(self.fractions), features=np.array(FEATURES))

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy written by `save`; a missing, damaged or foreign file is a `BotLoadError`."""
        try:
            with np.load(path, allow_pickle=False) as data:
                weights, fractions, names = data["weights"], data["fractions"], data["features"]
        except (OSError, ValueError, KeyError, EOFError) as error:
            raise BotLoadError(f"cannot read policy {str(path)!r}: {error}") from None
        names = tuple(str(name) for name in names)
        if names != FEATURES[: len(names)] or len(names) not in (READS, len(FEATURES)):
            raise BotLoadError(f"policy {str(path)!r} was trained on other features than this holdem's")
        if weights.shape != (len(names), len(fractions) + 3) or not np.isfinite(weights).all():
            raise BotLoadError(f"policy {str(path)!r} has weights of shape {weights.shape} or not finite")
        # A policy of 0.1 saw no reads: it plays as it did, weighing the opponent's features by 0.
        full = np.zeros((len(FEATURES), weights.shape[1]))
        full[: len(names)] = weights
        return cls(full, tuple(float(f) for f in fractions))


class PolicyBot:
    """Plays a trained `LinearPolicy` from `path`, drawing each action from its probabilities, with
    what it has read of its opponents (`holdem.bots.reads`: by name, and a new player from nothing;
    at a table of more than two, the mean of the live opponents' rates)."""

    def __init__(self, path: str) -> None:
        self.policy = LinearPolicy.load(path)
        self.actions = ActionSpace(self.policy.fractions)
        self.rng = random.Random()
        self.reads = Reads()

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng

    def meet(self, names: tuple[str, ...]) -> None:
        """Who plays the next hand: a new name is a new player, read from nothing."""
        self.reads.meet(names)

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        """Count the hand's public actions of each opponent."""
        self.reads.learn(view.player, view.players, view.public_log)

    def them(self, view: SeatView) -> npt.NDArray[np.float64]:
        """The live opponents' `SEEN` rates, averaged."""
        me, n = view.player, view.players
        live = [p for p in range(n) if p != me and not view.folded[p]] or [p for p in range(n) if p != me]
        rates = [[self.reads.of(me, p, n).rate(name) for name in SEEN] for p in live]
        mean: npt.NDArray[np.float64] = np.mean(rates, axis=0)
        return mean

    def act(self, view: SeatView) -> Action:
        mask = self.actions.mask(view)
        feats = features(observation(view), self.them(view)[None, :])
        probs = self.policy.probabilities(feats, mask[None, :])[0]
        index = self.rng.choices(range(len(probs)), weights=probs.tolist())[0]
        action = self.actions.action(view, index)
        assert action is not None  # the mask allows only legal actions
        return action
