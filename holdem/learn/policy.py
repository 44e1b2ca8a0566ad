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

from holdem.env.encoding import ActionSpace, observation
from holdem.errors import BotLoadError
from holdem.hand.actions import Action
from holdem.hand.views import SeatView
from holdem.learn.features import FEATURES, features

__all__ = ["LinearPolicy", "PolicyBot"]

Floats = npt.NDArray[np.float64]


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
        """``(N, actions)`` probabilities of each action, given features and legality masks."""
        legal = np.asarray(mask).astype(bool)
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
        if tuple(str(name) for name in names) != FEATURES:
            raise BotLoadError(f"policy {str(path)!r} was trained on other features than this holdem's")
        if weights.shape != (len(FEATURES), len(fractions) + 3) or not np.isfinite(weights).all():
            raise BotLoadError(f"policy {str(path)!r} has weights of shape {weights.shape} or not finite")
        return cls(weights.astype(np.float64), tuple(float(f) for f in fractions))


class PolicyBot:
    """Plays a trained `LinearPolicy` from `path`, drawing each action from its probabilities."""

    def __init__(self, path: str) -> None:
        self.policy = LinearPolicy.load(path)
        self.actions = ActionSpace(self.policy.fractions)
        self.rng = random.Random()

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView) -> Action:
        mask = self.actions.mask(view)
        probs = self.policy.probabilities(features(observation(view)), mask[None, :])[0]
        index = self.rng.choices(range(len(probs)), weights=probs.tolist())[0]
        action = self.actions.action(view, index)
        assert action is not None  # the mask allows only legal actions
        return action
