"""`VectorHeadsUpEnv`: a Gymnasium vector env of many heads-up tables against one opponent policy.

Built on `holdem.vector.VectorTables`: every step applies the agent's actions at all tables at once,
then the opponent's (a function of the batched observations and masks) until the agent is to act
everywhere again. An episode is a hand. With ``autoreset_mode=AutoresetMode.SAME_STEP`` (the
default) a table whose hand ended deals the next in the same step, so the observations returned are
those of the new hands; with ``NEXT_STEP`` (Gymnasium's own default, which its normalizing wrappers
need) the step that ends a hand returns its final observation, and the next step ignores that
table's action and returns the new hand's first observation, with no reward.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.env.encoding import observation_bounds
from holdem.env.reads import TableReads
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.hand.stakes import Stakes
from holdem.vector import VectorTables
from holdem.vector.engine import check_flag

__all__ = ["Opponent", "VectorHeadsUpEnv", "random_opponent"]

Array = npt.NDArray[Any]
Opponent = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""An opponent policy: actions (N,) from observations (N, obs_size) and action masks (N, A)."""

AGENT = 0  # the agent's seat; the opponent sits in seat 1, and the button alternates


def random_opponent(rng: np.random.Generator) -> Opponent:
    """A policy that picks uniformly among the legal actions."""

    def act(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.ArrayLike:
        chosen: npt.NDArray[np.intp] = np.argmax(rng.random(mask.shape) * mask, axis=1)
        return chosen

    return act


class VectorHeadsUpEnv(gymnasium.vector.VectorEnv[Array, Array, Array]):
    """`num_envs` heads-up hands at once: the agent in seat 0 against `opponent` (random by default).

    Observations and actions are `holdem.env.encoding`'s; ``infos["action_mask"]`` holds each
    table's mask (int8) for the agent's next decision. Rewards are the agent's chips won in big
    blinds when its hand ends. A hand that ends before the agent acts in it (the opponent folds its
    small blind) is no episode: its chips are reported in ``infos["skipped_reward"]``. Episodes end
    by termination only, so no final observation is kept (``final_obs`` is not needed to
    bootstrap a terminated episode).

    With ``reads=True`` each table also counts what its opponent does, across hands
    (`holdem.env.reads.TableReads`, as `holdem.bots.reads` counts from hand logs), and
    ``infos["reads"]`` holds each table's rates (`holdem.bots.reads.SEEN`); `forget` starts a table's
    counts again when its opponent changes. The agent's own actions are counted too
    (`agent_reads`: what an opponent that reads the agent would know of it).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent | None = None,
        *,
        stack: int | npt.ArrayLike = 200,
        stakes: Stakes | None = None,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
        seed: int | None = None,
        autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP,
        reads: bool = False,
    ) -> None:
        if autoreset_mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
            raise InvalidConfigError(
                f"autoreset_mode must be AutoresetMode.SAME_STEP or NEXT_STEP (a hand always ends in a"
                f" new one), got {autoreset_mode!r}"
            )
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": []}
        self.autoreset_mode = autoreset_mode
        stacks = stack if isinstance(stack, int) else np.repeat(np.asarray(stack).reshape(-1, 1), 2, axis=1)
        self.tables = VectorTables(num_envs, 2, stacks, stakes, seed=seed, fractions=fractions)
        self._resetting = np.zeros(num_envs, dtype=bool)  # NEXT_STEP: the hand ended at the last step
        self._shown: Array = np.zeros(0)  # the observations returned last
        self.num_envs = num_envs
        self.reads = TableReads(num_envs) if check_flag("reads", reads) else None
        self.agent_reads = TableReads(num_envs) if reads else None  # the agent, as its opponent sees it
        self._opponent_given = opponent
        self._rng = default_rng(seed)
        self.opponent = opponent if opponent is not None else random_opponent(self._rng)
        high = observation_bounds(2, 2 * int(np.max(stack)), self.tables.stakes.big_blind)
        self.single_observation_space = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(len(self.tables.actions))
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        if isinstance(seed, Sequence):
            raise ValueError("VectorHeadsUpEnv takes one seed for all its tables")
        if seed is not None:  # start the cards (and the random opponent) again from `seed`
            self.tables.reset(seed=seed)
            self._rng = default_rng(seed)
            if self._opponent_given is None:
                self.opponent = random_opponent(self._rng)
        else:  # go on from the random source as it is
            self.tables.reset()
        if self.reads is not None:
            self.reads, self.agent_reads = TableReads(self.num_envs), TableReads(self.num_envs)
        skipped = np.zeros(self.num_envs)
        self._play_opponent(np.zeros(self.num_envs, dtype=bool), np.zeros(self.num_envs), skipped)
        self._resetting[:] = False
        self._shown = self.tables.observe()
        return self._shown, self._infos(skipped)

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        t = self.tables
        resetting = self._resetting
        before = t.observe()
        if resetting.any():  # NEXT_STEP: these tables' actions are ignored; their new hands wait
            rewards, done = t.step(np.asarray(actions), where=~resetting)
        else:
            rewards, done = t.step(np.asarray(actions))
        if self.reads is not None and self.agent_reads is not None:
            rows = np.nonzero(~resetting)[0]
            self.agent_reads.note(rows, before[rows], np.asarray(actions, dtype=np.int64)[rows])
            self.reads.end(done)
            self.agent_reads.end(done)
        reward = rewards[:, AGENT].astype(np.float64)
        skipped = np.zeros(self.num_envs)
        self._play_opponent(done, reward, skipped)
        truncated = np.zeros(self.num_envs, dtype=bool)
        obs = t.observe()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            obs = obs.copy()
            obs[done] = self._shown[done]  # the ended hand's last observation: what the agent acted on
            self._resetting = done.copy()
        self._shown = obs
        return obs, reward, done, truncated, self._infos(skipped)

    def forget(self, tables: npt.NDArray[np.int64] | npt.NDArray[np.bool_]) -> None:
        """Another opponent plays at `tables` (indices or a mask): the reads of it, and its reads of
        the agent, start from nothing."""
        for reads in (self.reads, self.agent_reads):
            if reads is not None:
                reads.forget(tables)

    def _play_opponent(self, ended: Array, reward: Array, skipped: Array) -> None:
        """Let the opponent act until the agent is to act at every table; a hand that ends goes to
        the episode if the episode's hand had not ended yet (`ended`), else to `skipped`."""
        t = self.tables
        while (waiting := t.actor != AGENT).any():
            obs = t.observe()
            chosen = np.asarray(self.opponent(obs, t.legal))
            if chosen.dtype.kind not in "iu":  # 1.9 is no action: refused, never truncated
                raise IllegalActionError(f"the opponent must return whole action numbers, got {chosen.dtype}")
            rewards, done = t.step(chosen.astype(np.int64), where=waiting)
            if self.reads is not None and self.agent_reads is not None:
                rows = np.nonzero(waiting)[0]
                self.reads.note(rows, obs[rows], chosen.astype(np.int64)[rows])
                self.reads.end(done)
                self.agent_reads.end(done)
            mine = rewards[:, AGENT]
            reward += np.where(ended, 0.0, mine)
            skipped += np.where(ended, mine, 0.0)
            ended |= done

    def _infos(self, skipped: Array) -> dict[str, Any]:
        infos = {"action_mask": self.tables.legal.astype(np.int8), "skipped_reward": skipped}
        if self.reads is not None:
            infos["reads"] = self.reads.rates()
        return infos
