"""Opponents to learn against, many tables at once: the panel's styles, the ``random`` bot, and
past versions of the policy (a league).

A style here plays by `holdem.bots.styles.STYLES` on observations alone: before the flop the same
shares of starting hands open, limp, call and re-raise; after it, by its equity against a random
hand sampled as the panel bot samples it (32 deals where the panel's bot takes 200), so the vector
opponents are the panel's styles, not their exact decisions. (Until 0.2 a made hand's category
stood in for that equity: a flush draw counted as nothing, and a policy trained against those
opponents learned to shove rivers into them and lost to the panel itself.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from holdem.bots.equity import starting_hand_percentiles
from holdem.bots.observation import BOARD, FIXED, HOLE, STREET, seats_at
from holdem.bots.styles import STYLES, Style
from holdem.cards.batch import strengths_of
from holdem.env.vector import Opponent
from holdem.learn.features import features
from holdem.learn.policy import LinearPolicy

__all__ = ["League", "policy_opponent", "random_bot", "sampled_equity", "style_opponent"]

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


@cache
def _percentiles() -> npt.NDArray[np.float64]:
    return np.array(starting_hand_percentiles(), dtype=np.float64)


def _holes(obs: Obs) -> npt.NDArray[np.int64]:
    rows, cards = np.nonzero(obs[:, HOLE:BOARD])
    holes = np.zeros((len(obs), 2), dtype=np.int64)
    holes[rows[0::2], 0], holes[rows[1::2], 1] = cards[0::2], cards[1::2]
    return holes


SAMPLES = 32
"""Deals behind each vector style's equity after the flop (the panel bots sample 200)."""


def sampled_equity(obs: Obs, rng: np.random.Generator, samples: int = SAMPLES) -> npt.NDArray[np.float64]:
    """Equity after the flop against one random hand, as the panel's `StyleBot.strength` samples it
    (ties half): `samples` deals of an opponent's hand and the rest of the board per row, drawn from
    the cards not seen; 0 before the flop."""
    out = np.zeros(len(obs))
    count = obs[:, BOARD:STREET].sum(axis=1).astype(np.int64)
    holes = _holes(obs)
    for n in (3, 4, 5):
        at = np.nonzero(count == n)[0]
        if not len(at):
            continue
        board = np.nonzero(obs[at, BOARD:STREET])[1].reshape(len(at), n)
        known = np.concatenate([holes[at], board], axis=1)
        draw = rng.random((len(at) * samples, 52))  # an order of the cards per deal: the unseen first
        np.put_along_axis(draw, np.repeat(known, samples, axis=0), 9.0, axis=1)
        need = 2 + 5 - n
        dealt = np.argpartition(draw, need, axis=1)[:, :need]
        rest = np.concatenate([np.repeat(board, samples, axis=0), dealt[:, 2:]], axis=1)
        mine = strengths_of(np.concatenate([np.repeat(holes[at], samples, axis=0), rest], axis=1))
        theirs = strengths_of(np.concatenate([dealt[:, :2], rest], axis=1))
        won = (mine > theirs) + 0.5 * (mine == theirs)
        out[at] = won.reshape(len(at), samples).mean(axis=1)
    return out


def style_opponent(style: str | Style, rng: np.random.Generator) -> Opponent:
    """A panel style (a name in `STYLES`, or a `Style`) as a vector opponent."""
    s = STYLES[style] if isinstance(style, str) else style

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        n, actions = len(obs), mask.shape[1]
        players = (obs.shape[1] - FIXED) // 5
        rest = seats_at(players) + 4 * players
        pot, to_call, stack = obs[:, rest], obs[:, rest + 1], obs[:, seats_at(players)]
        preflop = obs[:, STREET] > 0
        holes = _holes(obs)
        rank = _percentiles()[holes[:, 0] * 52 + holes[:, 1]]
        raises = obs[:, rest + 4] + (to_call * 3 >= stack + obs[:, seats_at(players) + 1]) * (to_call > 0)
        wide = np.minimum(1.0, 3 * s.open)  # heads-up: one player behind, or none
        reraise = np.where(raises >= 2, s.threebet / 3, s.threebet)
        calls = np.where(raises >= 2, s.threebet, np.maximum(s.call, s.threebet))
        pre_raise = np.where(raises == 0, rank <= wide, rank <= reraise)
        pre_call = np.where(raises == 0, rank <= min(1.0, wide + s.limp), rank <= calls)
        equity = sampled_equity(obs, rng)
        price = to_call / np.maximum(pot + to_call, 1e-9)
        bluff = rng.random(n) < np.where(obs[:, STREET + 1] > 0, (s.bluff + s.cbet) / 2, s.bluff)
        post_raise = np.where(to_call > 0, equity >= s.value + 0.15, (equity >= s.value) | bluff)
        post_call = equity >= price + s.margin
        want_raise = np.where(preflop, pre_raise, post_raise)
        want_call = np.where(preflop, pre_call, post_call) | (to_call == 0)
        size = 3 if s.size > 0.6 else 2  # the pot fraction nearest the style's bet (1.0 or 0.5)
        size = min(size, actions - 2)
        raise_at = np.where(mask[:, size], size, np.where(mask[:, actions - 1], actions - 1, 1))
        chosen = np.where(want_raise, raise_at, np.where(want_call, 1, 0))
        chosen = np.where(mask[np.arange(n), chosen], chosen, 1)
        return chosen.astype(np.int64)

    return act


def random_bot(rng: np.random.Generator) -> Opponent:
    """The ``random`` bot's choice: fold (only when facing a bet), check or call, or raise, each
    kind alike; a raise to one of the legal raises, alike."""

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        n = len(obs)
        players = (obs.shape[1] - FIXED) // 5
        facing = obs[:, seats_at(players) + 4 * players + 1] > 0
        can_fold, can_raise = mask[:, 0] & facing, mask[:, 2:].any(axis=1)
        kinds = 1 + can_fold.astype(np.int64) + can_raise
        pick = (rng.random(n) * kinds).astype(np.int64)  # 0 .. kinds - 1
        kind = np.where(can_fold, pick, pick + 1)  # 0 fold, 1 check or call, 2 raise
        raise_at = np.argmax(rng.random(mask[:, 2:].shape) * mask[:, 2:], axis=1) + 2
        return np.where(kind == 2, raise_at, np.where(kind == 0, 0, 1)).astype(np.int64)

    return act


def policy_opponent(policy: LinearPolicy, rng: np.random.Generator) -> Opponent:
    """A policy (a past version of the one learning) drawing its actions from its probabilities."""

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        probs = policy.probabilities(features(obs), mask)
        chosen: npt.NDArray[np.int64] = (probs.cumsum(axis=1) < rng.random((len(obs), 1))).sum(axis=1)
        last: npt.NDArray[np.int64] = np.minimum(chosen, probs.shape[1] - 1)
        return last

    return act


class League:
    """The opponents of a training run, a table each in turn: fixed ones (the panel, ``random``),
    and `past` slots that hold earlier versions of the policy, renewed as it learns."""

    def __init__(self, fixed: Sequence[Opponent], past: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.fixed = list(fixed)
        self.past: list[Opponent] = []
        self.slots = past
        self.opponents = self.fixed + [self.fixed[0]] * past

    def remember(self, policy: LinearPolicy) -> None:
        """Put this version of the policy in the oldest past slot (all of them at first)."""
        if not self.slots:
            return
        opponent = policy_opponent(policy, self.rng)
        if not self.past:
            self.past = [opponent] * self.slots
        else:
            self.past = [*self.past[1:], opponent]
        self.opponents[len(self.fixed) :] = self.past

    def __call__(self, obs: Obs, mask: Mask) -> npt.ArrayLike:
        chosen = np.empty(len(obs), dtype=np.int64)
        k = len(self.opponents)
        for i, opponent in enumerate(self.opponents):
            rows = np.arange(i, len(obs), k)
            if len(rows):
                chosen[rows] = np.asarray(opponent(obs[rows], mask[rows]))
        return chosen
