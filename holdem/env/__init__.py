"""Reinforcement-learning environments: PettingZoo (many agents) and Gymnasium (one agent against bots).

``holdem.env.env(players=6)`` is the PettingZoo AEC environment wrapped in PettingZoo's usual
checks, ``holdem.env.raw_env`` the bare one; ``holdem.env.HeadsUpEnv(opponent="equity")`` is a
Gymnasium environment against a `holdem` bot, ``holdem.env.VectorHeadsUpEnv(4096)`` a Gymnasium
vector env of thousands of tables (`holdem.vector`). Observations and actions: `holdem.env.encoding`.
Needs the ``rl`` extra: ``pip install 'holdem-engine[rl]'``.
"""

from __future__ import annotations

from holdem.console.arguments import install_hint

RL_HINT = f"holdem.env needs pettingzoo and gymnasium: {install_hint('rl')}"

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(RL_HINT) from error

from holdem.bots.observation import observation_size  # noqa: E402
from holdem.env.aec import env, raw_env  # noqa: E402  (after the check for the extra)
from holdem.env.encoding import ActionSpace, observation  # noqa: E402
from holdem.env.single import HeadsUpEnv, SingleAgentEnv  # noqa: E402
from holdem.env.vector import VectorHeadsUpEnv  # noqa: E402

if (
    "holdem/HeadsUp-v0" not in gymnasium.registry
):  # ``gymnasium.make("holdem/HeadsUp-v0", opponent="equity")``
    gymnasium.register("holdem/HeadsUp-v0", entry_point="holdem.env.single:HeadsUpEnv")
    gymnasium.register("holdem/SingleAgent-v0", entry_point="holdem.env.single:SingleAgentEnv")

__all__ = [
    "RL_HINT",
    "ActionSpace",
    "HeadsUpEnv",
    "SingleAgentEnv",
    "VectorHeadsUpEnv",
    "env",
    "observation",
    "observation_size",
    "raw_env",
]
