"""Learning a `LinearPolicy` on `holdem.env.VectorHeadsUpEnv` by policy gradient (REINFORCE).

Each update plays a batch of decisions at thousands of tables at once; every decision of a hand
is credited with the chips the hand won (in big blinds) less a learned linear estimate of them
(the baseline), and the weights take an Adam step up the gradient of the log-probabilities of
the actions played, weighted by that advantage, plus a little entropy. The opponent at each table
is one of `opponents` (row by row), or of a league of the panel's styles and the policy's own
past versions, so the policy meets several styles at once, at stack depths from 15 to 200 big
blinds that its features see.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.env.vector import Array, Opponent, VectorHeadsUpEnv
from holdem.learn.features import FEATURES, features
from holdem.learn.league import EquityStandIn, League, style_opponent
from holdem.learn.policy import LinearPolicy

__all__ = ["Progress", "calling_station", "mixed", "random_policy", "train"]

Floats = npt.NDArray[np.float64]


def calling_station(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.ArrayLike:
    """Always check or call (action 1), as the ``calling-station`` bot."""
    return np.ones(len(obs), dtype=np.int64)


def random_policy(rng: np.random.Generator) -> Opponent:
    """Uniform among the legal actions (not the ``random`` bot, which picks a kind of action
    first: `holdem.learn.league.random_bot` is that one)."""

    def act(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.ArrayLike:
        chosen: npt.NDArray[np.intp] = np.argmax(rng.random(mask.shape) * mask, axis=1)
        return chosen

    return act


def mixed(opponents: Sequence[Opponent]) -> Opponent:
    """Table ``i`` plays against ``opponents[i % len(opponents)]``."""

    def act(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.ArrayLike:
        chosen = np.empty(len(obs), dtype=np.int64)
        for k, opponent in enumerate(opponents):
            rows = np.arange(k, len(obs), len(opponents))
            chosen[rows] = np.asarray(opponent(obs[rows], mask[rows]))
        return chosen

    return act


@attrs.frozen
class Progress:
    """One point of the learning curve: hands finished so far, seconds, the mean reward (big blinds
    a hand) of the hands finished since the last point, and the policy as it stands."""

    hands: int
    seconds: float
    reward: float
    policy: LinearPolicy = attrs.field(eq=False, repr=False)


@attrs.frozen
class _Decisions:
    """Decisions made at every table in one step: features, actions, their probabilities, and the
    hand (numbered across the run) each belongs to."""

    feats: npt.NDArray[np.float32]
    chosen: npt.NDArray[np.int64]
    probs: Floats
    hand: npt.NDArray[np.int64]
    group: npt.NDArray[np.int64]

    def where(self, rows: npt.NDArray[np.bool_]) -> _Decisions:
        return _Decisions(
            self.feats[rows], self.chosen[rows], self.probs[rows], self.hand[rows], self.group[rows]
        )


@attrs.define
class _Adam:
    """Adam's moment estimates for one array of parameters."""

    rate: float
    m: Floats
    v: Floats
    t: int = 0

    def step(self, gradient: Floats) -> Floats:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * gradient
        self.v = 0.999 * self.v + 0.001 * gradient**2
        m_hat, v_hat = self.m / (1 - 0.9**self.t), self.v / (1 - 0.999**self.t)
        result: Floats = self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        return result


def _check_training(seconds: float | None, hands: int | None, depths: tuple[float, float]) -> None:
    """When to stop and the depths, checked (`ValueError` naming the setting)."""
    if seconds is None and hands is None:
        raise ValueError("train needs seconds=, hands= or both, to know when to stop")
    if seconds is not None and not seconds > 0:  # (a NaN too)
        raise ValueError(f"train's seconds must be above 0, got {seconds!r}")
    if hands is not None and (type(hands) is not int or hands < 1):
        raise ValueError(f"train's hands must be a whole number from 1 up, got {hands!r}")
    if not 1 <= depths[0] <= depths[1]:
        raise ValueError(f"depths are two numbers of big blinds, the first at least 1, got {depths!r}")


def train(
    *,
    seconds: float | None = None,
    hands: int | None = None,
    seed: int = 0,
    tables: int = 1024,
    steps_per_update: int = 16,
    rate: float = 0.03,
    entropy: float = 0.01,
    opponents: Sequence[Opponent] | None = None,
    policy: LinearPolicy | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    bar: bool = True,
    depths: tuple[float, float] = (15.0, 200.0),
    past: int = 3,
    remember_every: int = 25,
    forget_every: int = 400,
) -> LinearPolicy:
    """Train from `policy` (untrained by default) until `seconds` have passed or `hands` hands have
    ended, whichever comes first; `on_progress` hears of each update, and a bar shows the progress
    on standard error when it is a terminal (`bar`).

    Each table plays at its own depth, drawn between `depths` big blinds (evenly in the logarithm).
    The opponents, a table each in turn, are a league unless given: the panel's five styles and a
    stand-in for the ``equity`` bot (`holdem.learn.league`), and `past` earlier versions of the
    policy, the oldest replaced by the current one every `remember_every` updates. Each opponent's
    hands weigh alike in an update, whatever the size of its pots (measured: with
    ``calling-station`` and ``random`` in the league, their huge pots drowned the rest, and the
    policy learned to bet into everyone).

    The policy sees its opponent: each table counts what its opponent does across hands
    (`VectorHeadsUpEnv(reads=True)`), as `PolicyBot` counts from the hands it plays. A table's
    counts start again when a new past self takes it, and after any hand with chance
    1/`forget_every`, so that the policy also learns to play opponents it has just met."""
    _check_training(seconds, hands, depths)
    rng = default_rng(seed)
    current = policy if policy is not None else LinearPolicy.untrained()
    fractions = current.fractions
    env, league, groups = _environment(current, opponents, past, depths, tables, seed, rng)
    on_progress, finish = _with_bar(on_progress, hands, seconds, bar)
    weights, baseline = current.weights.copy(), np.zeros(len(FEATURES))
    adam = _Adam(rate, np.zeros_like(weights), np.zeros_like(weights))
    obs, info = env.reset(seed=seed)
    track = _Hands(np.arange(tables), tables, np.arange(tables) % groups)
    finished, start = 0, time.perf_counter()
    while (hands is None or finished < hands) and (seconds is None or time.perf_counter() - start < seconds):
        for _ in range(steps_per_update):
            obs, info, done = _step(env, rng, LinearPolicy(weights, fractions), obs, info, track)
            env.forget(done & (rng.random(tables) < 1 / forget_every))
        rewards = list(track.ends.values())
        finished += len(rewards)
        weights, track.pending = _update(weights, baseline, adam, track.pending, track.ends, entropy, groups)
        track.ends.clear()  # every decision of an ended hand was made before it ended: all used
        if league is not None and adam.t % remember_every == 0:
            league.remember(LinearPolicy(weights.copy(), fractions))
            env.forget(track.group >= len(league.fixed))  # a new past self at these tables
        if on_progress is not None and rewards:
            elapsed = time.perf_counter() - start
            on_progress(
                Progress(finished, elapsed, float(np.mean(rewards)), LinearPolicy(weights, fractions))
            )
    finish()
    return LinearPolicy(weights, fractions)


@attrs.define
class _Hands:
    """The hand each table is playing (numbered across the run), its opponent's group, the decisions
    not yet used in an update, and the reward of each hand ended since the last update."""

    hand: npt.NDArray[np.int64]
    next: int
    group: npt.NDArray[np.int64]
    pending: list[_Decisions] = attrs.field(factory=list)
    ends: dict[int, float] = attrs.field(factory=dict)

    def ended(self, done: Array, reward: Array) -> None:
        """Note the reward of each hand that has just ended, and number the tables' next hands."""
        for i in np.nonzero(done)[0].tolist():
            self.ends[int(self.hand[i])] = float(reward[i])
            self.hand[i], self.next = self.next, self.next + 1


def _step(
    env: VectorHeadsUpEnv, rng: np.random.Generator, policy: LinearPolicy, obs: Array, info: dict[str, Any],
    track: _Hands,
) -> tuple[Array, dict[str, Any], Array]:  # fmt: skip
    """One decision at every table, drawn from `policy` and kept in `track`: the next observations,
    infos, and which tables' hands ended."""
    feats = features(obs, info["reads"])
    probs = policy.probabilities(feats, info["action_mask"])
    chosen = np.minimum((probs.cumsum(axis=1) < rng.random((len(probs), 1))).sum(axis=1), probs.shape[1] - 1)
    track.pending.append(_Decisions(feats, chosen, probs, track.hand.copy(), track.group))
    obs, reward, done, _, info = env.step(chosen)
    track.ended(done, reward)
    return obs, info, done


def _update(
    weights: Floats, baseline: Floats, adam: _Adam, pending: list[_Decisions], ends: dict[int, float],
    entropy: float, groups: int,
) -> tuple[Floats, list[_Decisions]]:  # fmt: skip
    """One policy-gradient step from the decisions whose hands have ended (`ends`: hand -> reward);
    the new weights, and the decisions still waiting for their hands to end."""
    ended = [
        np.fromiter((h in ends for h in d.hand.tolist()), dtype=bool, count=len(d.hand)) for d in pending
    ]
    used = [d.where(e) for d, e in zip(pending, ended, strict=True)]
    waiting = [d.where(~e) for d, e in zip(pending, ended, strict=True) if not e.all()]
    x = np.concatenate([d.feats for d in used]).astype(np.float64)
    if not len(x):
        return weights, waiting
    p, a = np.concatenate([d.probs for d in used]), np.concatenate([d.chosen for d in used])
    returns = np.array([ends[h] for d in used for h in d.hand.tolist()])
    advantage = returns - x @ baseline
    baseline += 0.05 * x.T @ advantage / len(x) / max(1.0, float(np.mean(x * x)) * len(FEATURES))
    group = np.concatenate([d.group for d in used])
    spread = np.ones(groups)
    for k in range(groups):  # each opponent's hands weigh alike, whatever the size of its pots
        at = group == k
        if at.sum() > 1:
            spread[k] = advantage[at].std() + 1e-8
    scale = advantage / spread[group]
    grad_logp = -p
    grad_logp[np.arange(len(a)), a] += 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = np.where(p > 0, np.log(p), 0.0)
    entropy_grad = -p * (logp - (p * logp).sum(axis=1, keepdims=True))
    gradient = x.T @ (grad_logp * scale[:, None] + entropy * entropy_grad) / len(x)
    return weights + adam.step(gradient), waiting


def _with_bar(
    on_progress: Callable[[Progress], None] | None, hands: int | None, seconds: float | None, bar: bool
) -> tuple[Callable[[Progress], None] | None, Callable[[], None]]:
    """`on_progress` that also draws a bar of hands (or of seconds, without `hands`) on standard
    error when it is a terminal and `bar` is true; and what closes the bar at the end."""
    from holdem.console.progress import counter

    show = counter("hands" if hands is not None else "s", quiet=not bar)
    if show is None:
        return on_progress, lambda: None
    total = hands if hands is not None else max(1, round(seconds or 0))
    show(0, total)

    def both(point: Progress) -> None:
        show(min(point.hands if hands is not None else int(point.seconds), total), total)
        if on_progress is not None:
            on_progress(point)

    return both, lambda: show(total, total)


def _environment(
    current: LinearPolicy, opponents: Sequence[Opponent] | None, past: int, depths: tuple[float, float],
    tables: int, seed: int, rng: np.random.Generator,
) -> tuple[VectorHeadsUpEnv, League | None, int]:  # fmt: skip
    """The tables (each at its own depth), the league when no opponents are given, and how many
    opponents take the tables in turn."""
    league = None
    if opponents is None:
        league = _league(seed, past)
        league.remember(current)
    opponent = league if league is not None else mixed(opponents or [])
    low, high = np.log(depths[0]), np.log(depths[1])
    stacks = np.maximum(np.round(np.exp(rng.uniform(low, high, tables)) * 2), 4).astype(np.int64)
    env = VectorHeadsUpEnv(tables, opponent, stack=stacks, seed=seed, fractions=current.fractions, reads=True)
    if league is not None:
        league.agent = env.agent_reads
    groups = len(league.opponents) if league is not None else max(1, len(opponents or []))
    return env, league, groups


def _league(seed: int, past: int) -> League:
    from holdem.bots.styles import STYLES

    rng = default_rng([seed, 1])
    return League([*(style_opponent(name, rng) for name in STYLES), EquityStandIn(rng)], past, rng)
