"""A single-agent Gymnasium environment: one learning agent against `holdem` bots, a hand per episode."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from holdem.bots import Bot, BotSpec, load_bot
from holdem.bots.decide import Hooks, decide
from holdem.env.aec import Observation, render
from holdem.env.encoding import ActionSpace, observation, observation_bounds
from holdem.errors import InvalidConfigError
from holdem.hand.actions import Action
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.state import Hand

__all__ = ["HeadsUpEnv", "SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays hands against `opponents` (bot specs, as `holdem match` takes them).

    Observations, actions and rewards are those of the PettingZoo environment (`holdem.env.encoding`):
    a dict of the observation vector and the action mask, discrete actions, and the chips won in
    big blinds when the hand ends. The button moves every episode, so the agent plays every
    position in turn. An action the mask forbids is replaced by check-or-fold and flagged
    ``info["illegal"]`` (``illegal="error"`` raises ValueError instead). Opponents that fail
    (raise, answer illegally) check or fold, as in a match. ``info["view"]`` is the agent's `SeatView`.
    A hand in which the agent has no decision (all fold to its big blind) is not an episode: `reset`
    deals on, and reports the chips of such hands in ``info["skipped_reward"]`` (big blinds), so the
    rewards plus the skipped rewards are all the chips the agent won.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (gymnasium.Env declares it so)

    def __init__(
        self,
        opponents: Sequence[BotSpec] = ("random",),
        stack: int = 200,
        stakes: Stakes | None = None,
        rules: Rules | None = None,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
        illegal: str = "fallback",
        render_mode: str | None = None,
    ) -> None:
        if not 1 <= len(opponents) <= 9:
            raise InvalidConfigError(f"1 to 9 opponents, got {len(opponents)}")
        if type(stack) is not int or stack <= 0:
            raise InvalidConfigError(f"stack must be a positive whole number, got {stack!r}")
        if illegal not in ("fallback", "error"):
            raise InvalidConfigError(f"illegal must be 'fallback' or 'error', got {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise InvalidConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.bots: list[Bot] = [load_bot(spec) for spec in opponents]
        self.hooks = [Hooks(bot) for bot in self.bots]  # the life cycle of `holdem.bots.decide`
        self.bot_faults = 0
        """The opponents' faults so far: answers replaced by check or fold, hooks that failed."""
        self.stakes = stakes if stakes is not None else Stakes(1, 2)
        self.rules = rules
        self.stack = stack
        self.actions = ActionSpace(fractions)
        self.illegal = illegal
        self.render_mode = render_mode
        n = len(self.bots) + 1
        high = observation_bounds(n, n * stack, self.stakes.big_blind)
        self.observation_space = spaces.Dict(  # type: ignore[assignment]  # a Dict space of arrays
            {
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.actions),), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(len(self.actions))
        self._deck_rng = random.Random()
        self._episode = 0
        self._hand: Hand | None = None
        self._me = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._deck_rng = random.Random(seed)
            self._episode = 0
            for i, hooks in enumerate(self.hooks):
                self._fault(hooks.seed(random.Random(f"{seed}/{i}")))
        skipped = 0.0
        while True:  # a hand that ends before the agent acts (everybody folds to its big blind) is no episode
            self._deal()
            hand = self.hand
            if hand.actor is not None:
                break
            self._end_hand()
            skipped += (hand.stacks[self._me] - hand.starting_stacks[self._me]) / self.stakes.big_blind
        obs, info = self._observe(False)
        return obs, {**info, "skipped_reward": skipped}

    def _deal(self) -> None:
        n = len(self.bots) + 1
        self._me = self._episode % n  # the agent's dealing position; the bots fill the others in order
        self._episode += 1
        self._hand = hand = Hand.start([self.stack] * n, self.stakes, rules=self.rules, rng=self._deck_rng)
        names = tuple("agent" if p == self._me else f"bot {self._bots_index(p)}" for p in range(n))
        for p in range(n):
            if p != self._me:
                self._fault(self.hooks[self._bots_index(p)].meet_players(names))
                self._fault(self.hooks[self._bots_index(p)].start(hand, p))
        self._play_bots()

    def _end_hand(self) -> None:
        hand = self.hand
        for p in range(len(self.bots) + 1):
            if p != self._me:
                self._fault(self.hooks[self._bots_index(p)].end(hand, p))

    def _fault(self, found: tuple[str, str | None] | None) -> None:
        self.bot_faults += found is not None

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        hand = self.hand
        if hand.actor is None:
            raise InvalidConfigError("the hand is over: call reset() to start the next one")
        move: Action | None = self.actions.action(hand.view(self._me), action)
        flagged = move is None
        if move is None:
            if self.illegal == "error":
                raise ValueError(f"action {action!r} is not legal now (see the observation's action_mask)")
            legal = hand.legal_actions()
            move = Action.check() if legal is not None and legal.can_check else Action.fold()
        hand.act(move, self._me)
        self._play_bots()
        done = hand.actor is None
        reward = (
            (hand.stacks[self._me] - hand.starting_stacks[self._me]) / self.stakes.big_blind if done else 0.0
        )
        if done:
            self._end_hand()
        obs, info = self._observe(flagged)
        return obs, reward, done, False, info

    @property
    def hand(self) -> Hand:
        if self._hand is None:
            raise InvalidConfigError("call reset() before step()")
        return self._hand

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        n = len(self.bots) + 1
        names = ["agent" if p == self._me else f"bot_{self._bots_index(p)}" for p in range(n)]
        return render(self.hand, names)

    def _bots_index(self, p: int) -> int:
        return p if p < self._me else p - 1

    def _bot(self, p: int) -> Bot:
        return self.bots[self._bots_index(p)]

    def _play_bots(self) -> None:
        hand = self.hand
        while hand.actor is not None and hand.actor != self._me:
            self._fault(decide(self._bot(hand.actor), hand)[1])

    def _observe(self, illegal: bool) -> tuple[Observation, dict[str, Any]]:
        """The agent's observation and info, from one view."""
        view = self.hand.view(self._me)
        obs: Observation = {"observation": observation(view), "action_mask": self.actions.mask(view)}
        return obs, {"view": view, "illegal": illegal}


class HeadsUpEnv(SingleAgentEnv):
    """Heads-up against one bot: ``HeadsUpEnv(opponent="equity")``; other arguments as `SingleAgentEnv`."""

    def __init__(self, opponent: BotSpec = "random", **kwargs: Any) -> None:
        super().__init__(opponents=(opponent,), **kwargs)
