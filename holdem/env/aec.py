"""A PettingZoo AEC environment: one hand of hold'em per episode, agents acting in turn."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from holdem.bots.observation import observation_size
from holdem.env.encoding import ActionSpace, observation, observation_bounds
from holdem.errors import InvalidConfigError
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.state import Hand
from holdem.hand.views import SeatView
from holdem.hand.views import views as all_views

__all__ = ["Observation", "env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """No-limit (or any structure's) hold'em for 2–10 agents, one hand per episode.

    Agents are ``player_0`` … ``player_{N-1}``. With `rotate_button` the button moves one seat
    clockwise each episode, as at a table (agent i sits at dealing position ``(i - episode) % N``,
    where the episode count restarts at every seeded reset); otherwise agent i always has dealing
    position i. Everyone starts each episode with `stacks` (one number or one per agent). The
    reward is the chips won or lost in the hand, in big blinds, given when it ends. Each agent's
    info holds its `SeatView` under ``"view"``. An action the mask forbids raises ValueError and
    changes nothing.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "holdem_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        stacks: int | Sequence[int] = 200,
        stakes: Stakes | None = None,
        rules: Rules | None = None,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
        rotate_button: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if type(players) is not int or not 2 <= players <= 10:
            raise InvalidConfigError(f"players must be 2 to 10, got {players!r}")
        starting = [stacks] * players if isinstance(stacks, int) else list(stacks)
        if len(starting) != players or not all(type(s) is int and s > 0 for s in starting):
            raise InvalidConfigError(f"stacks must be {players} positive whole numbers, got {stacks!r}")
        if render_mode not in (None, "ansi"):
            raise InvalidConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.stakes = stakes if stakes is not None else Stakes(1, 2)
        self.rules = rules
        self.stacks = tuple(starting)
        self.actions = ActionSpace(fractions)
        self.rotate_button = rotate_button
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        high = observation_bounds(players, sum(starting), self.stakes.big_blind)
        box = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        mask = spaces.Box(0, 1, (len(self.actions),), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.actions)) for a in self.possible_agents}
        self._size = observation_size(players)
        self._rng = random.Random()
        self._episode = 0
        self._hand: Hand | None = None
        self._seat_of: dict[str, int] = {}
        self._agent_at: list[str] = []
        self._views: list[SeatView] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def hand(self) -> Hand:
        """The hand being played (after `reset`)."""
        if self._hand is None:
            raise InvalidConfigError("call reset() before using the environment")
        return self._hand

    def seat_of(self, agent: str) -> int:
        """The agent's dealing position in this episode (0 left of the button, N - 1 the button)."""
        return self._seat_of[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            self._episode = 0
        n = len(self.possible_agents)
        shift = self._episode % n if self.rotate_button else 0
        self._episode += 1
        order = [(p + shift) % n for p in range(n)]  # the agent index at each dealing position
        self._agent_at = [self.possible_agents[i] for i in order]
        self._seat_of = {agent: p for p, agent in enumerate(self._agent_at)}
        stacks = [self.stacks[i] for i in order]
        self._hand = Hand.start(stacks, self.stakes, rules=self.rules, rng=self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._sync()

    def observe(self, agent: str) -> Observation:
        view = self._views[self._seat_of[agent]]
        return {"observation": observation(view), "action_mask": self.actions.mask(view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._seat_of[agent]
        move = self.actions.action(self._views[p], action) if action is not None else None
        if move is None:
            raise ValueError(self._refusal(agent, action))
        self.hand.act(move, p)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._sync()
        self._accumulate_rewards()

    def _refusal(self, agent: str, action: object) -> str:
        """Why `action` cannot be taken now (names the legal actions by number)."""
        names = self.actions.names
        mask = self.actions.mask(self._views[self._seat_of[agent]])
        legal = ", ".join(f"{i} {name}" for i, (name, ok) in enumerate(zip(names, mask, strict=True)) if ok)
        if not isinstance(action, int | np.integer) or not 0 <= action < len(names):
            return f"action {action!r} is not one of 0..{len(names) - 1}; legal for {agent} now: {legal}"
        return f"action {action} ({names[action]}) is not legal for {agent} now; legal: {legal}"

    def _sync(self) -> None:
        """Refresh views, infos, and the agent to act; hand out rewards when the hand is over."""
        hand = self.hand
        self._views = views = all_views(hand)
        for p, agent in enumerate(self._agent_at):
            self.infos[agent] = {"view": views[p]}
        if hand.actor is not None:
            self.agent_selection = self._agent_at[hand.actor]
            return
        bb = self.stakes.big_blind
        for p, agent in enumerate(self._agent_at):
            self.rewards[agent] = (hand.stacks[p] - hand.starting_stacks[p]) / bb
            self.terminations[agent] = True
        self.agent_selection = self._agent_at[0]

    def render(self) -> str | None:
        """The table as text (every hole card shown: this is the view of whoever runs the environment)."""
        if self.render_mode is None:
            return None
        return render(self.hand, self._agent_at)

    def close(self) -> None:
        self._hand = None


def render(hand: Hand, names: Sequence[str]) -> str:
    """A text picture of `hand` with every player's cards, for people watching an environment."""
    board = " ".join(str(card) for card in hand.board) or "-"
    lines = [f"{hand.phase.name.lower()}  board {board}  pot {hand.pot}"]
    for p, name in enumerate(names):
        status = "folded" if hand.folded[p] else ("all-in" if not hand.stacks[p] else "")
        marks = ("D " if p == len(names) - 1 else "  ") + ("> " if hand.actor == p else "  ")
        cards = " ".join(str(card) for card in hand.holes[p])
        chips = f"stack {hand.stacks[p]:>6}  bet {hand.bets[p]:>5}"
        lines.append(f"{marks}{name:<10} {cards:<6} {chips}  {status}".rstrip())
    return "\n".join(lines)


def env(**kwargs: Any) -> Any:
    """`raw_env` in PettingZoo's order-enforcing wrapper (reset before step, and so on). Out-of-bounds
    and masked actions need no wrapper: `raw_env.step` refuses them with a ValueError naming the
    legal ones."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
