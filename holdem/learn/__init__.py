"""A bot that learns: a linear policy trained by policy gradient on `holdem.env.VectorHeadsUpEnv`.

``holdem.learn.train(seconds=60)`` returns a `LinearPolicy`; ``policy.save("p.npz")`` writes it and
``holdem.learn:PolicyBot[path=p.npz]`` plays it wherever a bot is taken (``holdem match``,
``holdem join``, tournaments). Needs the ``rl`` extra: ``pip install 'holdem-engine[rl]'``.
"""

from __future__ import annotations

from holdem.env import RL_HINT  # noqa: F401  (the env package checks for the extra)
from holdem.learn.policy import LinearPolicy, PolicyBot
from holdem.learn.train import Progress, calling_station, mixed, random_policy, train

__all__ = ["LinearPolicy", "PolicyBot", "Progress", "calling_station", "mixed", "random_policy", "train"]
